// Integer <-> text: integer_to_list/binary, list_to_integer, binary_to_integer (OTP: bif.c,
// big.c). Text is [+-]digits in base 2..36, either case; nothing else, not even whitespace.
#include <cctype>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

// A base argument in 2..36, or 0.
unsigned base_arg(Term t) {
    if (!is_small(t) || small_value(t) < 2 || small_value(t) > 36) return 0;
    return unsigned(small_value(t));
}

Term parse_integer(Process* p, std::string_view text, unsigned base) {
    size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
    if (i == text.size()) return p->badarg();
    std::string canon(text.substr(0, i));
    for (; i < text.size(); ++i) {
        char c = char(std::toupper(uint8_t(text[i])));
        unsigned d = c >= '0' && c <= '9' ? unsigned(c - '0') : c >= 'A' && c <= 'Z' ? unsigned(c - 'A' + 10) : 99;
        if (d >= base) return p->badarg();
        canon += c;
    }
    auto r = int_from_string(*p, canon, base);
    return r ? *r : p->badarg();
}

Term list_to_integer(Process* p, Term list, Term base_term) {
    unsigned base = base_arg(base_term);
    auto text = byte_list(list);
    if (!text || !base) return p->badarg();
    return parse_integer(p, *text, base);
}

Term binary_to_integer(Process* p, Term bin, Term base_term) {
    unsigned base = base_arg(base_term);
    if (!is_binary(bin) || !base) return p->badarg();
    std::string scratch;
    return parse_integer(p, binary_bytes(bin, scratch), base);
}

Term integer_to_list(Process* p, Term x, Term base_term) {
    unsigned base = base_arg(base_term);
    if (!is_integer(x) || !base) return p->badarg();
    return make_string(*p, int_to_string(x, base));
}

Term integer_to_binary(Process* p, Term x, Term base_term) {
    unsigned base = base_arg(base_term);
    if (!is_integer(x) || !base) return p->badarg();
    return make_binary(*p, int_to_string(x, base));
}

const Term TEN = make_small(10);

Term list_to_integer_1(Process* p, const Term* a) { return list_to_integer(p, a[0], TEN); }
Term list_to_integer_2(Process* p, const Term* a) { return list_to_integer(p, a[0], a[1]); }
Term binary_to_integer_1(Process* p, const Term* a) { return binary_to_integer(p, a[0], TEN); }
Term binary_to_integer_2(Process* p, const Term* a) { return binary_to_integer(p, a[0], a[1]); }
Term integer_to_list_1(Process* p, const Term* a) { return integer_to_list(p, a[0], TEN); }
Term integer_to_list_2(Process* p, const Term* a) { return integer_to_list(p, a[0], a[1]); }
Term integer_to_binary_1(Process* p, const Term* a) { return integer_to_binary(p, a[0], TEN); }
Term integer_to_binary_2(Process* p, const Term* a) { return integer_to_binary(p, a[0], a[1]); }

constexpr BifSpec table[] = {
    {"erlang", "list_to_integer", 1, &list_to_integer_1},
    {"erlang", "list_to_integer", 2, &list_to_integer_2},
    {"erlang", "binary_to_integer", 1, &binary_to_integer_1},
    {"erlang", "binary_to_integer", 2, &binary_to_integer_2},
    {"erlang", "integer_to_list", 1, &integer_to_list_1},
    {"erlang", "integer_to_list", 2, &integer_to_list_2},
    {"erlang", "integer_to_binary", 1, &integer_to_binary_1},
    {"erlang", "integer_to_binary", 2, &integer_to_binary_2},
};

}  // namespace

std::span<const BifSpec> convert_int_bifs() { return table; }

}  // namespace beam

#include "vm/vm.hpp"
#include "bifs/bif_util.hpp"

#include <cmath>

#include "vm/bignum.hpp"
#include "vm/copy_words.hpp"
#include "vm/map.hpp"

namespace beam {

Term make_tuple(TermAllocator& a, std::initializer_list<Term> elems) {
    return make_tuple_from(a, elems.begin(), elems.size());
}

Term make_tuple_from(TermAllocator& a, const Term* elems, size_t n) {
    Term* hp = a.alloc(1 + n);
    hp[0] = make_header(Sub::Tuple, n);
    copy_words(hp + 1, elems, n);  // setelement/3 copies a whole record this way
    return make_boxed(hp);
}

std::optional<size_t> proper_list_length(Term t) {
    size_t n = 0;
    while (is_list(t)) {
        ++n;
        t = tail(t);
    }
    if (!is_nil(t)) return std::nullopt;
    return n;
}

bool list_elements(Term list, std::vector<Term>& out) {
    while (is_list(list)) {
        out.push_back(head(list));
        list = tail(list);
    }
    return is_nil(list);
}

Term make_list_from(TermAllocator& a, const Term* elems, size_t n, Term tail_term) {
    if (n == 0) return tail_term;
    Term* hp = a.alloc(2 * n);
    Term result = tail_term;
    for (size_t i = n; i-- > 0;) result = cons_at(hp + 2 * i, elems[i], result);
    return result;
}

std::optional<double> number_to_double(Term t) {
    if (is_small(t)) return double(small_value(t));
    if (is_float(t)) return float_value(t);
    if (is_big(t)) {
        double d = int_to_double(t);
        if (!std::isfinite(d)) return std::nullopt;
        return d;
    }
    return std::nullopt;
}

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

std::optional<std::string> char_list_to_utf8(Term list) {
    std::string out;
    while (is_list(list)) {
        Term c = head(list);
        if (!is_small(c)) return std::nullopt;
        SWord v = small_value(c);
        if (v < 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return std::nullopt;
        append_utf8(out, uint32_t(v));
        list = tail(list);
    }
    if (!is_nil(list)) return std::nullopt;
    return out;
}

std::optional<std::string> byte_list(Term list) {
    std::string out;
    while (is_list(list)) {
        Term c = head(list);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 255) return std::nullopt;
        out += char(small_value(c));
        list = tail(list);
    }
    if (!is_nil(list)) return std::nullopt;
    return out;
}

bool decode_utf8(std::string_view s, std::vector<uint32_t>& out) {
    size_t i = 0;
    while (i < s.size()) {
        uint8_t b = uint8_t(s[i]);
        uint32_t cp;
        size_t len;
        if (b < 0x80) { cp = b; len = 1; }
        else if ((b & 0xE0) == 0xC0) { cp = b & 0x1F; len = 2; }
        else if ((b & 0xF0) == 0xE0) { cp = b & 0x0F; len = 3; }
        else if ((b & 0xF8) == 0xF0) { cp = b & 0x07; len = 4; }
        else return false;
        if (i + len > s.size()) return false;
        for (size_t k = 1; k < len; ++k) {
            uint8_t c = uint8_t(s[i + k]);
            if ((c & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (c & 0x3F);
        }
        // Overlong forms, surrogates and values above U+10FFFF are not UTF-8.
        static constexpr uint32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        out.push_back(cp);
        i += len;
    }
    return true;
}

Term make_byte_list(TermAllocator& a, const uint8_t* bytes, size_t n, Term tail_term) {
    if (n == 0) return tail_term;
    Term* hp = a.alloc(2 * n);
    Term result = tail_term;
    for (size_t i = n; i-- > 0;) result = cons_at(hp + 2 * i, make_small(bytes[i]), result);
    return result;
}

Term badarg_with_cause(Process* p, std::string_view name, const Term* args, unsigned arity, Term cause) {
    p->error(am::badarg);
    Term info = map_from_pairs(*p, {{atom("cause"), cause}, {am::module, am::erl_erts_errors}});
    Term item = make_tuple(*p, {am::error_info, info});
    // A prebuilt first frame: the interpreter then adds no frame of its own for the BIF.
    p->ftop = make_tuple(*p, {am::erlang, atom(name), make_list_from(*p, args, arity), make_list_from(*p, &item, 1)});
    return NON_VALUE;
}

const NodeIdentity& this_node(const Process* p) { return p->vm ? p->vm->node : not_alive_identity(); }

}  // namespace beam

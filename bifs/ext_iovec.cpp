// erlang:term_to_iovec/1,2 and erlang:external_size/1,2 (OTP: external.c).
//
// term_to_iovec returns the same bytes as term_to_binary, as a list of binaries in which
// every off-heap binary (more than 64 bytes) of the term is its own element, shared rather
// than copied; the encoded bytes around them form the other elements. OTP prints those
// lists, so we split where OTP does: we encode once, then find each large binary's
// BINARY_EXT record in encoding order (a pre-order walk, as the encoder's).
// With `compressed` OTP returns the compressed binary itself, not a list.
#include <string>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/ext_term.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

namespace beam {
namespace {

constexpr uint8_t BINARY_EXT = 109;

// Options shared by both BIFs. external_size accepts only {minor_version, 0 | 1} (erts too:
// its size function has no UTF-8 atom mode).
bool parse_options(Term options, bool allow_compress, EncodeOptions& opts) {
    Term o = options;
    for (; is_list(o); o = tail(o)) {
        Term x = head(o);
        if (allow_compress && x == am::compressed) {
            opts.compressed = 6;
        } else if (allow_compress && x == am::deterministic) {
            opts.deterministic = true;
        } else if (is_tuple(x) && tuple_arity(x) == 2 && is_small(tuple_elem(x, 1))) {
            SWord n = small_value(tuple_elem(x, 1));
            if (allow_compress && tuple_elem(x, 0) == am::compressed && n >= 0 && n <= 9)
                opts.compressed = int(n);
            else if (tuple_elem(x, 0) == am::minor_version && n >= 0 && n <= (allow_compress ? 2 : 1))
                opts.minor_version = int(n);
            else
                return false;
        } else {
            return false;
        }
    }
    return is_nil(o);
}

// Whole-byte binaries of more than 64 bytes, in the order the encoder writes them.
void large_binaries(Term top, std::vector<Term>& out) {
    std::vector<Term> stack{top};
    while (!stack.empty()) {
        Term t = stack.back();
        stack.pop_back();
        if (is_list(t)) {
            stack.push_back(tail(t));
            stack.push_back(head(t));
        } else if (is_tuple(t)) {
            for (Word i = tuple_arity(t); i-- > 0;) stack.push_back(tuple_elem(t, i));
        } else if (is_map(t)) {
            auto pairs = map_pairs(t, MapOrder::List);  // the encoder's order (deterministic aside)
            for (size_t i = pairs.size(); i-- > 0;) {
                stack.push_back(pairs[i].second);
                stack.push_back(pairs[i].first);
            }
        } else if (is_boxed_sub(t, Sub::Fun)) {
            for (size_t i = fun_num_free(t); i-- > 0;) stack.push_back(fun_free_vars(t)[i]);
        } else if (is_binary(t) && bit_view(t).byte_size() > HEAP_BIN_LIMIT) {
            out.push_back(t);
        }
    }
}

bool record_at(const std::vector<uint8_t>& enc, size_t at, std::string_view data) {
    size_t n = data.size();
    if (at + 5 + n > enc.size() || enc[at] != BINARY_EXT) return false;
    uint32_t len = uint32_t(enc[at + 1]) << 24 | uint32_t(enc[at + 2]) << 16 | uint32_t(enc[at + 3]) << 8 | enc[at + 4];
    return len == n && std::memcmp(enc.data() + at + 5, data.data(), n) == 0;
}

Term term_to_iovec(Process* p, Term t, Term options) {
    EncodeOptions opts;
    opts.node = &this_node(p);
    if (!parse_options(options, true, opts)) return p->badarg();
    std::vector<uint8_t> enc;
    if (!encode_external(t, enc, opts).ok()) return p->badarg();
    if (opts.compressed) return make_binary(*p, enc.data(), enc.size());

    std::vector<Term> bins;
    large_binaries(t, bins);
    std::vector<Term> parts;
    size_t from = 0, pos = 0;
    std::string scratch;
    for (Term b : bins) {
        std::string_view data = binary_bytes(b, scratch);
        while (pos < enc.size() && !record_at(enc, pos, data)) ++pos;
        if (pos == enc.size()) break;  // not found (cannot happen for our encoder): keep bytes
        size_t header_end = pos + 5;
        parts.push_back(make_binary(*p, enc.data() + from, header_end - from));
        parts.push_back(b);
        from = pos = header_end + data.size();
    }
    if (from < enc.size() || parts.empty()) parts.push_back(make_binary(*p, enc.data() + from, enc.size() - from));
    return make_list_from(*p, parts.data(), parts.size());
}

Term term_to_iovec_1(Process* p, const Term* a) { return term_to_iovec(p, a[0], NIL); }
Term term_to_iovec_2(Process* p, const Term* a) { return term_to_iovec(p, a[0], a[1]); }

Term external_size(Process* p, Term t, Term options) {
    EncodeOptions opts;
    opts.node = &this_node(p);
    if (!parse_options(options, false, opts)) return p->badarg();
    size_t slack = 0;
    opts.estimate_slack = &slack;
    auto size = encoded_size(t, opts);
    if (!size.ok()) return p->badarg();
    return make_integer_u(*p, uint64_t(size.value() + slack));
}

Term external_size_1(Process* p, const Term* a) { return external_size(p, a[0], NIL); }
Term external_size_2(Process* p, const Term* a) { return external_size(p, a[0], a[1]); }

constexpr BifSpec table[] = {
    {"erlang", "term_to_iovec", 1, &term_to_iovec_1},
    {"erlang", "term_to_iovec", 2, &term_to_iovec_2},
    {"erlang", "external_size", 1, &external_size_1},
    {"erlang", "external_size", 2, &external_size_2},
};

}  // namespace

std::span<const BifSpec> ext_iovec_bifs() { return table; }

}  // namespace beam

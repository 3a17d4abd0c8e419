// Lists <-> binaries and the external term format BIFs: list_to_binary, iolist_to_binary,
// iolist_size, binary_to_list/1,3, bitstring_to_list, list_to_bitstring, term_to_binary/1,2,
// binary_to_term/1,2 (OTP: binary.c, external.c).
#include <algorithm>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/code_table.hpp"
#include "bifs/iolist.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/ext_term.hpp"

namespace beam {
namespace {

// OTP's conversion BIFs trap after a budget of work and charge it as reductions, so a process
// calling them in a loop is scheduled out every call or two and its messages, timers and
// neighbours on the same scheduler get their turn. Ours run to the end in one call; charging the
// same kind of cost (one reduction per BYTES_PER_REDUCTION bytes made or read, at most the rest
// of the slice) ends the slice after the call instead (binary_SUITE:trapping starved its test
// process for minutes without it).
constexpr size_t BYTES_PER_REDUCTION = 64;
constexpr int64_t CONTEXT_REDS = 4000;  // one time slice, erts' CONTEXT_REDS (vm/interp.hpp)

void charge_bytes(Process* p, size_t bytes) {
    int64_t reds = int64_t(bytes / BYTES_PER_REDUCTION);
    p->slice_reds_used = std::max(p->slice_reds_used, std::min(p->slice_reds_used + reds, CONTEXT_REDS));
}

Term bytes_to_binary(Process* p, const std::vector<uint8_t>& bytes) {
    charge_bytes(p, bytes.size());
    return make_binary(*p, bytes.data(), bytes.size());
}

Term list_to_binary_1(Process* p, const Term* a) {
    std::vector<uint8_t> bytes;
    if (!(is_list(a[0]) || is_nil(a[0])) || !iolist_to_bytes(a[0], bytes)) return p->badarg();
    return bytes_to_binary(p, bytes);
}

Term iolist_to_binary_1(Process* p, const Term* a) {
    if (is_binary(a[0])) return a[0];
    return list_to_binary_1(p, a);
}

Term iolist_size_1(Process* p, const Term* a) {
    auto n = iolist_byte_size(a[0]);
    return n ? make_integer_u(*p, uint64_t(*n)) : p->badarg();  // a shared subterm can count past a small
}

Term list_to_bitstring_1(Process* p, const Term* a) {
    BitBuffer buf;
    if (!(is_list(a[0]) || is_nil(a[0])) || !bitlist_to_bits(a[0], buf)) return p->badarg();
    charge_bytes(p, buf.bytes.size());
    Term whole = make_binary(*p, buf.bytes.data(), buf.bytes.size());
    if ((buf.bits & 7) == 0) return whole;
    return make_sub_binary(*p, whole, 0, buf.bits);
}

Term binary_to_list_1(Process* p, const Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    std::string scratch;
    std::string_view bytes = binary_bytes(a[0], scratch);
    charge_bytes(p, bytes.size());
    return make_byte_list(*p, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

// Bytes Start..Stop, 1-based and inclusive, 1 =< Start =< Stop =< byte_size.
Term binary_to_list_3(Process* p, const Term* a) {
    if (!is_binary(a[0]) || !is_small(a[1]) || !is_small(a[2])) return p->badarg();
    std::string scratch;
    std::string_view bytes = binary_bytes(a[0], scratch);
    SWord start = small_value(a[1]), stop = small_value(a[2]);
    if (start < 1 || start > stop || size_t(stop) > bytes.size()) return p->badarg();
    return make_byte_list(*p, reinterpret_cast<const uint8_t*>(bytes.data()) + start - 1, size_t(stop - start + 1));
}

// Whole bytes as integers, then the trailing bits (if any) as a last element: [1,2,<<3:3>>].
Term bitstring_to_list_1(Process* p, const Term* a) {
    if (!is_bitstring(a[0])) return p->badarg();
    BitView v = bit_view(a[0]);
    Term tail_term = NIL;
    size_t rest = v.bit_size & 7;
    if (rest) tail_term = cons_at(p->alloc(2), make_sub_binary(*p, a[0], v.bit_size - rest, rest), NIL);
    std::string scratch;
    std::string_view bytes = binary_bytes(a[0], scratch);
    charge_bytes(p, bytes.size());
    return make_byte_list(*p, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), tail_term);
}

Term term_to_binary(Process* p, Term t, Term options) {
    EncodeOptions opts;
    opts.node = &this_node(p);
    Term o = options;
    for (; is_list(o); o = tail(o)) {
        Term x = head(o);
        if (x == am::compressed) {
            opts.compressed = 6;  // zlib's default level, as OTP
        } else if (x == am::deterministic) {
            opts.deterministic = true;
        } else if (is_tuple(x) && tuple_arity(x) == 2 && is_small(tuple_elem(x, 1))) {
            SWord n = small_value(tuple_elem(x, 1));
            if (tuple_elem(x, 0) == am::compressed && n >= 0 && n <= 9) {
                opts.compressed = int(n);
            } else if (tuple_elem(x, 0) == am::minor_version && n >= 0 && n <= 2) {
                opts.minor_version = int(n);
            } else {
                return p->badarg();
            }
        } else {
            return p->badarg();
        }
    }
    if (!is_nil(o)) return p->badarg();
    auto bin = encode_external_binary(*p, t, opts);
    if (!bin.ok()) return p->badarg();
    charge_bytes(p, bit_view(bin.value()).byte_size());
    return bin.value();
}

Term term_to_binary_1(Process* p, const Term* a) { return term_to_binary(p, a[0], NIL); }
Term term_to_binary_2(Process* p, const Term* a) { return term_to_binary(p, a[0], a[1]); }

Term binary_to_term(Process* p, Term bin, Term options) {
    if (!is_binary(bin)) return p->badarg();
    DecodeOptions opts;
    opts.resolve_export = runtime_decode_hooks.resolve_export;
    opts.resolve_fun = runtime_decode_hooks.resolve_fun;
    opts.resolve_ctx = p;
    opts.node = &this_node(p);
    bool want_used = false;
    Term o = options;
    for (; is_list(o); o = tail(o)) {
        if (head(o) == am::safe) {
            opts.safe = true;
        } else if (head(o) == am::used) {
            want_used = true;
        } else {
            return p->badarg();
        }
    }
    if (!is_nil(o)) return p->badarg();
    // A namespace with max_atoms (vm/sandbox.hpp) decodes as with `safe`: the atoms a term
    // would create are not counted one by one, so none is created there.
    if (p->ns && p->ns->policy().max_atoms != SandboxPolicy::UNLIMITED) [[unlikely]]
        opts.safe = true;
    std::string scratch;
    std::string_view bytes = binary_bytes(bin, scratch);
    size_t used = 0;
    charge_bytes(p, bytes.size());
    auto r = decode_external(*p, {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, &used, opts);
    if (!r.ok()) return p->badarg();
    if (!want_used) return r.value();
    return make_tuple(*p, {r.value(), make_small(SWord(used))});
}

Term binary_to_term_1(Process* p, const Term* a) { return binary_to_term(p, a[0], NIL); }
Term binary_to_term_2(Process* p, const Term* a) { return binary_to_term(p, a[0], a[1]); }

constexpr BifSpec table[] = {
    {"erlang", "list_to_binary", 1, &list_to_binary_1},
    {"erlang", "iolist_to_binary", 1, &iolist_to_binary_1},
    {"erlang", "iolist_size", 1, &iolist_size_1},
    {"erlang", "list_to_bitstring", 1, &list_to_bitstring_1},
    {"erlang", "binary_to_list", 1, &binary_to_list_1},
    {"erlang", "binary_to_list", 3, &binary_to_list_3},
    {"erlang", "bitstring_to_list", 1, &bitstring_to_list_1},
    {"erlang", "term_to_binary", 1, &term_to_binary_1},
    {"erlang", "term_to_binary", 2, &term_to_binary_2},
    {"erlang", "binary_to_term", 1, &binary_to_term_1},
    {"erlang", "binary_to_term", 2, &binary_to_term_2},
};

}  // namespace

std::span<const BifSpec> convert_bin_bifs() { return table; }

}  // namespace beam

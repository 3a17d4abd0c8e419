// erts_internal's views of a term's representation, which OTP's own Erlang code calls
// (erts_debug:size/1, maps, lists:sort's helpers): term_type/1, cmp_term/2,
// map_to_tuple_keys/1, map_hashmap_children/1 (OTP: erl_map.c, bif.c). beamvm's layout is
// OTP's for every type these name (docs/architecture.md), so the answers are erts' own.
#include <algorithm>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"

namespace beam {
namespace {

const char* boxed_type(Term t) {
    switch (header_sub(box_header(t))) {
    case Sub::Tuple: return "tuple";
    case Sub::MatchState: return "matchstate";
    case Sub::PosBig:
    case Sub::NegBig: return "bignum";
    case Sub::Ref: return "reference";
    case Sub::Fun: return "fun";
    case Sub::Float: return "hfloat";
    case Sub::Export: return "export";
    case Sub::RefcBin: return "refc_binary";
    case Sub::HeapBin: return "heap_binary";
    case Sub::SubBin: return "sub_binary";
    case Sub::Map: return "flatmap";
    case Sub::ExtPid: return "external_pid";
    case Sub::ExtPort: return "external_port";
    case Sub::ExtRef: return "external_reference";
    case Sub::HashMap: return hamt_is_head(t) ? "hashmap" : "hashmap_node";
    }
    return nullptr;
}

Term term_type_1(Process* p, const Term* a) {
    Term t = a[0];
    const char* name = nullptr;
    if (is_list(t)) name = "list";
    else if (is_boxed(t)) name = boxed_type(t);
    else if (is_small(t)) name = "fixnum";
    else if (is_atom(t)) name = "atom";
    else if (is_local_pid(t)) name = "pid";
    else if (is_local_port(t)) name = "port";
    else if (is_nil(t)) name = "nil";
    return name ? atom(name) : p->badarg();
}

// Term order where an integer sorts before an equal float (map key order).
Term cmp_term_2(Process*, const Term* a) { return make_small(compare_terms_exact(a[0], a[1])); }

// The keys tuple a flat map shares with the maps built from the same literal.
Term map_to_tuple_keys_1(Process* p, const Term* a) {
    if (is_flat_map(a[0])) return map_keys_tuple(a[0]);
    if (is_hash_map(a[0])) return p->badarg();
    return p->error2(am::badmap, a[0]);
}

// A trie node's children (sub-nodes, or [Key | Value] leaves), last first as erts lists them.
Term map_hashmap_children_1(Process* p, const Term* a) {
    Term m = a[0];
    if (is_flat_map(m)) return p->badarg();
    if (!is_hash_map(m)) return p->error2(am::badmap, m);
    const Term* kids = hamt_children(m);
    std::vector<Term> last_first(kids, kids + hamt_child_count(m));
    std::reverse(last_first.begin(), last_first.end());
    return make_list_from(*p, last_first.data(), last_first.size());
}

constexpr BifSpec table[] = {
    {"erts_internal", "term_type", 1, &term_type_1},
    {"erts_internal", "cmp_term", 2, &cmp_term_2},
    {"erts_internal", "map_to_tuple_keys", 1, &map_to_tuple_keys_1},
    {"erts_internal", "map_hashmap_children", 1, &map_hashmap_children_1},
};

}  // namespace

std::span<const BifSpec> internal_terms_bifs() { return table; }

}  // namespace beam

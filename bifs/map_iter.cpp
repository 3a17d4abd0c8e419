// erts_internal:map_next/3, the native under maps:iterator/next/to_list/fold/map/filter
// (OTP: erl_map.c). Called as map_next(Path, Map, Acc):
//   Acc = iterator  -> {K1, V1, {K2, V2, ... none}}   (the iterator chain for maps:next/1)
//   Acc = a list    -> [{K, V}, ... | Acc] in list order
// (vm/map.hpp): maps:next and maps:fold visit a trie depth first in ascending slots, and
// maps:to_list comes out in the reverse of that, as on erl; a flat map is in key order for both. OTP walks a
// trie in chunks and returns [Path', Map | Acc] to be called again; here every pair comes at
// once, which gives the same results; Path is only range-checked (0..size for a flat map, as
// the earlier flat-only version did against erl; only 0 for a trie, since no later Path is made).
#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/map.hpp"

namespace beam {
namespace {

Term map_next_3(Process* p, const Term* a) {
    Term path = a[0], map = a[1], acc = a[2];
    if (!is_map(map) || !is_small(path)) return p->badarg();
    SWord limit = is_flat_map(map) ? SWord(map_size(map)) : 0;
    if (small_value(path) < 0 || small_value(path) > limit) return p->badarg();
    if (is_flat_map(map) && (acc == am::iterator || is_list(acc) || is_nil(acc))) {
        // A flat map's pairs read in place (maps:fold/map/filter iterate through here; the
        // vector of pairs was the largest malloc left in compile:file/2's profile).
        size_t n = map_size(map);
        const Term* ks = flat_map_keys(map);
        const Term* vs = flat_map_values(map);
        Term out = acc == am::iterator ? am::none : acc;
        for (size_t i = n; i-- > 0;)
            out = acc == am::iterator ? make_tuple(*p, {ks[i], vs[i], out})
                                      : cons_at(p->alloc(2), make_tuple(*p, {ks[i], vs[i]}), out);
        return out;
    }
    auto pairs = map_pairs(map, MapOrder::Iteration);
    if (acc == am::iterator) {
        Term chain = am::none;
        for (size_t i = pairs.size(); i-- > 0;) chain = make_tuple(*p, {pairs[i].first, pairs[i].second, chain});
        return chain;
    }
    if (!is_list(acc) && !is_nil(acc)) return p->badarg();
    // List order: key order for a flat map, reverse iteration order for a trie.
    Term out = acc;
    if (is_flat_map(map)) {
        for (size_t i = pairs.size(); i-- > 0;) out = cons_at(p->alloc(2), make_tuple(*p, {pairs[i].first, pairs[i].second}), out);
    } else {
        for (const auto& [k, v] : pairs) out = cons_at(p->alloc(2), make_tuple(*p, {k, v}), out);
    }
    return out;
}

constexpr BifSpec table[] = {
    {"erts_internal", "map_next", 3, &map_next_3},
};

}  // namespace

std::span<const BifSpec> map_iter_bifs() { return table; }

}  // namespace beam

// erts_internal:map_next/3, the native under maps:iterator/next/to_list/fold/map/filter
// (OTP: erl_map.c). Called as map_next(Path, Map, Acc):
//   Acc = iterator  -> {K1, V1, {K2, V2, ... none}}   (the iterator chain for maps:next/1)
//   Acc = a list    -> [{K1, V1}, {K2, V2}, ... | Acc]
// OTP walks a hash trie in chunks and returns [Path', Map | Acc] to be called again; for a
// flat map it returns every pair at once and only checks that Path is 0..size. Our maps are
// flat at every size (vm/map.hpp), so the chunked form never arises here.
#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/map.hpp"

namespace beam {
namespace {

Term map_next_3(Process* p, const Term* a) {
    Term path = a[0], map = a[1], acc = a[2];
    if (!is_flat_map(map) || !is_small(path)) return p->badarg();
    size_t n = map_size(map);
    if (small_value(path) < 0 || size_t(small_value(path)) > n) return p->badarg();
    const Term* keys = map_keys(map);
    const Term* values = map_values(map);
    if (acc == am::iterator) {
        Term chain = am::none;
        for (size_t i = n; i-- > 0;) chain = make_tuple(*p, {keys[i], values[i], chain});
        return chain;
    }
    if (!is_list(acc) && !is_nil(acc)) return p->badarg();
    Term out = acc;
    for (size_t i = n; i-- > 0;) out = cons_at(p->alloc(2), make_tuple(*p, {keys[i], values[i]}), out);
    return out;
}

constexpr BifSpec table[] = {
    {"erts_internal", "map_next", 3, &map_next_3},
};

}  // namespace

std::span<const BifSpec> map_iter_bifs() { return table; }

}  // namespace beam

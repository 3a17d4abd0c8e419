// Flat maps: keys sorted in map-key order (compare_terms_exact) in a separate keys tuple, so
// updating values of existing keys shares the keys tuple with the original map.
#include "vm/map.hpp"

#include <algorithm>

#include "vm/term_order.hpp"

namespace beam {

namespace {

// Index of the first key not less than `key`; `found` tells whether it is =:= key.
size_t lower_bound(Term map, Term key, bool* found) {
    const Term* keys = map_keys(map);
    size_t lo = 0, hi = map_size(map);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (compare_terms_exact(keys[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < map_size(map) && compare_terms_exact(keys[lo], key) == 0;
    return lo;
}

Term alloc_keys_tuple(TermAllocator& a, size_t n, Term** elems) {
    Term* hp = a.alloc(1 + n);
    hp[0] = make_header(Sub::Tuple, n);
    *elems = hp + 1;
    return make_boxed(hp);
}

Term alloc_map(TermAllocator& a, Term keys, size_t n, Term** values) {
    Term* hp = a.alloc(flat_map_words(n));
    hp[0] = make_header(Sub::Map, 1 + n);
    hp[1] = keys;
    *values = hp + 2;
    return make_boxed(hp);
}

}  // namespace

const Term* map_get(Term map, Term key) {
    bool found;
    size_t i = lower_bound(map, key, &found);
    return found ? map_values(map) + i : nullptr;
}

Term empty_map(TermAllocator& a) {
    Term* ks;
    Term* vs;
    Term keys = alloc_keys_tuple(a, 0, &ks);
    return alloc_map(a, keys, 0, &vs);
}

Term map_from_pairs(TermAllocator& a, std::vector<std::pair<Term, Term>> pairs) {
    // Stable sort keeps duplicates in input order, so the last of each run is the one that wins.
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& x, const auto& y) { return compare_terms_exact(x.first, y.first) < 0; });
    size_t n = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (i + 1 < pairs.size() && compare_terms_exact(pairs[i].first, pairs[i + 1].first) == 0) continue;
        pairs[n++] = pairs[i];
    }
    Term* ks;
    Term* vs;
    Term keys = alloc_keys_tuple(a, n, &ks);
    Term map = alloc_map(a, keys, n, &vs);
    for (size_t i = 0; i < n; ++i) {
        ks[i] = pairs[i].first;
        vs[i] = pairs[i].second;
    }
    return map;
}

Term map_put(TermAllocator& a, Term map, Term key, Term value) {
    bool found;
    size_t pos = lower_bound(map, key, &found);
    size_t n = map_size(map);
    const Term* old_vs = map_values(map);
    Term* vs;
    if (found) {
        if (old_vs[pos] == value) return map;
        Term m = alloc_map(a, map_keys_tuple(map), n, &vs);
        std::copy(old_vs, old_vs + n, vs);
        vs[pos] = value;
        return m;
    }
    const Term* old_ks = map_keys(map);
    Term* ks;
    Term keys = alloc_keys_tuple(a, n + 1, &ks);
    Term m = alloc_map(a, keys, n + 1, &vs);
    std::copy(old_ks, old_ks + pos, ks);
    std::copy(old_vs, old_vs + pos, vs);
    ks[pos] = key;
    vs[pos] = value;
    std::copy(old_ks + pos, old_ks + n, ks + pos + 1);
    std::copy(old_vs + pos, old_vs + n, vs + pos + 1);
    return m;
}

Term map_remove(TermAllocator& a, Term map, Term key) {
    bool found;
    size_t pos = lower_bound(map, key, &found);
    if (!found) return map;
    size_t n = map_size(map);
    const Term* old_ks = map_keys(map);
    const Term* old_vs = map_values(map);
    Term* ks;
    Term* vs;
    Term keys = alloc_keys_tuple(a, n - 1, &ks);
    Term m = alloc_map(a, keys, n - 1, &vs);
    std::copy(old_ks, old_ks + pos, ks);
    std::copy(old_vs, old_vs + pos, vs);
    std::copy(old_ks + pos + 1, old_ks + n, ks + pos);
    std::copy(old_vs + pos + 1, old_vs + n, vs + pos);
    return m;
}

}  // namespace beam

// Map operations for both layouts (vm/map.hpp). Flat maps are handled here; trie maps in
// vm/map_hamt.cpp. The conversions at MAP_SMALL_LIMIT live here because they need both.
#include "vm/map.hpp"

#include <algorithm>

#include "vm/term_order.hpp"

namespace beam {

namespace {

// Index of the first key not less than `key`; `found` tells whether it is =:= key.
size_t lower_bound(Term map, Term key, bool* found) {
    return search_sorted_exact(flat_map_keys(map), map_size(map), key, found);
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

// `pairs` sorted by key and without duplicates.
Term flat_from_sorted(TermAllocator& a, const std::vector<std::pair<Term, Term>>& pairs) {
    Term* ks;
    Term* vs;
    size_t n = pairs.size();
    Term keys = alloc_keys_tuple(a, n, &ks);
    Term map = alloc_map(a, keys, n, &vs);
    for (size_t i = 0; i < n; ++i) {
        ks[i] = pairs[i].first;
        vs[i] = pairs[i].second;
    }
    return map;
}

// Where key is or would go. An immediate key already present is found by a scan, as in
// map_get (an update of an existing atom key is the common put).
size_t put_position(Term map, Term key, bool* found) {
    if (is_immediate(key)) {
        const Term* keys = flat_map_keys(map);
        for (size_t i = 0, n = map_size(map); i < n; ++i) {
            if (keys[i] == key) {
                *found = true;
                return i;
            }
        }
    }
    return lower_bound(map, key, found);
}

Term flat_put(TermAllocator& a, Term map, Term key, Term value) {
    bool found;
    size_t pos = put_position(map, key, &found);
    size_t n = map_size(map);
    const Term* old_vs = flat_map_values(map);
    Term* vs;
    if (found) {
        if (old_vs[pos] == value) return map;
        Term m = alloc_map(a, map_keys_tuple(map), n, &vs);
        std::copy(old_vs, old_vs + n, vs);
        vs[pos] = value;
        return m;
    }
    const Term* old_ks = flat_map_keys(map);
    if (n == MAP_SMALL_LIMIT) {  // the 33rd key turns the map into a trie
        auto pairs = map_pairs(map, MapOrder::Iteration);
        pairs.emplace_back(key, value);
        return hamt::from_pairs(a, pairs);
    }
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

Term flat_remove(TermAllocator& a, Term map, Term key) {
    bool found;
    size_t pos = lower_bound(map, key, &found);
    if (!found) return map;
    size_t n = map_size(map);
    const Term* old_ks = flat_map_keys(map);
    const Term* old_vs = flat_map_values(map);
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

}  // namespace

const Term* map_get(Term map, Term key) {
    if (!is_flat_map(map)) return hamt::get(map, key);
    if (is_immediate(key)) {
        // An immediate is =:= only to the same word: a scan of at most 32 words beats a binary
        // search whose steps compare atoms by name.
        const Term* keys = flat_map_keys(map);
        for (size_t i = 0, n = map_size(map); i < n; ++i)
            if (keys[i] == key) return flat_map_values(map) + i;
        return nullptr;
    }
    bool found;
    size_t i = lower_bound(map, key, &found);
    return found ? flat_map_values(map) + i : nullptr;
}

Term empty_map(TermAllocator& a) { return flat_from_sorted(a, {}); }

Term map_from_pairs(TermAllocator& a, std::vector<std::pair<Term, Term>> pairs) {
    // Keys already strictly in order (binary_to_term of a flat map, written in key order) need
    // no sort, and so no sort buffer.
    size_t n = 1;
    while (n < pairs.size() && compare_terms_exact(pairs[n - 1].first, pairs[n].first) < 0) ++n;
    if (n < pairs.size()) {
        // Stable sort keeps duplicates in input order, so the last of each run is the one that wins.
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](const auto& x, const auto& y) { return compare_terms_exact(x.first, y.first) < 0; });
        n = 0;
        for (size_t i = 0; i < pairs.size(); ++i) {
            if (i + 1 < pairs.size() && compare_terms_exact(pairs[i].first, pairs[i + 1].first) == 0) continue;
            pairs[n++] = pairs[i];
        }
        pairs.resize(n);
    }
    if (pairs.size() > MAP_SMALL_LIMIT) return hamt::from_pairs(a, pairs);
    return flat_from_sorted(a, pairs);
}

Term map_put_many(TermAllocator& a, Term map, std::vector<std::pair<Term, Term>> kvs) {
    if (!is_flat_map(map) || kvs.empty()) {
        for (const auto& [k, v] : kvs) map = map_put(a, map, k, v);
        return map;
    }
    // The new pairs sorted (the last of equal keys wins), then merged with the map's keys,
    // which are already in order: no sort of the whole map.
    std::stable_sort(kvs.begin(), kvs.end(),
                     [](const auto& x, const auto& y) { return compare_terms_exact(x.first, y.first) < 0; });
    size_t m = 0;
    for (size_t i = 0; i < kvs.size(); ++i) {
        if (i + 1 < kvs.size() && compare_terms_exact(kvs[i].first, kvs[i + 1].first) == 0) continue;
        kvs[m++] = kvs[i];
    }
    kvs.resize(m);
    size_t n = map_size(map);
    const Term* ks = flat_map_keys(map);
    const Term* vs = flat_map_values(map);
    std::vector<std::pair<Term, Term>> out;
    out.reserve(n + m);
    size_t i = 0, j = 0;
    while (i < n && j < m) {
        int c = compare_terms_exact(ks[i], kvs[j].first);
        if (c < 0) {
            out.emplace_back(ks[i], vs[i]);
            ++i;
        } else if (c > 0) {
            out.push_back(kvs[j++]);
        } else {
            out.emplace_back(ks[i], kvs[j++].second);
            ++i;
        }
    }
    for (; i < n; ++i) out.emplace_back(ks[i], vs[i]);
    for (; j < m; ++j) out.push_back(kvs[j]);
    if (out.size() > MAP_SMALL_LIMIT) return hamt::from_pairs(a, out);
    if (out.size() == n) {
        // Only values changed: the new map shares the old one's key tuple.
        Term* nvs;
        Term result = alloc_map(a, map_keys_tuple(map), n, &nvs);
        for (size_t k = 0; k < n; ++k) nvs[k] = out[k].second;
        return result;
    }
    return flat_from_sorted(a, out);
}

Term map_put(TermAllocator& a, Term map, Term key, Term value) {
    return is_flat_map(map) ? flat_put(a, map, key, value) : hamt::put(a, map, key, value);
}

Term map_remove(TermAllocator& a, Term map, Term key) {
    if (is_flat_map(map)) return flat_remove(a, map, key);
    if (map_size(map) == MAP_SMALL_LIMIT + 1) {  // back to a flat map, as erl does
        if (!hamt::get(map, key)) return map;
        auto pairs = map_pairs(map, MapOrder::Iteration);
        std::erase_if(pairs, [&](const auto& kv) { return eq_exact(kv.first, key); });
        return map_from_pairs(a, std::move(pairs));
    }
    return hamt::remove(a, map, key);
}

MapIterator::MapIterator(Term map) : map_(map) {
    if (!is_flat_map(map)) stack_.push_back({hamt_children(map), uint32_t(hamt_child_count(map)), 0});
}

bool MapIterator::next(Term* key, Term* value) {
    if (is_flat_map(map_)) {
        if (flat_at_ == map_size(map_)) return false;
        *key = flat_map_keys(map_)[flat_at_];
        *value = flat_map_values(map_)[flat_at_];
        ++flat_at_;
        return true;
    }
    while (!stack_.empty()) {
        Frame& f = stack_.back();
        if (f.at == f.count) {
            stack_.pop_back();
            continue;
        }
        Term c = f.children[f.at++];
        if (is_list(c)) {
            *key = head(c);
            *value = tail(c);
            return true;
        }
        stack_.push_back({hamt_children(c), uint32_t(hamt_child_count(c)), 0});
    }
    return false;
}

std::vector<std::pair<Term, Term>> map_pairs(Term map, MapOrder order) {
    std::vector<std::pair<Term, Term>> out;
    out.reserve(map_size(map));
    MapIterator it(map);
    Term k, v;
    while (it.next(&k, &v)) out.emplace_back(k, v);
    if (order == MapOrder::List && !is_flat_map(map)) std::reverse(out.begin(), out.end());
    return out;
}

}  // namespace beam

// Map BIFs: the maps module's natives and erlang:map_size/is_map_key/map_get (OTP:
// erl_map.c). A non-map argument is {badmap, M}; a missing key where one is required is
// {badkey, K}; a malformed list argument is badarg. Checked on erl for each BIF.
#include <algorithm>
#include <utility>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"

namespace beam {
namespace {

Term badmap(Process* p, Term m) { return p->error2(am::badmap, m); }
Term badkey(Process* p, Term k) { return p->error2(am::badkey, k); }

Term get_2(Process* p, const Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    const Term* v = map_get(a[1], a[0]);
    return v ? *v : badkey(p, a[0]);
}

Term find_2(Process* p, const Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    const Term* v = map_get(a[1], a[0]);
    return v ? make_tuple(*p, {am::ok, *v}) : am::error;
}

Term put_3(Process* p, const Term* a) {
    if (!is_map(a[2])) return badmap(p, a[2]);
    return map_put(*p, a[2], a[0], a[1]);
}

Term update_3(Process* p, const Term* a) {
    if (!is_map(a[2])) return badmap(p, a[2]);
    if (!map_get(a[2], a[0])) return badkey(p, a[0]);
    return map_put(*p, a[2], a[0], a[1]);
}

Term remove_2(Process* p, const Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    return map_remove(*p, a[1], a[0]);
}

Term take_2(Process* p, const Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    const Term* v = map_get(a[1], a[0]);
    if (!v) return am::error;
    Term value = *v;
    return make_tuple(*p, {value, map_remove(*p, a[1], a[0])});
}

// Two flat maps: their keys are both sorted, so one merge pass finds the result's keys (the
// second map's value wins on an equal key), written straight to the heap. The profile of
// compile:file/2 showed the earlier way (both maps' pairs copied to vectors and stable-sorted)
// as 0.5% in malloc alone. A result with exactly one map's keys shares that map's key tuple.
Term merge_flat(Process* p, Term m0, Term m1) {
    size_t n0 = map_size(m0), n1 = map_size(m1);
    const Term* k0 = flat_map_keys(m0);
    const Term* k1 = flat_map_keys(m1);
    const Term* v0 = flat_map_values(m0);
    const Term* v1 = flat_map_values(m1);
    // Uninitialised on purpose (a Term array would be filled with NIL): at most 2 x 32 pairs.
    union Pairs {
        Pairs() {}
        Term k[2 * MAP_SMALL_LIMIT];
    } keys_, values_;
    Term* ks = keys_.k;
    Term* vs = values_.k;
    size_t n = 0, i = 0, j = 0;
    while (i < n0 && j < n1) {
        int c = compare_terms_exact(k0[i], k1[j]);
        if (c < 0) {
            ks[n] = k0[i];
            vs[n++] = v0[i++];
        } else {
            if (c == 0) ++i;
            ks[n] = k1[j];
            vs[n++] = v1[j++];
        }
    }
    for (; i < n0; ++i, ++n) ks[n] = k0[i], vs[n] = v0[i];
    for (; j < n1; ++j, ++n) ks[n] = k1[j], vs[n] = v1[j];
    if (n > MAP_SMALL_LIMIT) {
        std::vector<std::pair<Term, Term>> pairs;
        pairs.reserve(n);
        for (size_t k = 0; k < n; ++k) pairs.emplace_back(ks[k], vs[k]);
        return map_from_pairs(*p, std::move(pairs));
    }
    Term keys;
    if (n == n0) {
        keys = map_keys_tuple(m0);
    } else if (n == n1) {
        keys = map_keys_tuple(m1);
    } else {
        Term* kp = p->alloc(1 + n);
        kp[0] = make_header(Sub::Tuple, n);
        std::copy(ks, ks + n, kp + 1);
        keys = make_boxed(kp);
    }
    Term* hp = p->alloc(flat_map_words(n));
    hp[0] = make_header(Sub::Map, 1 + n);
    hp[1] = keys;
    std::copy(vs, vs + n, hp + 2);
    return make_boxed(hp);
}

// Values of the second map win. Two flat maps merge in one pass (merge_flat); otherwise the
// smaller map's pairs are put into the larger one.
Term merge_2(Process* p, const Term* a) {
    if (!is_map(a[0])) return badmap(p, a[0]);
    if (!is_map(a[1])) return badmap(p, a[1]);
    if (map_size(a[1]) == 0) return a[0];
    if (map_size(a[0]) == 0) return a[1];
    if (is_flat_map(a[0]) && is_flat_map(a[1])) return merge_flat(p, a[0], a[1]);
    Term m;
    if (map_size(a[1]) <= map_size(a[0])) {
        m = a[0];
        for (const auto& [k, v] : map_pairs(a[1], MapOrder::Iteration)) m = map_put(*p, m, k, v);
    } else {
        m = a[1];
        for (const auto& [k, v] : map_pairs(a[0], MapOrder::Iteration))
            if (!map_get(m, k)) m = map_put(*p, m, k, v);
    }
    return m;
}

// keys/values/to_list build their lists in list order (vm/map.hpp), as OTP does.
Term keys_1(Process* p, const Term* a) {
    if (!is_map(a[0])) return badmap(p, a[0]);
    // A flat map's keys are its list order already.
    if (is_flat_map(a[0])) return make_list_from(*p, flat_map_keys(a[0]), map_size(a[0]));
    std::vector<Term> keys;
    for (const auto& kv : map_pairs(a[0], MapOrder::List)) keys.push_back(kv.first);
    return make_list_from(*p, keys.data(), keys.size());
}

Term values_1(Process* p, const Term* a) {
    if (!is_map(a[0])) return badmap(p, a[0]);
    if (is_flat_map(a[0])) return make_list_from(*p, flat_map_values(a[0]), map_size(a[0]));
    std::vector<Term> values;
    for (const auto& kv : map_pairs(a[0], MapOrder::List)) values.push_back(kv.second);
    return make_list_from(*p, values.data(), values.size());
}

Term to_list_1(Process* p, const Term* a) {
    Term m = a[0];
    if (!is_map(m)) return badmap(p, m);
    if (is_flat_map(m)) {
        // One allocation for the n pairs and n cells, built from the last pair back.
        size_t n = map_size(m);
        const Term* ks = flat_map_keys(m);
        const Term* vs = flat_map_values(m);
        Term* hp = p->alloc(5 * n);
        Term list = NIL;
        for (size_t i = n; i-- > 0; hp += 5) {
            hp[0] = make_header(Sub::Tuple, 2);
            hp[1] = ks[i];
            hp[2] = vs[i];
            hp[3] = make_boxed(hp);
            hp[4] = list;
            list = make_list(hp + 3);
        }
        return list;
    }
    std::vector<Term> pairs;
    for (const auto& [k, v] : map_pairs(m, MapOrder::List)) pairs.push_back(make_tuple(*p, {k, v}));
    return make_list_from(*p, pairs.data(), pairs.size());
}

// maps:from_list/1 of a list whose keys fit a flat map: each pair inserted in place into sorted
// arrays on the C stack (a later equal key replaces the value, as OTP's last-wins rule), then
// the map written once. NON_VALUE when the list is improper, holds a non-pair, or has more
// than 32 distinct keys: the general path below decides. (The general path's vectors and
// stable_sort buffer were 0.4% of compile:file/2's profile in malloc.)
Term from_list_flat(Process* p, Term list) {
    union Slots {
        Slots() {}
        Term t[MAP_SMALL_LIMIT];
    } keys_, values_;
    Term* ks = keys_.t;
    Term* vs = values_.t;
    size_t n = 0;
    for (; is_list(list); list = tail(list)) {
        Term e = head(list);
        if (!is_tuple(e) || tuple_arity(e) != 2) return NON_VALUE;
        Term k = tuple_elem(e, 0), v = tuple_elem(e, 1);
        size_t lo = 0, hi = n;
        bool found = false;
        if (n > 0 && compare_terms_exact(ks[n - 1], k) < 0) {
            lo = n;  // ascending input (the common case) appends
        } else {
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                int c = compare_terms_exact(ks[mid], k);
                if (c == 0) {
                    found = true;
                    lo = mid;
                    break;
                }
                if (c < 0) lo = mid + 1;
                else hi = mid;
            }
        }
        if (found) {
            vs[lo] = v;
            continue;
        }
        if (n == MAP_SMALL_LIMIT) return NON_VALUE;
        for (size_t i = n; i > lo; --i) ks[i] = ks[i - 1], vs[i] = vs[i - 1];
        ks[lo] = k;
        vs[lo] = v;
        ++n;
    }
    if (!is_nil(list)) return NON_VALUE;
    Term* kp = p->alloc(1 + n + flat_map_words(n));
    kp[0] = make_header(Sub::Tuple, n);
    std::copy(ks, ks + n, kp + 1);
    Term* hp = kp + 1 + n;
    hp[0] = make_header(Sub::Map, 1 + n);
    hp[1] = make_boxed(kp);
    std::copy(vs, vs + n, hp + 2);
    return make_boxed(hp);
}

Term from_list_1(Process* p, const Term* a) {
    Term m = from_list_flat(p, a[0]);
    if (is_value(m)) return m;
    std::vector<Term> elems;
    if (!list_elements(a[0], elems)) return p->badarg();
    std::vector<std::pair<Term, Term>> pairs;
    pairs.reserve(elems.size());
    for (Term e : elems) {
        if (!is_tuple(e) || tuple_arity(e) != 2) return p->badarg();
        pairs.emplace_back(tuple_elem(e, 0), tuple_elem(e, 1));
    }
    return map_from_pairs(*p, std::move(pairs));
}

Term from_keys_2(Process* p, const Term* a) {
    std::vector<Term> keys;
    if (!list_elements(a[0], keys)) return p->badarg();
    std::vector<std::pair<Term, Term>> pairs;
    pairs.reserve(keys.size());
    for (Term k : keys) pairs.emplace_back(k, a[1]);
    return map_from_pairs(*p, std::move(pairs));
}

Term is_key_2(Process* p, const Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    return make_bool(map_get(a[1], a[0]) != nullptr);
}

Term size_1(Process* p, const Term* a) {
    if (!is_map(a[0])) return badmap(p, a[0]);
    return make_small(SWord(map_size(a[0])));
}

// erlang:is_map_key(Key, Map) and erlang:map_get(Key, Map) take the key first, like maps:.
constexpr BifSpec table[] = {
    {"maps", "get", 2, &get_2},
    {"maps", "find", 2, &find_2},
    {"maps", "put", 3, &put_3},
    {"maps", "update", 3, &update_3},
    {"maps", "remove", 2, &remove_2},
    {"maps", "take", 2, &take_2},
    {"maps", "merge", 2, &merge_2},
    {"maps", "keys", 1, &keys_1},
    {"maps", "values", 1, &values_1},
    {"maps", "to_list", 1, &to_list_1},
    {"maps", "from_list", 1, &from_list_1},
    {"maps", "from_keys", 2, &from_keys_2},
    {"maps", "is_key", 2, &is_key_2},
    {"maps", "size", 1, &size_1},
    {"erlang", "map_size", 1, &size_1, true},
    {"erlang", "is_map_key", 2, &is_key_2, true},
    {"erlang", "map_get", 2, &get_2, true},
};

}  // namespace

std::span<const BifSpec> maps_bifs() { return table; }

}  // namespace beam

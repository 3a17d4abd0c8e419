// Map BIFs: the maps module's natives and erlang:map_size/is_map_key/map_get (OTP:
// erl_map.c). A non-map argument is {badmap, M}; a missing key where one is required is
// {badkey, K}; a malformed list argument is badarg. Checked on erl for each BIF.
#include <utility>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/map.hpp"

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

// Values of the second map win. Two flat maps merge through one sort (map_from_pairs keeps the
// last duplicate); otherwise the smaller map's pairs are put into the larger one.
Term merge_2(Process* p, const Term* a) {
    if (!is_map(a[0])) return badmap(p, a[0]);
    if (!is_map(a[1])) return badmap(p, a[1]);
    if (map_size(a[1]) == 0) return a[0];
    if (map_size(a[0]) == 0) return a[1];
    if (is_flat_map(a[0]) && is_flat_map(a[1])) {
        auto pairs = map_pairs(a[0], MapOrder::Iteration);
        auto second = map_pairs(a[1], MapOrder::Iteration);
        pairs.insert(pairs.end(), second.begin(), second.end());
        return map_from_pairs(*p, std::move(pairs));
    }
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
    std::vector<Term> keys;
    for (const auto& kv : map_pairs(a[0], MapOrder::List)) keys.push_back(kv.first);
    return make_list_from(*p, keys.data(), keys.size());
}

Term values_1(Process* p, const Term* a) {
    if (!is_map(a[0])) return badmap(p, a[0]);
    std::vector<Term> values;
    for (const auto& kv : map_pairs(a[0], MapOrder::List)) values.push_back(kv.second);
    return make_list_from(*p, values.data(), values.size());
}

Term to_list_1(Process* p, const Term* a) {
    Term m = a[0];
    if (!is_map(m)) return badmap(p, m);
    std::vector<Term> pairs;
    for (const auto& [k, v] : map_pairs(m, MapOrder::List)) pairs.push_back(make_tuple(*p, {k, v}));
    return make_list_from(*p, pairs.data(), pairs.size());
}

Term from_list_1(Process* p, const Term* a) {
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

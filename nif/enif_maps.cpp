// enif_* maps and map iterators. An iterator over a flat map walks its key and value arrays in
// place (u.flat); over a hash map it walks a copy of its pairs in iteration order, made in the
// environment (u.hash.kv, 2 words per pair), as erts' own iterator visits them.
#include <vector>

#include "nif/nif_env.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;

extern "C" {

int enif_get_map_size(ErlNifEnv*, ERL_NIF_TERM m, size_t* size) {
    if (!is_map(T(m))) return 0;
    *size = map_size(T(m));
    return 1;
}
ERL_NIF_TERM enif_make_new_map(ErlNifEnv* env) { return N(empty_map(nif::heap(env))); }
int enif_make_map_put(ErlNifEnv* env, ERL_NIF_TERM map, ERL_NIF_TERM key, ERL_NIF_TERM value, ERL_NIF_TERM* out) {
    if (!is_map(T(map))) return 0;
    *out = N(map_put(nif::heap(env), T(map), T(key), T(value)));
    return 1;
}
int enif_get_map_value(ErlNifEnv*, ERL_NIF_TERM map, ERL_NIF_TERM key, ERL_NIF_TERM* value) {
    if (!is_map(T(map))) return 0;
    const Term* v = map_get(T(map), T(key));
    if (!v) return 0;
    *value = N(*v);
    return 1;
}
int enif_make_map_update(ErlNifEnv* env, ERL_NIF_TERM map, ERL_NIF_TERM key, ERL_NIF_TERM value, ERL_NIF_TERM* out) {
    if (!is_map(T(map)) || !map_get(T(map), T(key))) return 0;
    *out = N(map_put(nif::heap(env), T(map), T(key), T(value)));
    return 1;
}
int enif_make_map_remove(ErlNifEnv* env, ERL_NIF_TERM map, ERL_NIF_TERM key, ERL_NIF_TERM* out) {
    if (!is_map(T(map))) return 0;
    *out = N(map_remove(nif::heap(env), T(map), T(key)));
    return 1;
}
// Fails on a repeated key, as erts does.
int enif_make_map_from_arrays(ErlNifEnv* env, ERL_NIF_TERM keys[], ERL_NIF_TERM values[], size_t cnt, ERL_NIF_TERM* out) {
    std::vector<std::pair<Term, Term>> pairs;
    pairs.reserve(cnt);
    for (size_t i = 0; i < cnt; ++i) pairs.emplace_back(T(keys[i]), T(values[i]));
    Term m = map_from_pairs(nif::heap(env), pairs);
    if (map_size(m) != cnt) return 0;
    *out = N(m);
    return 1;
}

// ---- iterators: idx runs from -1 (before the head) to size (past the tail) ----
int enif_map_iterator_create(ErlNifEnv* env, ERL_NIF_TERM map, ErlNifMapIterator* it, ErlNifMapIteratorEntry entry) {
    Term m = T(map);
    if (!is_map(m) || (entry != ERL_NIF_MAP_ITERATOR_FIRST && entry != ERL_NIF_MAP_ITERATOR_LAST)) return 0;
    it->map = map;
    it->size = map_size(m);
    if (is_flat_map(m)) {
        it->u.flat.ks = reinterpret_cast<ERL_NIF_TERM*>(flat_map_keys(m));
        it->u.flat.vs = reinterpret_cast<ERL_NIF_TERM*>(flat_map_values(m));
    } else {
        Term* kv = nif::heap(env).alloc(2 * it->size);
        size_t i = 0;
        for (auto& [k, v] : map_pairs(m, MapOrder::Iteration)) {
            kv[2 * i] = k;
            kv[2 * i + 1] = v;
            ++i;
        }
        it->u.hash.wstack = nullptr;
        it->u.hash.kv = reinterpret_cast<ERL_NIF_TERM*>(kv);
    }
    it->idx = entry == ERL_NIF_MAP_ITERATOR_FIRST ? 0 : it->size - 1;
    return 1;
}
void enif_map_iterator_destroy(ErlNifEnv*, ErlNifMapIterator* it) { it->map = N(NIL); }
int enif_map_iterator_is_head(ErlNifEnv*, ErlNifMapIterator* it) { return it->size == 0 || it->idx == ERL_NIF_UINT(-1); }
int enif_map_iterator_is_tail(ErlNifEnv*, ErlNifMapIterator* it) { return it->size == 0 || it->idx == it->size; }
int enif_map_iterator_next(ErlNifEnv*, ErlNifMapIterator* it) {
    if (it->idx == it->size) return 0;
    ++it->idx;  // from -1 wraps to 0
    return it->idx != it->size;
}
int enif_map_iterator_prev(ErlNifEnv*, ErlNifMapIterator* it) {
    if (it->idx == ERL_NIF_UINT(-1)) return 0;
    --it->idx;
    return it->idx != ERL_NIF_UINT(-1);
}
int enif_map_iterator_get_pair(ErlNifEnv*, ErlNifMapIterator* it, ERL_NIF_TERM* key, ERL_NIF_TERM* value) {
    if (it->idx >= it->size) return 0;  // also -1, as unsigned
    if (is_flat_map(T(it->map))) {
        *key = it->u.flat.ks[it->idx];
        *value = it->u.flat.vs[it->idx];
    } else {
        *key = it->u.hash.kv[2 * it->idx];
        *value = it->u.hash.kv[2 * it->idx + 1];
    }
    return 1;
}

}  // extern "C"

/* Maps (construction, lookup, iterators both ways) and binaries (ErlNifBinary as the header
 * lays it out, sub-binaries, allocation and reallocation, iolists) through erl_nif.h, for
 * tests/conformance/nif_maps_bins.erl. */
#include <erl_nif.h>

#include <string.h>

static ERL_NIF_TERM atom(ErlNifEnv* env, const char* name) { return enif_make_atom(env, name); }
static ERL_NIF_TERM bool_atom(ErlNifEnv* env, int b) { return atom(env, b ? "true" : "false"); }

/* map_ops(Map, Key, Value) -> the answers of every map function for Key and Value. */
static ERL_NIF_TERM map_ops(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ERL_NIF_TERM m = argv[0], k = argv[1], v = argv[2], f = atom(env, "false");
    size_t size;
    ERL_NIF_TERM got, put, updated, removed;
    int is_map = enif_is_map(env, m);
    return enif_make_list6(env, bool_atom(env, is_map),
        enif_get_map_size(env, m, &size) ? enif_make_uint64(env, size) : f,
        enif_get_map_value(env, m, k, &got) ? enif_make_tuple2(env, atom(env, "value"), got) : f,
        enif_make_map_put(env, m, k, v, &put) ? put : f,
        enif_make_map_update(env, m, k, v, &updated) ? updated : f,
        enif_make_map_remove(env, m, k, &removed) ? removed : f);
}

/* build_map(Keys, Values) -> a map by enif_make_map_from_arrays (false on a duplicate key)
 * and the same by successive enif_make_map_put from enif_make_new_map. */
static ERL_NIF_TERM build_map(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ERL_NIF_TERM keys[64], values[64], head, tail;
    unsigned n = 0, nv = 0;
    for (tail = argv[0]; n < 64 && enif_get_list_cell(env, tail, &head, &tail);) keys[n++] = head;
    for (tail = argv[1]; nv < 64 && enif_get_list_cell(env, tail, &head, &tail);) values[nv++] = head;
    if (n != nv) return enif_make_badarg(env);
    ERL_NIF_TERM from_arrays;
    if (!enif_make_map_from_arrays(env, keys, values, n, &from_arrays)) from_arrays = atom(env, "false");
    ERL_NIF_TERM by_put = enif_make_new_map(env);
    for (unsigned i = 0; i < n; i++) enif_make_map_put(env, by_put, keys[i], values[i], &by_put);
    return enif_make_tuple2(env, from_arrays, by_put);
}

/* iterate(Map, Direction) -> the pairs an iterator visits from the head forwards or from the
 * tail backwards, with is_head/is_tail checked at both ends. Order is the map's internal
 * order, which the Erlang side compares with maps:to_list/1's. */
static ERL_NIF_TERM iterate(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    int backwards = enif_is_identical(argv[1], atom(env, "backwards"));
    ErlNifMapIterator it;
    if (!enif_map_iterator_create(env, argv[0], &it, backwards ? ERL_NIF_MAP_ITERATOR_LAST : ERL_NIF_MAP_ITERATOR_FIRST))
        return atom(env, "false");
    ERL_NIF_TERM pairs = enif_make_list(env, 0), k, v;
    int steps = 0;
    while (enif_map_iterator_get_pair(env, &it, &k, &v)) {
        pairs = enif_make_list_cell(env, enif_make_tuple2(env, k, v), pairs);
        if (backwards) enif_map_iterator_prev(env, &it); else enif_map_iterator_next(env, &it);
        if (++steps > 100000) break;
    }
    /* Past the last pair the iterator is at the tail (forwards) or head (backwards). */
    int at_end = backwards ? enif_map_iterator_is_head(env, &it) : enif_map_iterator_is_tail(env, &it);
    /* Stepping back from the end reaches the last pair visited. */
    ERL_NIF_TERM step_back = atom(env, "none");
    if (backwards ? enif_map_iterator_next(env, &it) : enif_map_iterator_prev(env, &it))
        if (enif_map_iterator_get_pair(env, &it, &k, &v)) step_back = enif_make_tuple2(env, k, v);
    enif_map_iterator_destroy(env, &it);
    ERL_NIF_TERM ordered;
    enif_make_reverse_list(env, pairs, &ordered);
    return enif_make_tuple3(env, ordered, bool_atom(env, at_end), step_back);
}

/* inspect(T) -> {binary bytes copied out and size} for a binary (sub-binaries included), or false. */
static ERL_NIF_TERM inspect(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifBinary bin;
    if (!enif_inspect_binary(env, argv[0], &bin)) return atom(env, "false");
    ERL_NIF_TERM copy;
    unsigned char* out = enif_make_new_binary(env, bin.size, &copy);
    if (bin.size) memcpy(out, bin.data, bin.size);
    return enif_make_tuple2(env, enif_make_uint64(env, bin.size), copy);
}

/* sub(Bin, Pos, Len) -> enif_make_sub_binary, and a sub-binary of that sub-binary. */
static ERL_NIF_TERM sub(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifBinary bin;
    unsigned pos, len;
    if (!enif_inspect_binary(env, argv[0], &bin) || !enif_get_uint(env, argv[1], &pos) ||
        !enif_get_uint(env, argv[2], &len) || (size_t)pos + len > bin.size)
        return enif_make_badarg(env);
    ERL_NIF_TERM s = enif_make_sub_binary(env, argv[0], pos, len);
    ERL_NIF_TERM inner = len >= 2 ? enif_make_sub_binary(env, s, 1, len - 2) : s;
    return enif_make_tuple2(env, s, inner);
}

/* allocated(Size) -> a binary made by enif_alloc_binary, grown and shrunk by
 * enif_realloc_binary, handed over by enif_make_binary; and one allocated then released. */
static ERL_NIF_TERM allocated(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    unsigned size;
    if (!enif_get_uint(env, argv[0], &size)) return enif_make_badarg(env);
    ErlNifBinary bin, dropped;
    if (!enif_alloc_binary(size, &bin)) return atom(env, "alloc_failed");
    for (unsigned i = 0; i < size; i++) bin.data[i] = (unsigned char)(i & 0xff);
    if (!enif_realloc_binary(&bin, size * 2 + 1)) return atom(env, "realloc_failed");
    for (size_t i = size; i < bin.size; i++) bin.data[i] = 0xAB;
    if (!enif_realloc_binary(&bin, size + 1)) return atom(env, "shrink_failed");
    if (!enif_alloc_binary(size, &dropped)) return atom(env, "alloc_failed");
    enif_release_binary(&dropped);
    return enif_make_binary(env, &bin);
}

/* iolist(T) -> enif_inspect_iolist_as_binary's binary, or false for a non-iolist. */
static ERL_NIF_TERM iolist(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifBinary bin;
    if (!enif_inspect_iolist_as_binary(env, argv[0], &bin)) return atom(env, "false");
    ERL_NIF_TERM copy;
    unsigned char* out = enif_make_new_binary(env, bin.size, &copy);
    if (bin.size) memcpy(out, bin.data, bin.size);
    return copy;
}

/* keep_binary(B) -> B itself returned through enif_make_binary after enif_inspect_binary,
 * which hands the caller a term for the same bytes. */
static ERL_NIF_TERM keep_binary(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    ErlNifBinary bin;
    if (!enif_inspect_binary(env, argv[0], &bin)) return enif_make_badarg(env);
    return enif_make_binary(env, &bin);
}

static ErlNifFunc funcs[] = {
    {"map_ops", 3, map_ops, 0},   {"build_map", 2, build_map, 0}, {"iterate", 2, iterate, 0},
    {"inspect", 1, inspect, 0},   {"sub", 3, sub, 0},             {"allocated", 1, allocated, 0},
    {"iolist", 1, iolist, 0},     {"keep_binary", 1, keep_binary, 0},
};

ERL_NIF_INIT(nif_maps_bins, funcs, NULL, NULL, NULL, NULL)

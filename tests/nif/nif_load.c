/* The library of tests/conformance/nif_load.erl, built three ways to give load_nif's errors:
 * nif_load.so (good: its load callback vetoes when load_info is fail_load),
 * nif_load_extra.so (-DEXTRA_FUNCTION: a function the module does not have) and
 * nif_load_badflags.so (-DBAD_FLAGS: a flags field that is neither 0 nor a dirty flag). */
#include <erl_nif.h>

static int load(ErlNifEnv* env, void** priv_data, ERL_NIF_TERM info) {
    return enif_is_identical(info, enif_make_atom(env, "fail_load")) ? 3 : 0;
}

static ERL_NIF_TERM hello(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_tuple2(env, enif_make_atom(env, "hello_from_c"), argv[0]);
}

static ErlNifFunc funcs[] = {
#ifdef BAD_FLAGS
    {"hello", 1, hello, 7},
#else
    {"hello", 1, hello, 0},
#endif
#ifdef EXTRA_FUNCTION
    {"not_in_module", 0, hello, 0},
#endif
};

ERL_NIF_INIT(nif_load, funcs, load, NULL, NULL, NULL)

/* The NIFs of bench/nif/nif_call.erl: as little work as a NIF can do, so that a loop of calls
 * measures the VM's cost of calling one (argument passing, the call, the return). */
#include <erl_nif.h>

/* 'ok', made once: enif_make_atom looks the name up in the atom table, which would cost
 * more than the call being measured. */
static ERL_NIF_TERM atom_ok;

static int load(ErlNifEnv* env, void** priv, ERL_NIF_TERM info) {
    atom_ok = enif_make_atom(env, "ok");
    return 0;
}

/* noop() -> ok. */
static ERL_NIF_TERM noop(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return atom_ok;
}

/* add(A, B) -> A + B for integers that fit in a long (badarg otherwise). */
static ERL_NIF_TERM add(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    long a, b;
    if (!enif_get_long(env, argv[0], &a) || !enif_get_long(env, argv[1], &b)) return enif_make_badarg(env);
    return enif_make_long(env, a + b);
}

static ErlNifFunc funcs[] = {{"noop", 0, noop, 0}, {"add", 2, add, 0}};

ERL_NIF_INIT(nif_call, funcs, load, NULL, NULL, NULL)

/* A NIF that breaks beamvm's invariants on purpose, to reach its internal fatal-error path
 * (vm/fatal_error.hpp) from a test: enif_term_type on a word that is no term. */
#include <erl_nif.h>

static ERL_NIF_TERM bad_term_type(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    (void)argv;
    /* 0x7B: beamvm's non-value marker (vm/term.hpp), never handed to a NIF. */
    return enif_make_int(env, (int)enif_term_type(env, (ERL_NIF_TERM)0x7B));
}

static ErlNifFunc funcs[] = {{"bad_term_type", 0, bad_term_type, 0}};
ERL_NIF_INIT(fatal_nif, funcs, NULL, NULL, NULL, NULL)

/* A NIF library for examples/nif/hello_nif.erl: the same .so loads on erl and on beamvm. */
#include <erl_nif.h>
#include <string.h>

/* hello_nif:greet(Name) -> <<"hello, ", Name/binary>> */
static ERL_NIF_TERM greet(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifBinary name;
    if (!enif_inspect_iolist_as_binary(env, argv[0], &name)) return enif_make_badarg(env);
    ERL_NIF_TERM out;
    unsigned char* p = enif_make_new_binary(env, 7 + name.size, &out);
    memcpy(p, "hello, ", 7);
    memcpy(p + 7, name.data, name.size);
    return out;
}

/* hello_nif:sum(List) -> the sum of a list of integers */
static ERL_NIF_TERM sum(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM list = argv[0], head;
    long total = 0, v;
    while (enif_get_list_cell(env, list, &head, &list)) {
        if (!enif_get_long(env, head, &v)) return enif_make_badarg(env);
        total += v;
    }
    if (!enif_is_empty_list(env, list)) return enif_make_badarg(env);
    return enif_make_long(env, total);
}

static ErlNifFunc funcs[] = {{"greet", 1, greet, 0}, {"sum", 1, sum, 0}};
ERL_NIF_INIT(hello_nif, funcs, NULL, NULL, NULL, NULL)

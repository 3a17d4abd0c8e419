/* Load, upgrade and unload callbacks, for tests/conformance/nif_load.erl through the module
 * tests/conformance/hot/versions/nif_upgrade.erl (three versions). Each callback appends a
 * line to a log file named in load_info, so the Erlang side can read which callbacks ran, in
 * which order, with which generation, even after the library's code has been unloaded.
 * Built twice: nif_upgrade.so, and nif_upgrade_noup.so (-DNO_UPGRADE) without an upgrade
 * callback. load_info is {LogPath, Behaviour}: Behaviour fail_load or fail_upgrade vetoes. */
#include <erl_nif.h>

#include <stdio.h>
#include <string.h>

struct priv {
    char log[512];
    int generation;  /* 1 at load, one more at each upgrade */
};

static void log_line(const struct priv* p, const char* what, int generation) {
    FILE* f = fopen(p->log, "a");
    if (!f) return;
    fprintf(f, "%s %d\n", what, generation);
    fclose(f);
}

/* Reads {LogPath, Behaviour} into p; answers the behaviour's name ("ok" if malformed). */
static const char* read_info(ErlNifEnv* env, ERL_NIF_TERM info, struct priv* p, char* behaviour, size_t size) {
    int arity;
    const ERL_NIF_TERM* elems;
    strcpy(behaviour, "ok");
    p->log[0] = 0;
    if (enif_get_tuple(env, info, &arity, &elems) && arity == 2) {
        enif_get_string(env, elems[0], p->log, sizeof p->log, ERL_NIF_LATIN1);
        enif_get_atom(env, elems[1], behaviour, (unsigned)size, ERL_NIF_LATIN1);
    }
    return behaviour;
}

static int load(ErlNifEnv* env, void** priv_data, ERL_NIF_TERM info) {
    struct priv* p = enif_alloc(sizeof *p);
    char behaviour[32];
    read_info(env, info, p, behaviour, sizeof behaviour);
    p->generation = 1;
    if (!strcmp(behaviour, "fail_load")) {
        log_line(p, "load_vetoed", 1);
        enif_free(p);
        return 7;
    }
    log_line(p, "load", 1);
    *priv_data = p;
    return 0;
}

#ifndef NO_UPGRADE
static int upgrade(ErlNifEnv* env, void** priv_data, void** old_priv_data, ERL_NIF_TERM info) {
    const struct priv* old = *old_priv_data;
    struct priv* p = enif_alloc(sizeof *p);
    char behaviour[32];
    read_info(env, info, p, behaviour, sizeof behaviour);
    p->generation = old->generation + 1;
    if (!strcmp(behaviour, "fail_upgrade")) {
        log_line(p, "upgrade_vetoed", p->generation);
        enif_free(p);
        return 9;
    }
    log_line(p, "upgrade", p->generation);
    *priv_data = p;
    return 0;
}
#endif

static void unload(ErlNifEnv* env, void* priv_data) {
    struct priv* p = priv_data;
    log_line(p, "unload", p->generation);
    enif_free(p);
}

/* generation() -> the generation of the library instance bound to the calling module version. */
static ERL_NIF_TERM generation(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    const struct priv* p = enif_priv_data(env);
    return enif_make_int(env, p->generation);
}

static ErlNifFunc funcs[] = {{"generation", 0, generation, 0}};

#ifdef NO_UPGRADE
ERL_NIF_INIT(nif_upgrade, funcs, load, NULL, NULL, unload)
#else
ERL_NIF_INIT(nif_upgrade, funcs, load, NULL, upgrade, unload)
#endif

/* Resources through erl_nif.h, for tests/conformance/nif_resources.erl: a resource type whose
 * destructor counts how many objects it freed (so the Erlang side sees when the last reference
 * went), enif_keep/release_resource, terms made twice for one object, a second type that
 * enif_get_resource must tell apart, enif_make_resource_binary, and process monitors whose down
 * callback sends a message. */
#include <erl_nif.h>

#include <string.h>

static ERL_NIF_TERM atom(ErlNifEnv* env, const char* name) { return enif_make_atom(env, name); }

struct counted {
    long value;
    ErlNifPid notify;        /* who hears {res_down, Value, MonitorMatched} */
    ErlNifMonitor monitor;
    int monitored;
    char bytes[16];          /* the data enif_make_resource_binary exposes */
};

static ErlNifResourceType* counted_type;
static ErlNifResourceType* other_type;
/* Objects created and destroyed since load: the Erlang side checks they meet. Atomic because
 * erl may run destructors on whichever scheduler frees the last reference. */
static long created, destroyed;

static void counted_dtor(ErlNifEnv* env, void* obj) {
    __atomic_add_fetch(&destroyed, 1, __ATOMIC_SEQ_CST);
}

static void counted_down(ErlNifEnv* env, void* obj, ErlNifPid* pid, ErlNifMonitor* mon) {
    struct counted* c = obj;
    int matched = c->monitored && enif_compare_monitors(mon, &c->monitor) == 0;
    c->monitored = 0;
    ErlNifEnv* msg_env = enif_alloc_env();
    ERL_NIF_TERM msg = enif_make_tuple3(msg_env, atom(msg_env, "res_down"), enif_make_long(msg_env, c->value),
                                        atom(msg_env, matched ? "true" : "false"));
    enif_send(env, &c->notify, msg_env, msg);
    enif_free_env(msg_env);
}

static int load(ErlNifEnv* env, void** priv, ERL_NIF_TERM info) {
    ErlNifResourceTypeInit init = {counted_dtor, NULL, counted_down, 0, NULL};
    counted_type = enif_open_resource_type_x(env, "counted", &init, ERL_NIF_RT_CREATE, NULL);
    other_type = enif_open_resource_type(env, NULL, "other", NULL, ERL_NIF_RT_CREATE, NULL);
    return counted_type && other_type ? 0 : 1;
}

static struct counted* get_counted(ErlNifEnv* env, ERL_NIF_TERM t) {
    void* obj;
    return enif_get_resource(env, t, counted_type, &obj) ? obj : NULL;
}

/* new(Value) -> a resource; the term holds the only reference. */
static ERL_NIF_TERM new_counted(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    long v;
    if (!enif_get_long(env, argv[0], &v)) return enif_make_badarg(env);
    struct counted* c = enif_alloc_resource(counted_type, sizeof *c);
    memset(c, 0, sizeof *c);
    c->value = v;
    memcpy(c->bytes, "resource-bytes!", 16);
    __atomic_add_fetch(&created, 1, __ATOMIC_SEQ_CST);
    ERL_NIF_TERM t = enif_make_resource(env, c);
    enif_release_resource(c);
    return t;
}

/* new_twice(Value) -> {T1, T2}: two terms made for one object. */
static ERL_NIF_TERM new_twice(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM t1 = new_counted(env, argc, argv);
    struct counted* c = get_counted(env, t1);
    if (!c) return t1;
    return enif_make_tuple2(env, t1, enif_make_resource(env, c));
}

/* new_other() -> a resource of the second type. */
static ERL_NIF_TERM new_other(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    void* o = enif_alloc_resource(other_type, 8);
    memset(o, 0, 8);
    ERL_NIF_TERM t = enif_make_resource(env, o);
    enif_release_resource(o);
    return t;
}

/* value(R) -> {Value, SizeofResource}, badarg for anything not of the counted type. */
static ERL_NIF_TERM value(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct counted* c = get_counted(env, argv[0]);
    if (!c) return enif_make_badarg(env);
    return enif_make_tuple2(env, enif_make_long(env, c->value), enif_make_uint64(env, enif_sizeof_resource(c)));
}

/* The object keep/1 took a reference to last, for release_kept/0 (no term needed then). */
static struct counted* kept;

/* keep(R): one more reference held by C code, remembered. */
static ERL_NIF_TERM keep(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct counted* c = get_counted(env, argv[0]);
    if (!c || kept) return enif_make_badarg(env);
    enif_keep_resource(c);
    kept = c;
    return atom(env, "ok");
}

/* release_kept(): gives back keep's reference; the object dies here if no term refers to it. */
static ERL_NIF_TERM release_kept(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    if (!kept) return atom(env, "none");
    struct counted* c = kept;
    kept = NULL;
    enif_release_resource(c);
    return atom(env, "ok");
}

/* release(R): keep's reference given back through a term of the object. */
static ERL_NIF_TERM release(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct counted* c = get_counted(env, argv[0]);
    if (!c || c != kept) return enif_make_badarg(env);
    kept = NULL;
    enif_release_resource(c);
    return atom(env, "ok");
}

/* counts() -> {Created, Destroyed}. */
static ERL_NIF_TERM counts(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_tuple2(env, enif_make_long(env, __atomic_load_n(&created, __ATOMIC_SEQ_CST)),
                            enif_make_long(env, __atomic_load_n(&destroyed, __ATOMIC_SEQ_CST)));
}

/* many(N) -> ok: N resources made and dropped inside one call (their terms die with the call). */
static ERL_NIF_TERM many(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    long n;
    if (!enif_get_long(env, argv[0], &n)) return enif_make_badarg(env);
    ErlNifEnv* scratch = enif_alloc_env();
    for (long i = 0; i < n; i++) {
        struct counted* c = enif_alloc_resource(counted_type, sizeof *c);
        memset(c, 0, sizeof *c);
        __atomic_add_fetch(&created, 1, __ATOMIC_SEQ_CST);
        enif_make_resource(scratch, c);
        enif_release_resource(c);
        if (i % 1000 == 999) enif_clear_env(scratch);
    }
    enif_free_env(scratch);
    return atom(env, "ok");
}

/* resource_binary(R) -> a binary over the object's bytes: it keeps the object alive. */
static ERL_NIF_TERM resource_binary(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct counted* c = get_counted(env, argv[0]);
    if (!c) return enif_make_badarg(env);
    return enif_make_resource_binary(env, c, c->bytes, 15);
}

/* monitor_process(R, Pid) -> enif_monitor_process's answer (0, or > 0 for a dead process); the down
 * message goes to the caller. demonitor_process(R) -> its answer. monitor_term(R) -> a reference. */
static ERL_NIF_TERM monitor(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct counted* c = get_counted(env, argv[0]);
    ErlNifPid pid;
    if (!c || !enif_get_local_pid(env, argv[1], &pid)) return enif_make_badarg(env);
    enif_self(env, &c->notify);
    int r = enif_monitor_process(env, c, &pid, &c->monitor);
    c->monitored = r == 0;
    return enif_make_int(env, r);
}

static ERL_NIF_TERM demonitor(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct counted* c = get_counted(env, argv[0]);
    if (!c) return enif_make_badarg(env);
    int r = enif_demonitor_process(env, c, &c->monitor);
    if (r == 0) c->monitored = 0;
    return enif_make_int(env, r);
}

static ERL_NIF_TERM monitor_term(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct counted* c = get_counted(env, argv[0]);
    if (!c) return enif_make_badarg(env);
    return enif_make_monitor_term(env, &c->monitor);
}

static ErlNifFunc funcs[] = {
    {"new", 1, new_counted, 0}, {"new_twice", 1, new_twice, 0}, {"new_other", 0, new_other, 0},
    {"value", 1, value, 0},     {"keep", 1, keep, 0},           {"release", 1, release, 0},
    {"release_kept", 0, release_kept, 0},
    {"counts", 0, counts, 0},   {"many", 1, many, 0},           {"resource_binary", 1, resource_binary, 0},
    {"monitor_process", 2, monitor, 0}, {"demonitor_process", 1, demonitor, 0}, {"monitor_term", 1, monitor_term, 0},
};

/* Built once per test module (NIF_MODULE: nif_resources by default, nif_resource_churn): a
 * library names the module that loads it. INIT_FOR expands NIF_MODULE before ERL_NIF_INIT
 * quotes it. */
#ifndef NIF_MODULE
#define NIF_MODULE nif_resources
#endif
#define INIT_FOR(MODULE) ERL_NIF_INIT(MODULE, funcs, load, NULL, NULL, NULL)
INIT_FOR(NIF_MODULE)

/* Environments and messages through erl_nif.h, for tests/conformance/nif_env.erl: a
 * process-independent environment holding a term between calls (enif_alloc_env,
 * enif_make_copy, enif_clear_env), enif_send from a NIF (with and without a message
 * environment) and from a thread created by enif_thread_create, which waits on a condition
 * variable until the Erlang side lets it go. */
#include <erl_nif.h>

#include <string.h>

static ERL_NIF_TERM atom(ErlNifEnv* env, const char* name) { return enif_make_atom(env, name); }
static ERL_NIF_TERM bool_atom(ErlNifEnv* env, int b) { return atom(env, b ? "true" : "false"); }

/* The library's state, created by load and kept for the library's life. */
struct state {
    ErlNifEnv* stash_env;  /* process-independent: survives the NIF call that filled it */
    ERL_NIF_TERM stashed;
    int has_stash;
    ErlNifMutex* lock;     /* guards the stash and the thread's hand-off below */
    ErlNifCond* go_cond;
    int go;
    int thread_running;
    ErlNifTid tid;
    ErlNifPid target;
    ErlNifEnv* thread_args_env;  /* the message the thread sends, copied out of the caller */
    ERL_NIF_TERM thread_msg;
    int thread_count;
};

static int load(ErlNifEnv* env, void** priv, ERL_NIF_TERM info) {
    struct state* st = enif_alloc(sizeof *st);
    memset(st, 0, sizeof *st);
    st->stash_env = enif_alloc_env();
    st->thread_args_env = enif_alloc_env();
    st->lock = enif_mutex_create("nif_env_lock");
    st->go_cond = enif_cond_create("nif_env_go");
    *priv = st;
    return 0;
}

/* stash(T) -> ok: T copied into the library's environment, replacing what was there. */
static ERL_NIF_TERM stash(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct state* st = enif_priv_data(env);
    enif_mutex_lock(st->lock);
    enif_clear_env(st->stash_env);
    st->stashed = enif_make_copy(st->stash_env, argv[0]);
    st->has_stash = 1;
    enif_mutex_unlock(st->lock);
    return atom(env, "ok");
}

/* unstash() -> {ok, T} copied back into the caller, or empty. */
static ERL_NIF_TERM unstash(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct state* st = enif_priv_data(env);
    enif_mutex_lock(st->lock);
    ERL_NIF_TERM r = st->has_stash ? enif_make_tuple2(env, atom(env, "ok"), enif_make_copy(env, st->stashed))
                                   : atom(env, "empty");
    enif_mutex_unlock(st->lock);
    return r;
}

/* built_elsewhere(T) -> {T, built} assembled in a fresh environment, copied into the caller's. */
static ERL_NIF_TERM built_elsewhere(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifEnv* scratch = enif_alloc_env();
    ERL_NIF_TERM inner = enif_make_copy(scratch, argv[0]);
    ERL_NIF_TERM made = enif_make_tuple2(scratch, inner, enif_make_list2(scratch, atom(scratch, "built"),
                                                                       enif_make_int64(scratch, 1LL << 62)));
    ERL_NIF_TERM out = enif_make_copy(env, made);
    enif_free_env(scratch);
    return out;
}

/* send_direct(Pid, Msg) -> enif_send with the caller's environment as the message's (NULL
 * msg_env: the message is copied from the caller's heap). */
static ERL_NIF_TERM send_direct(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPid pid;
    if (!enif_get_local_pid(env, argv[0], &pid)) return enif_make_badarg(env);
    return bool_atom(env, enif_send(env, &pid, NULL, argv[1]));
}

/* send_via_env(Pid, Msg) -> enif_send of {via_env, Msg} built in an environment of its own;
 * the environment is cleared by the send and freed here. */
static ERL_NIF_TERM send_via_env(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPid pid;
    if (!enif_get_local_pid(env, argv[0], &pid)) return enif_make_badarg(env);
    ErlNifEnv* msg_env = enif_alloc_env();
    ERL_NIF_TERM msg = enif_make_tuple2(msg_env, atom(msg_env, "via_env"), enif_make_copy(msg_env, argv[1]));
    int sent = enif_send(env, &pid, msg_env, msg);
    enif_free_env(msg_env);
    return bool_atom(env, sent);
}

/* The thread: waits for go(), then sends {from_thread, I, ThreadType, Msg} for I = 1..Count
 * with a NULL caller environment (it is not a scheduler thread), one environment reused. */
static void* thread_main(void* arg) {
    struct state* st = arg;
    enif_mutex_lock(st->lock);
    while (!st->go) enif_cond_wait(st->go_cond, st->lock);
    enif_mutex_unlock(st->lock);
    ErlNifEnv* msg_env = enif_alloc_env();
    int sent = 0;
    for (int i = 1; i <= st->thread_count; i++) {
        ERL_NIF_TERM msg = enif_make_tuple4(msg_env, atom(msg_env, "from_thread"), enif_make_int(msg_env, i),
                                            enif_make_int(msg_env, enif_thread_type()),
                                            enif_make_copy(msg_env, st->thread_msg));
        sent += enif_send(NULL, &st->target, msg_env, msg);
        enif_clear_env(msg_env);
    }
    enif_free_env(msg_env);
    int* result = enif_alloc(sizeof *result);
    *result = sent;
    return result;
}

/* start_thread(Pid, Msg, Count) -> ok | busy. */
static ERL_NIF_TERM start_thread(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct state* st = enif_priv_data(env);
    ErlNifPid pid;
    int count;
    if (!enif_get_local_pid(env, argv[0], &pid) || !enif_get_int(env, argv[2], &count)) return enif_make_badarg(env);
    if (st->thread_running) return atom(env, "busy");
    st->target = pid;
    enif_clear_env(st->thread_args_env);
    st->thread_msg = enif_make_copy(st->thread_args_env, argv[1]);
    st->thread_count = count;
    st->go = 0;
    if (enif_thread_create("nif_env_sender", &st->tid, thread_main, st, NULL) != 0) return atom(env, "thread_create_failed");
    st->thread_running = 1;
    return atom(env, "ok");
}

/* go() -> ok: lets the thread send. */
static ERL_NIF_TERM go(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct state* st = enif_priv_data(env);
    enif_mutex_lock(st->lock);
    st->go = 1;
    enif_cond_broadcast(st->go_cond);
    enif_mutex_unlock(st->lock);
    return atom(env, "ok");
}

/* join() -> {joined, MessagesSent} | not_running. */
static ERL_NIF_TERM join(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    struct state* st = enif_priv_data(env);
    if (!st->thread_running) return atom(env, "not_running");
    void* result = NULL;
    enif_thread_join(st->tid, &result);
    st->thread_running = 0;
    int sent = result ? *(int*)result : -1;
    enif_free(result);
    return enif_make_tuple2(env, atom(env, "joined"), enif_make_int(env, sent));
}

/* thread_type() -> enif_thread_type() of the scheduler thread running this NIF. */
static ERL_NIF_TERM thread_type(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_int(env, enif_thread_type());
}

static ErlNifFunc funcs[] = {
    {"stash", 1, stash, 0},           {"unstash", 0, unstash, 0},
    {"built_elsewhere", 1, built_elsewhere, 0},
    {"send_direct", 2, send_direct, 0}, {"send_via_env", 2, send_via_env, 0},
    {"start_thread", 3, start_thread, 0}, {"go", 0, go, 0}, {"join", 0, join, 0},
    {"thread_type", 0, thread_type, 0},
};

ERL_NIF_INIT(nif_env, funcs, load, NULL, NULL, NULL)

/* enif_select and resource monitors, for tests/conformance/nif_select*.erl and nif_monitor*.erl.
 *
 * Two resource types:
 *   fd:  a descriptor (one end of a pipe or a socketpair) with stop and dtor callbacks; the
 *        stop callback closes it and sends {stop, Id, IsDirectCall} to the creator, the dtor
 *        sends {dtor, Id} (and closes the descriptor if stop never ran).
 *   mon: a monitoring resource with down and dtor callbacks; down sends
 *        {down, Id, Pid, MonitorTerm, MonitorBinary} to the creator, the dtor {dtor, Id}.
 *   nodown: a resource whose type has no down callback (enif_monitor_process answers -1).
 * Ids are small integers given in creation order, so the output prints the same on both VMs. */
#include <erl_nif.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    int fd;
    int id;
    int closed;
    ErlNifPid owner;
} FdRes;

typedef struct {
    int id;
    ErlNifPid owner;
} MonRes;

static ErlNifResourceType *fd_type, *mon_type, *nodown_type;
static ErlNifMutex* id_lock;
static int next_id;

static int new_id(void) {
    enif_mutex_lock(id_lock);
    int id = ++next_id;
    enif_mutex_unlock(id_lock);
    return id;
}

static ERL_NIF_TERM atom(ErlNifEnv* env, const char* name) { return enif_make_atom(env, name); }

static void tell(ErlNifEnv* env, ErlNifPid* to, ERL_NIF_TERM (*build)(ErlNifEnv*, void*), void* arg) {
    ErlNifEnv* msg_env = enif_alloc_env();
    enif_send(env, to, msg_env, build(msg_env, arg));
    enif_free_env(msg_env);
}

/* ---- callbacks ---- */

struct StopInfo {
    int id, direct;
};
static ERL_NIF_TERM stop_msg(ErlNifEnv* env, void* arg) {
    struct StopInfo* s = arg;
    return enif_make_tuple3(env, atom(env, "stop"), enif_make_int(env, s->id), enif_make_int(env, s->direct));
}
static void fd_stop(ErlNifEnv* env, void* obj, ErlNifEvent event, int is_direct_call) {
    FdRes* r = obj;
    if (!r->closed && r->fd == event) {
        close(r->fd);
        r->closed = 1;
    }
    struct StopInfo s = {r->id, is_direct_call};
    tell(env, &r->owner, stop_msg, &s);
}

static ERL_NIF_TERM dtor_msg(ErlNifEnv* env, void* arg) {
    return enif_make_tuple2(env, atom(env, "dtor"), enif_make_int(env, *(int*)arg));
}
static void fd_dtor(ErlNifEnv* env, void* obj) {
    FdRes* r = obj;
    if (!r->closed) close(r->fd);
    tell(env, &r->owner, dtor_msg, &r->id);
}
static void mon_dtor(ErlNifEnv* env, void* obj) {
    MonRes* r = obj;
    tell(env, &r->owner, dtor_msg, &r->id);
}

struct DownInfo {
    int id;
    ErlNifPid* pid;
    ErlNifMonitor* mon;
};
static ERL_NIF_TERM down_msg(ErlNifEnv* env, void* arg) {
    struct DownInfo* d = arg;
    ERL_NIF_TERM bin;
    unsigned char* p = enif_make_new_binary(env, sizeof(ErlNifMonitor), &bin);
    memcpy(p, d->mon, sizeof(ErlNifMonitor));
    return enif_make_tuple5(env, atom(env, "down"), enif_make_int(env, d->id), enif_make_pid(env, d->pid),
                            enif_make_monitor_term(env, d->mon), bin);
}
static void mon_down(ErlNifEnv* env, void* obj, ErlNifPid* pid, ErlNifMonitor* mon) {
    MonRes* r = obj;
    struct DownInfo d = {r->id, pid, mon};
    tell(env, &r->owner, down_msg, &d);
}

static int load(ErlNifEnv* env, void** priv, ERL_NIF_TERM info) {
    ErlNifResourceTypeInit fd_init = {fd_dtor, fd_stop, NULL, 3, NULL};
    ErlNifResourceTypeInit mon_init = {mon_dtor, NULL, mon_down, 3, NULL};
    ErlNifResourceTypeInit nodown_init = {mon_dtor, NULL, NULL, 3, NULL};
    fd_type = enif_init_resource_type(env, "fd", &fd_init, ERL_NIF_RT_CREATE, NULL);
    mon_type = enif_init_resource_type(env, "mon", &mon_init, ERL_NIF_RT_CREATE, NULL);
    nodown_type = enif_init_resource_type(env, "nodown", &nodown_init, ERL_NIF_RT_CREATE, NULL);
    id_lock = enif_mutex_create("select_monitor_nif_ids");
    return !fd_type || !mon_type || !nodown_type || !id_lock;
}

/* ---- descriptors ---- */

static ERL_NIF_TERM fd_resource(ErlNifEnv* env, int fd) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    FdRes* r = enif_alloc_resource(fd_type, sizeof(FdRes));
    r->fd = fd;
    r->id = new_id();
    r->closed = 0;
    enif_self(env, &r->owner);
    ERL_NIF_TERM t = enif_make_resource(env, r);
    enif_release_resource(r);
    return t;
}

static FdRes* get_fd(ErlNifEnv* env, ERL_NIF_TERM t) {
    void* r;
    return enif_get_resource(env, t, fd_type, &r) ? r : NULL;
}

/* pipe() -> {ReadEnd, WriteEnd}; socketpair() -> {A, B} (AF_UNIX stream). */
static ERL_NIF_TERM pipe_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int fds[2];
    if (pipe(fds) != 0) return enif_make_badarg(env);
    return enif_make_tuple2(env, fd_resource(env, fds[0]), fd_resource(env, fds[1]));
}
static ERL_NIF_TERM socketpair_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return enif_make_badarg(env);
    return enif_make_tuple2(env, fd_resource(env, fds[0]), fd_resource(env, fds[1]));
}

/* dup_resource(R) -> another resource over the same descriptor (to steal it with). */
static ERL_NIF_TERM dup_resource_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    if (!r) return enif_make_badarg(env);
    FdRes* d = enif_alloc_resource(fd_type, sizeof(FdRes));
    d->fd = r->fd;
    d->id = new_id();
    d->closed = 1; /* the original owns the descriptor */
    enif_self(env, &d->owner);
    ERL_NIF_TERM t = enif_make_resource(env, d);
    enif_release_resource(d);
    return t;
}

/* set_owner(R, Pid): where its callbacks' messages go from now on (either type). */
static ERL_NIF_TERM set_owner_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    void* m;
    ErlNifPid* owner;
    if (r) owner = &r->owner;
    else if (enif_get_resource(env, argv[0], mon_type, &m) || enif_get_resource(env, argv[0], nodown_type, &m))
        owner = &((MonRes*)m)->owner;
    else return enif_make_badarg(env);
    if (!enif_get_local_pid(env, argv[1], owner)) return enif_make_badarg(env);
    return atom(env, "ok");
}

static ERL_NIF_TERM id_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    void* m;
    if (r) return enif_make_int(env, r->id);
    if (enif_get_resource(env, argv[0], mon_type, &m) || enif_get_resource(env, argv[0], nodown_type, &m))
        return enif_make_int(env, ((MonRes*)m)->id);
    return enif_make_badarg(env);
}

/* write(R, Bin) -> ok | eagain | {error, Errno}; ok means all of it was written. */
static ERL_NIF_TERM write_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    ErlNifBinary b;
    if (!r || !enif_inspect_binary(env, argv[1], &b)) return enif_make_badarg(env);
    ssize_t n = write(r->fd, b.data, b.size);
    if (n == (ssize_t)b.size) return atom(env, "ok");
    if (n < 0 && errno == EAGAIN) return atom(env, "eagain");
    if (n < 0) return enif_make_tuple2(env, atom(env, "error"), enif_make_int(env, errno));
    return enif_make_tuple2(env, atom(env, "partial"), enif_make_long(env, n));
}

/* fill(R) -> bytes written until the descriptor would block. */
static ERL_NIF_TERM fill_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    if (!r) return enif_make_badarg(env);
    static const char chunk[4096];
    long total = 0;
    for (;;) {
        ssize_t n = write(r->fd, chunk, sizeof chunk);
        if (n <= 0) break;
        total += n;
    }
    return enif_make_long(env, total);
}

/* read(R, Max) -> Bin | eagain | eof | {error, Errno}. */
static ERL_NIF_TERM read_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    unsigned long max;
    if (!r || !enif_get_ulong(env, argv[1], &max)) return enif_make_badarg(env);
    ErlNifBinary b;
    enif_alloc_binary(max, &b);
    ssize_t n = read(r->fd, b.data, max);
    if (n < 0) {
        int e = errno;
        enif_release_binary(&b);
        if (e == EAGAIN) return atom(env, "eagain");
        return enif_make_tuple2(env, atom(env, "error"), enif_make_int(env, e));
    }
    if (n == 0) {
        enif_release_binary(&b);
        return atom(env, "eof");
    }
    enif_realloc_binary(&b, n);
    return enif_make_binary(env, &b);
}

/* drain(R) -> bytes read until the descriptor would block (or its end). */
static ERL_NIF_TERM drain_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    if (!r) return enif_make_badarg(env);
    char buf[4096];
    long total = 0;
    for (;;) {
        ssize_t n = read(r->fd, buf, sizeof buf);
        if (n <= 0) break;
        total += n;
    }
    return enif_make_long(env, total);
}

/* close(R): closes the descriptor without the select protocol (the other end's view). */
static ERL_NIF_TERM close_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    if (!r) return enif_make_badarg(env);
    if (r->closed) return atom(env, "already_closed");
    r->closed = 1;
    return enif_make_int(env, close(r->fd));
}
static ERL_NIF_TERM is_closed_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    if (!r) return enif_make_badarg(env);
    return atom(env, r->closed ? "true" : "false");
}

/* select(R, Mode, Pid | null, RefOrMsg, MsgEnv) -> enif_select_x's answer. With MsgEnv =
 * true the message is built in an environment of its own, passed as msg_env. */
static ERL_NIF_TERM select_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    int mode;
    ErlNifPid pid, *pidp = NULL;
    if (!r || !enif_get_int(env, argv[1], &mode)) return enif_make_badarg(env);
    if (enif_get_local_pid(env, argv[2], &pid)) pidp = &pid;
    else if (!enif_is_identical(argv[2], atom(env, "null"))) return enif_make_badarg(env);
    int ret;
    if (enif_is_identical(argv[4], atom(env, "true"))) {
        ErlNifEnv* msg_env = enif_alloc_env();
        ERL_NIF_TERM msg = enif_make_copy(msg_env, argv[3]);
        ret = enif_select_x(env, r->fd, (enum ErlNifSelectFlags)mode, r, pidp, msg, msg_env);
        enif_free_env(msg_env);
    } else {
        ret = enif_select_x(env, r->fd, (enum ErlNifSelectFlags)mode, r, pidp, argv[3], NULL);
    }
    return enif_make_int(env, ret);
}

/* select_plain(R, Mode, Ref): enif_select itself, for the calling process. */
static ERL_NIF_TERM select_plain_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    FdRes* r = get_fd(env, argv[0]);
    int mode;
    if (!r || !enif_get_int(env, argv[1], &mode)) return enif_make_badarg(env);
    return enif_make_int(env, enif_select(env, r->fd, (enum ErlNifSelectFlags)mode, r, NULL, argv[2]));
}

/* ---- monitors ---- */

static ERL_NIF_TERM new_mon(ErlNifEnv* env, ErlNifResourceType* type) {
    MonRes* r = enif_alloc_resource(type, sizeof(MonRes));
    r->id = new_id();
    enif_self(env, &r->owner);
    ERL_NIF_TERM t = enif_make_resource(env, r);
    enif_release_resource(r);
    return t;
}
static ERL_NIF_TERM mon_new_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) { return new_mon(env, mon_type); }
static ERL_NIF_TERM nodown_new_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return new_mon(env, nodown_type);
}

static MonRes* get_mon(ErlNifEnv* env, ERL_NIF_TERM t) {
    void* r;
    if (enif_get_resource(env, t, mon_type, &r) || enif_get_resource(env, t, nodown_type, &r)) return r;
    return NULL;
}

static ERL_NIF_TERM monitor_binary(ErlNifEnv* env, const ErlNifMonitor* m) {
    ERL_NIF_TERM bin;
    memcpy(enif_make_new_binary(env, sizeof *m, &bin), m, sizeof *m);
    return bin;
}
static int get_monitor(ErlNifEnv* env, ERL_NIF_TERM t, ErlNifMonitor* m) {
    ErlNifBinary b;
    if (!enif_inspect_binary(env, t, &b) || b.size != sizeof *m) return 0;
    memcpy(m, b.data, sizeof *m);
    return 1;
}

/* monitor(R, Pid | undefined) -> {Answer, MonitorBinary} */
static ERL_NIF_TERM monitor_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    MonRes* r = get_mon(env, argv[0]);
    ErlNifPid pid;
    if (!r) return enif_make_badarg(env);
    if (enif_is_identical(argv[1], atom(env, "undefined"))) enif_set_pid_undefined(&pid);
    else if (!enif_get_local_pid(env, argv[1], &pid)) return enif_make_badarg(env);
    ErlNifMonitor m;
    memset(&m, 0, sizeof m);
    int ret = enif_monitor_process(env, r, &pid, &m);
    return enif_make_tuple2(env, enif_make_int(env, ret), monitor_binary(env, &m));
}

static ERL_NIF_TERM demonitor_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    MonRes* r = get_mon(env, argv[0]);
    ErlNifMonitor m;
    if (!r || !get_monitor(env, argv[1], &m)) return enif_make_badarg(env);
    return enif_make_int(env, enif_demonitor_process(env, r, &m));
}

/* compare(M1, M2) -> -1 | 0 | 1 */
static ERL_NIF_TERM compare_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifMonitor a, b;
    if (!get_monitor(env, argv[0], &a) || !get_monitor(env, argv[1], &b)) return enif_make_badarg(env);
    int c = enif_compare_monitors(&a, &b);
    return enif_make_int(env, c < 0 ? -1 : c > 0);
}

static ERL_NIF_TERM monitor_term_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifMonitor m;
    if (!get_monitor(env, argv[0], &m)) return enif_make_badarg(env);
    return enif_make_monitor_term(env, &m);
}

static ErlNifFunc funcs[] = {
    {"pipe", 0, pipe_nif, 0},
    {"socketpair", 0, socketpair_nif, 0},
    {"dup_resource", 1, dup_resource_nif, 0},
    {"set_owner", 2, set_owner_nif, 0},
    {"id", 1, id_nif, 0},
    {"write", 2, write_nif, 0},
    {"fill", 1, fill_nif, 0},
    {"read", 2, read_nif, 0},
    {"drain", 1, drain_nif, 0},
    {"close", 1, close_nif, 0},
    {"is_closed", 1, is_closed_nif, 0},
    {"select", 5, select_nif, 0},
    {"select_plain", 3, select_plain_nif, 0},
    {"mon_new", 0, mon_new_nif, 0},
    {"nodown_new", 0, nodown_new_nif, 0},
    {"monitor", 2, monitor_nif, 0},
    {"demonitor", 2, demonitor_nif, 0},
    {"compare", 2, compare_nif, 0},
    {"monitor_term", 1, monitor_term_nif, 0},
};

/* Built once per test module (NIF_MODULE: nif_select, nif_monitor): a library names the
 * module that loads it. The extra macro expands NIF_MODULE before ERL_NIF_INIT quotes it. */
#define INIT_FOR(MODULE) ERL_NIF_INIT(MODULE, funcs, load, NULL, NULL, NULL)
INIT_FOR(NIF_MODULE)

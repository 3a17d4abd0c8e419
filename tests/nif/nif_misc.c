/* The rest of erl_nif.h's services, for tests/conformance/nif_misc.erl: enif_system_info,
 * time (monotonic, offset, unit conversion), unique integers, enif_snprintf's %T,
 * enif_getenv, I/O queues, dynamic resource calls, rwlocks and thread-specific data,
 * enif_consume_timeslice. Values that differ from run to run (times,
 * unique integers) are answered as comparisons. */
#include <erl_nif.h>

#include <string.h>

static ERL_NIF_TERM atom(ErlNifEnv* env, const char* name) { return enif_make_atom(env, name); }
static ERL_NIF_TERM bool_atom(ErlNifEnv* env, int b) { return atom(env, b ? "true" : "false"); }

static ErlNifResourceType* dyn_type;

/* The dyncall of the "dyn" resource type: adds the object's step to the int at call_data. */
static void dyn_call(ErlNifEnv* env, void* obj, void* call_data) {
    *(int*)call_data += *(int*)obj;
}

static int load(ErlNifEnv* env, void** priv, ERL_NIF_TERM info) {
    ErlNifResourceTypeInit init;
    memset(&init, 0, sizeof init);
    init.dyncall = dyn_call;
    init.members = 4;  /* dtor, stop, down, dyncall */
    dyn_type = enif_init_resource_type(env, "dyn", &init, ERL_NIF_RT_CREATE, NULL);
    return dyn_type ? 0 : 1;
}

/* system_info() -> the enif_system_info fields that do not depend on the machine. */
static ERL_NIF_TERM system_info(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifSysInfo si;
    memset(&si, 0, sizeof si);
    enif_system_info(&si, sizeof si);
    ERL_NIF_TERM items[] = {
        enif_make_tuple2(env, atom(env, "nif_version"),
                         enif_make_tuple2(env, enif_make_int(env, si.nif_major_version), enif_make_int(env, si.nif_minor_version))),
        enif_make_tuple2(env, atom(env, "driver_version"),
                         enif_make_tuple2(env, enif_make_int(env, si.driver_major_version), enif_make_int(env, si.driver_minor_version))),
        enif_make_tuple2(env, atom(env, "otp_release"), enif_make_string(env, si.otp_release ? si.otp_release : "", ERL_NIF_LATIN1)),
        enif_make_tuple2(env, atom(env, "thread_support"), enif_make_int(env, si.thread_support)),
        enif_make_tuple2(env, atom(env, "smp_support"), enif_make_int(env, si.smp_support)),
        enif_make_tuple2(env, atom(env, "dirty_scheduler_support"), enif_make_int(env, si.dirty_scheduler_support)),
        enif_make_tuple2(env, atom(env, "scheduler_threads"), enif_make_int(env, si.scheduler_threads)),
    };
    return enif_make_list_from_array(env, items, sizeof items / sizeof items[0]);
}

/* times() -> {MonotonicMicroseconds, OffsetMicroseconds, conversions}. */
static ERL_NIF_TERM times(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifTime mono = enif_monotonic_time(ERL_NIF_USEC);
    ErlNifTime offset = enif_time_offset(ERL_NIF_USEC);
    ERL_NIF_TERM conversions = enif_make_list4(env,
        enif_make_int64(env, enif_convert_time_unit(1500000, ERL_NIF_USEC, ERL_NIF_SEC)),
        enif_make_int64(env, enif_convert_time_unit(-1500000, ERL_NIF_USEC, ERL_NIF_SEC)),
        enif_make_int64(env, enif_convert_time_unit(3, ERL_NIF_SEC, ERL_NIF_NSEC)),
        enif_make_int64(env, enif_convert_time_unit(1, ERL_NIF_SEC, (ErlNifTimeUnit)99)));
    return enif_make_tuple3(env, enif_make_int64(env, mono), enif_make_int64(env, offset), conversions);
}

/* unique() -> {A, B, C}: positive monotonic, then two plain unique integers. */
static ERL_NIF_TERM unique(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    /* Made one statement at a time: C leaves the order of a call's arguments open. */
    ERL_NIF_TERM first = enif_make_unique_integer(env, ERL_NIF_UNIQUE_POSITIVE | ERL_NIF_UNIQUE_MONOTONIC);
    ERL_NIF_TERM second = enif_make_unique_integer(env, ERL_NIF_UNIQUE_POSITIVE | ERL_NIF_UNIQUE_MONOTONIC);
    return enif_make_tuple3(env, first, second, enif_make_unique_integer(env, 0));
}

/* format(T) -> the string enif_snprintf makes of "%d|%s|%T|" and T, and its return value;
 * then the same into a buffer of 8 bytes (truncated). */
static ERL_NIF_TERM format(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    char buf[512], small[8];
    int n = enif_snprintf(buf, sizeof buf, "%d|%s|%T|", 42, "text", argv[0]);
    int m = enif_snprintf(small, sizeof small, "%T", argv[0]);
    return enif_make_tuple4(env, enif_make_int(env, n), enif_make_string(env, buf, ERL_NIF_LATIN1),
                            enif_make_int(env, m), enif_make_string(env, small, ERL_NIF_LATIN1));
}

/* getenv(Name) -> {Result, Value, SizeNeeded}: enif_getenv into 64 bytes, then into 2. */
static ERL_NIF_TERM getenv_nif(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    char name[128], value[64], tiny[2];
    size_t size = sizeof value, tiny_size = sizeof tiny;
    if (enif_get_string(env, argv[0], name, sizeof name, ERL_NIF_LATIN1) <= 0) return enif_make_badarg(env);
    int r = enif_getenv(name, value, &size);
    int t = enif_getenv(name, tiny, &tiny_size);
    return enif_make_tuple4(env, enif_make_int(env, r), r == 0 ? enif_make_string(env, value, ERL_NIF_LATIN1) : atom(env, "none"),
                            enif_make_int(env, t), enif_make_uint64(env, tiny_size));
}

/* ioq(Bins) -> {SizeAfterEnqueue, PeekedHead, SizeAfterDeq3, Remaining}: the binaries queued in
 * an ErlNifIOQueue, 3 bytes dequeued, the rest read back as one binary. */
static ERL_NIF_TERM ioq(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifIOQueue* q = enif_ioq_create(ERL_NIF_IOQ_NORMAL);
    ERL_NIF_TERM head, tail = argv[0];
    while (enif_get_list_cell(env, tail, &head, &tail)) {
        ErlNifBinary bin;
        if (!enif_inspect_binary(env, head, &bin)) { enif_ioq_destroy(q); return enif_make_badarg(env); }
        ErlNifBinary copy;
        enif_alloc_binary(bin.size, &copy);
        memcpy(copy.data, bin.data, bin.size);
        enif_ioq_enq_binary(q, &copy, 0);  /* the queue takes the binary over */
    }
    size_t before = enif_ioq_size(q);
    ERL_NIF_TERM peeked;
    if (!enif_ioq_peek_head(env, q, NULL, &peeked)) peeked = atom(env, "empty");
    size_t after = 0;
    int dequeued = enif_ioq_deq(q, 3, &after);
    int iovlen;
    SysIOVec* iov = enif_ioq_peek(q, &iovlen);
    size_t total = enif_ioq_size(q);
    ERL_NIF_TERM rest;
    unsigned char* out = enif_make_new_binary(env, total, &rest);
    for (int i = 0; i < iovlen; i++) { memcpy(out, iov[i].iov_base, iov[i].iov_len); out += iov[i].iov_len; }
    enif_ioq_destroy(q);
    return enif_make_list5(env, enif_make_uint64(env, before), peeked, enif_make_int(env, dequeued),
                           enif_make_uint64(env, after), rest);
}

/* new_dyn(Step) -> a "dyn" resource; call_dyn(Module, TypeName, R) -> the int its dyncall made of
 * 100, or false when enif_dynamic_resource_call refused. */
static ERL_NIF_TERM new_dyn(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int step;
    if (!enif_get_int(env, argv[0], &step)) return enif_make_badarg(env);
    int* obj = enif_alloc_resource(dyn_type, sizeof *obj);
    *obj = step;
    ERL_NIF_TERM t = enif_make_resource(env, obj);
    enif_release_resource(obj);
    return t;
}

static ERL_NIF_TERM call_dyn(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int data = 100;
    if (enif_dynamic_resource_call(env, argv[0], argv[1], argv[2], &data) != 0) return atom(env, "false");
    return enif_make_int(env, data);
}

/* locks() -> what rwlock try-operations and thread-specific data answered, in order. */
static ERL_NIF_TERM locks(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifRWLock* rw = enif_rwlock_create("nif_misc_rw");
    enif_rwlock_rlock(rw);
    int try_read_while_read = enif_rwlock_tryrlock(rw) == 0;
    if (try_read_while_read) enif_rwlock_runlock(rw);
    int try_write_while_read = enif_rwlock_tryrwlock(rw) == 0;
    if (try_write_while_read) enif_rwlock_rwunlock(rw);
    enif_rwlock_runlock(rw);
    int try_write_free = enif_rwlock_tryrwlock(rw) == 0;
    if (try_write_free) enif_rwlock_rwunlock(rw);
    enif_rwlock_destroy(rw);
    ErlNifMutex* mu = enif_mutex_create("nif_misc_mutex");
    enif_mutex_lock(mu);
    int try_locked = enif_mutex_trylock(mu) == 0;
    enif_mutex_unlock(mu);
    enif_mutex_destroy(mu);
    ErlNifTSDKey key;
    int created = enif_tsd_key_create("nif_misc_key", &key) == 0;
    static int marker;
    void* before = created ? enif_tsd_get(key) : &marker;
    if (created) enif_tsd_set(key, &marker);
    void* after = created ? enif_tsd_get(key) : NULL;
    if (created) { enif_tsd_set(key, NULL); enif_tsd_key_destroy(key); }
    return enif_make_list6(env, bool_atom(env, try_read_while_read), bool_atom(env, try_write_while_read),
                           bool_atom(env, try_write_free), bool_atom(env, try_locked),
                           bool_atom(env, before == NULL), bool_atom(env, after == &marker));
}

/* timeslice(Percent) -> enif_consume_timeslice's answer; alive() -> enif_is_current_process_alive. */
static ERL_NIF_TERM timeslice(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int percent;
    if (!enif_get_int(env, argv[0], &percent)) return enif_make_badarg(env);
    return enif_make_int(env, enif_consume_timeslice(env, percent));
}

static ERL_NIF_TERM alive(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_int(env, enif_is_current_process_alive(env));
}

static ErlNifFunc funcs[] = {
    {"system_info", 0, system_info, 0}, {"times", 0, times, 0},     {"unique", 0, unique, 0},
    {"format", 1, format, 0},           {"getenv", 1, getenv_nif, 0}, {"ioq", 1, ioq, 0},
    {"new_dyn", 1, new_dyn, 0},         {"call_dyn", 3, call_dyn, 0}, {"locks", 0, locks, 0},
    {"timeslice", 1, timeslice, 0},     {"alive", 0, alive, 0},
};

ERL_NIF_INIT(nif_misc, funcs, load, NULL, NULL, NULL)

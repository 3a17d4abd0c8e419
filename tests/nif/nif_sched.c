/* Scheduling and exceptions through erl_nif.h, for tests/conformance/nif_sched.erl: work cut
 * into steps by enif_schedule_nif, NIFs declared dirty (CPU and I/O) in the function table,
 * moves to a dirty scheduler and back by enif_schedule_nif flags, a dirty NIF that blocks,
 * enif_raise_exception and enif_make_badarg (directly and from a rescheduled step). */
#include <erl_nif.h>

#include <string.h>
#include <time.h>

static ERL_NIF_TERM atom(ErlNifEnv* env, const char* name) { return enif_make_atom(env, name); }

/* Steps are a fixed size so that the number of steps is the same on every VM; the timeslice is
 * still reported as a real long-running NIF would. */
#define SUM_CHUNK 1000

static ERL_NIF_TERM sum_step(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifUInt64 next, last, acc;
    unsigned steps;
    if (!enif_get_uint64(env, argv[0], &next) || !enif_get_uint64(env, argv[1], &last) ||
        !enif_get_uint64(env, argv[2], &acc) || !enif_get_uint(env, argv[3], &steps))
        return enif_make_badarg(env);
    ErlNifUInt64 stop = next + SUM_CHUNK <= last + 1 ? next + SUM_CHUNK : last + 1;
    for (; next < stop; next++) acc += next;
    steps++;
    if (next > last) return enif_make_tuple2(env, enif_make_uint64(env, acc), enif_make_uint(env, steps));
    enif_consume_timeslice(env, 10);
    ERL_NIF_TERM args[] = {enif_make_uint64(env, next), argv[1], enif_make_uint64(env, acc), enif_make_uint(env, steps)};
    return enif_schedule_nif(env, "sum_step", 0, sum_step, 4, args);
}

/* sum(N) -> {1 + ... + N, Steps}, computed in steps of SUM_CHUNK. */
static ERL_NIF_TERM sum(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM args[] = {enif_make_uint64(env, 1), argv[0], enif_make_uint64(env, 0), enif_make_uint(env, 0)};
    return enif_schedule_nif(env, "sum_step", 0, sum_step, 4, args);
}

static ERL_NIF_TERM thread_type(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_int(env, enif_thread_type());
}

/* The second half of a round trip: back on a normal scheduler, pairs the dirty thread type
 * (argv[0]) with the current one. */
static ERL_NIF_TERM back_from_dirty(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_tuple2(env, argv[0], enif_make_int(env, enif_thread_type()));
}

static ERL_NIF_TERM on_dirty(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM args[] = {enif_make_int(env, enif_thread_type())};
    return enif_schedule_nif(env, "back_from_dirty", 0, back_from_dirty, 1, args);
}

/* round_trip(cpu | io) -> {ThreadTypeOnDirty, ThreadTypeBack}. */
static ERL_NIF_TERM round_trip(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int flags = enif_is_identical(argv[0], atom(env, "io")) ? ERL_NIF_DIRTY_JOB_IO_BOUND : ERL_NIF_DIRTY_JOB_CPU_BOUND;
    return enif_schedule_nif(env, "on_dirty", flags, on_dirty, 0, NULL);
}

/* dirty_sleep(Ms) -> slept, on a dirty I/O scheduler: the Erlang side checks that other
 * processes run meanwhile. */
static ERL_NIF_TERM dirty_sleep(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    unsigned ms;
    if (!enif_get_uint(env, argv[0], &ms)) return enif_make_badarg(env);
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {}
    return atom(env, "slept");
}

/* dirty_cpu_sum(N) -> 1 + ... + N on a dirty CPU scheduler, in one go. */
static ERL_NIF_TERM dirty_cpu_sum(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifUInt64 n, acc = 0;
    if (!enif_get_uint64(env, argv[0], &n)) return enif_make_badarg(env);
    for (ErlNifUInt64 i = 1; i <= n; i++) acc += i;
    return enif_make_tuple2(env, enif_make_uint64(env, acc), enif_make_int(env, enif_thread_type()));
}

static ERL_NIF_TERM badarg(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_badarg(env);
}

static ERL_NIF_TERM raise(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_raise_exception(env, argv[0]);
}

/* What enif_has_pending_exception said before and after a raise, for last_pending/0. */
static int pending_before = -1, pending_after = -1, pending_reason_matches = -1;

/* raise_checked(Reason): raises Reason, noting what enif_has_pending_exception reports. */
static ERL_NIF_TERM raise_checked(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM seen;
    pending_before = enif_has_pending_exception(env, NULL);
    ERL_NIF_TERM ex = enif_raise_exception(env, argv[0]);
    pending_after = enif_has_pending_exception(env, &seen);
    pending_reason_matches = pending_after && enif_is_identical(seen, argv[0]);
    return enif_is_exception(env, ex) ? ex : atom(env, "not_an_exception");
}

static ERL_NIF_TERM last_pending(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_tuple3(env, enif_make_int(env, pending_before), enif_make_int(env, pending_after),
                            enif_make_int(env, pending_reason_matches));
}

static ERL_NIF_TERM raise_step(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_raise_exception(env, enif_make_tuple2(env, atom(env, "from_step"), argv[0]));
}

/* raise_later(T) -> raises {from_step, T} from a step scheduled by enif_schedule_nif, on a
 * dirty CPU scheduler when asked. */
static ERL_NIF_TERM raise_later(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int flags = enif_is_identical(argv[1], atom(env, "dirty")) ? ERL_NIF_DIRTY_JOB_CPU_BOUND : 0;
    return enif_schedule_nif(env, "raise_step", flags, raise_step, 1, argv);
}

static ErlNifFunc funcs[] = {
    {"sum", 1, sum, 0},
    {"thread_type", 0, thread_type, 0},
    {"dirty_cpu_type", 0, thread_type, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"dirty_io_type", 0, thread_type, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"round_trip", 1, round_trip, 0},
    {"dirty_sleep", 1, dirty_sleep, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"dirty_cpu_sum", 1, dirty_cpu_sum, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"badarg", 0, badarg, 0},
    {"dirty_badarg", 0, badarg, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"raise", 1, raise, 0},
    {"raise_checked", 1, raise_checked, 0},
    {"last_pending", 0, last_pending, 0},
    {"raise_later", 2, raise_later, 0},
};

ERL_NIF_INIT(nif_sched, funcs, NULL, NULL, NULL, NULL)

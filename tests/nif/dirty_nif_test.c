/* NIFs for the dirty scheduling tests (tests/conformance/nif_dirty*.erl): dirty CPU and dirty
 * I/O calls that sleep, compute, build terms and raise; enif_schedule_nif between normal and
 * dirty schedulers and in long chains; enif_consume_timeslice. Built once per test module
 * (NIF_MODULE names it), the same .so loaded by erl and by beamvm. */
#include <erl_nif.h>

#include <string.h>
#include <time.h>

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static ERL_NIF_TERM thread_type_atom(ErlNifEnv* env) {
    switch (enif_thread_type()) {
    case ERL_NIF_THR_NORMAL_SCHEDULER: return enif_make_atom(env, "normal");
    case ERL_NIF_THR_DIRTY_CPU_SCHEDULER: return enif_make_atom(env, "dirty_cpu");
    case ERL_NIF_THR_DIRTY_IO_SCHEDULER: return enif_make_atom(env, "dirty_io");
    default: return enif_make_atom(env, "undefined");
    }
}

/* thread_type() -> normal | dirty_cpu | dirty_io */
static ERL_NIF_TERM thread_type(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return thread_type_atom(env);
}

/* sleep_cpu(Ms), sleep_io(Ms) -> {slept, Ms, ThreadType}: blocks its thread for Ms. */
static ERL_NIF_TERM dirty_sleep(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    long ms;
    if (!enif_get_long(env, argv[0], &ms) || ms < 0 || ms > 10000) return enif_make_badarg(env);
    sleep_ms(ms);
    return enif_make_tuple3(env, enif_make_atom(env, "slept"), argv[0], thread_type_atom(env));
}

/* seq_cpu(N) -> [1, ..., N], built on a dirty CPU scheduler. */
static ERL_NIF_TERM seq_cpu(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int n;
    if (!enif_get_int(env, argv[0], &n) || n < 0) return enif_make_badarg(env);
    ERL_NIF_TERM list = enif_make_list(env, 0);
    for (int i = n; i >= 1; --i) list = enif_make_list_cell(env, enif_make_int(env, i), list);
    return list;
}

/* echo_io(Term) -> {Term, ThreadType, SelfIsAlive} */
static ERL_NIF_TERM echo_io(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPid self;
    int has_self = enif_self(env, &self) != NULL;
    return enif_make_tuple3(env, argv[0], thread_type_atom(env),
                            enif_make_atom(env, has_self && enif_is_current_process_alive(env) ? "true" : "false"));
}

/* raise_cpu(Reason): raises error:Reason from a dirty CPU scheduler. */
static ERL_NIF_TERM raise_cpu(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_raise_exception(env, argv[0]);
}

/* badarg_io(X): badarg from a dirty I/O scheduler. */
static ERL_NIF_TERM badarg_io(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_badarg(env);
}

/* to_dirty(cpu | io | none, Term) -> {back, [Where, ...], Term}: a normal NIF schedules a
 * step on the named scheduler, which schedules a last step on a normal one; each records the
 * thread it ran on. */
static ERL_NIF_TERM back_step(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM where = enif_make_list_cell(env, thread_type_atom(env), argv[1]);
    ERL_NIF_TERM rev;
    enif_make_reverse_list(env, where, &rev);
    return enif_make_tuple3(env, enif_make_atom(env, "back"), rev, argv[0]);
}
static ERL_NIF_TERM dirty_step(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM args[2] = {argv[0], enif_make_list_cell(env, thread_type_atom(env), argv[1])};
    return enif_schedule_nif(env, "back_step", 0, back_step, 2, args);
}
static ERL_NIF_TERM to_dirty(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int flags;
    if (enif_is_identical(argv[0], enif_make_atom(env, "cpu"))) flags = ERL_NIF_DIRTY_JOB_CPU_BOUND;
    else if (enif_is_identical(argv[0], enif_make_atom(env, "io"))) flags = ERL_NIF_DIRTY_JOB_IO_BOUND;
    else if (enif_is_identical(argv[0], enif_make_atom(env, "none"))) flags = 0;
    else if (enif_is_identical(argv[0], enif_make_atom(env, "bad_flags"))) flags = 4711;
    else return enif_make_badarg(env);
    ERL_NIF_TERM args[2] = {argv[1], enif_make_list_cell(env, thread_type_atom(env), enif_make_list(env, 0))};
    return enif_schedule_nif(env, "dirty_step", flags, dirty_step, 2, args);
}

/* chain(N, Percent) -> {Steps, Sum, Acc}: N steps scheduled one after the other (flags 0), each
 * consing its number onto an accumulator list and making garbage on the heap; each step
 * charges Percent of a time slice (0: nothing). Counts the steps where the slice was spent. */
static ERL_NIF_TERM chain_step(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int n, percent, spent;
    long sum;
    if (!enif_get_int(env, argv[0], &n) || !enif_get_int(env, argv[1], &percent) ||
        !enif_get_int(env, argv[2], &spent) || !enif_get_long(env, argv[3], &sum))
        return enif_make_badarg(env);
    if (n == 0)
        return enif_make_tuple3(env, enif_make_int(env, spent), enif_make_long(env, sum), argv[4]);
    ERL_NIF_TERM junk = enif_make_list(env, 0);
    for (int i = 0; i < 50; ++i) junk = enif_make_list_cell(env, enif_make_tuple2(env, argv[0], junk), junk);
    (void)junk;
    if (percent > 0 && enif_consume_timeslice(env, percent)) ++spent;
    ERL_NIF_TERM args[5] = {enif_make_int(env, n - 1), argv[1], enif_make_int(env, spent),
                            enif_make_long(env, sum + n),
                            enif_make_list_cell(env, enif_make_tuple2(env, argv[0], enif_make_string(env, "step", ERL_NIF_LATIN1)), argv[4])};
    return enif_schedule_nif(env, "chain_step", 0, chain_step, 5, args);
}
static ERL_NIF_TERM chain(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int n, percent;
    if (!enif_get_int(env, argv[0], &n) || n < 0 || !enif_get_int(env, argv[1], &percent)) return enif_make_badarg(env);
    ERL_NIF_TERM args[5] = {argv[0], argv[1], enif_make_int(env, 0), enif_make_long(env, 0), enif_make_list(env, 0)};
    return enif_schedule_nif(env, "chain_step", 0, chain_step, 5, args);
}

/* chain_raise(N): N scheduled steps, the last raises error:{chain_raised, 0}. */
static ERL_NIF_TERM chain_raise_step(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int n;
    if (!enif_get_int(env, argv[0], &n)) return enif_make_badarg(env);
    if (n == 0)
        return enif_raise_exception(env, enif_make_tuple2(env, enif_make_atom(env, "chain_raised"), argv[0]));
    ERL_NIF_TERM next = enif_make_int(env, n - 1);
    return enif_schedule_nif(env, "chain_raise_step", n % 2 ? ERL_NIF_DIRTY_JOB_CPU_BOUND : 0, chain_raise_step, 1, &next);
}
static ERL_NIF_TERM chain_raise(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_schedule_nif(env, "chain_raise_step", 0, chain_raise_step, 1, argv);
}

/* timeslice(Percent, Times) -> [0 | 1]: enif_consume_timeslice's answers, in one call. */
static ERL_NIF_TERM timeslice(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int percent, times;
    if (!enif_get_int(env, argv[0], &percent) || !enif_get_int(env, argv[1], &times) || times < 0 || times > 1000)
        return enif_make_badarg(env);
    ERL_NIF_TERM list = enif_make_list(env, 0);
    for (int i = 0; i < times; ++i) list = enif_make_list_cell(env, enif_make_int(env, enif_consume_timeslice(env, percent)), list);
    ERL_NIF_TERM rev;
    enif_make_reverse_list(env, list, &rev);
    return rev;
}

/* timeslice_cpu(Percent): the answer on a dirty CPU scheduler. */
static ERL_NIF_TERM timeslice_dirty(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int percent;
    if (!enif_get_int(env, argv[0], &percent)) return enif_make_badarg(env);
    return enif_make_int(env, enif_consume_timeslice(env, percent));
}

/* bad_name(): enif_schedule_nif with a name that makes no atom (256 characters). */
static ERL_NIF_TERM bad_name(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    char name[257];
    memset(name, 'n', 256);
    name[256] = 0;
    return enif_schedule_nif(env, name, 0, thread_type, 0, argv);
}

static ErlNifFunc funcs[] = {
    {"thread_type", 0, thread_type, 0},
    {"sleep_cpu", 1, dirty_sleep, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"sleep_io", 1, dirty_sleep, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"sleep_normal", 1, dirty_sleep, 0},
    {"seq_cpu", 1, seq_cpu, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"echo_io", 1, echo_io, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"raise_cpu", 1, raise_cpu, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"badarg_io", 1, badarg_io, ERL_NIF_DIRTY_JOB_IO_BOUND},
    {"to_dirty", 2, to_dirty, 0},
    {"chain", 2, chain, 0},
    {"chain_raise", 1, chain_raise, 0},
    {"timeslice", 2, timeslice, 0},
    {"timeslice_cpu", 1, timeslice_dirty, ERL_NIF_DIRTY_JOB_CPU_BOUND},
    {"bad_name", 0, bad_name, 0},
};

/* ERL_NIF_INIT stringizes its first argument: one more macro level expands NIF_MODULE first. */
#define DIRTY_NIF_INIT(module) ERL_NIF_INIT(module, funcs, NULL, NULL, NULL, NULL)
DIRTY_NIF_INIT(NIF_MODULE)

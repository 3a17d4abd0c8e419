// erts_debug:dirty_cpu/2, dirty_io/2 and dirty/3: the functions OTP's emulator suites
// (dirty_bif_SUITE, process_SUITE, statistics_SUITE...) use to put a process on a dirty
// scheduler. erts runs them as BIFs flagged dirty; here they are built-in dirty NIFs, bound to
// the export entries as an embedding host's functions are (vm/code_table.cpp), so they use the
// same machinery as a library's dirty NIF: the step runs on a dirty thread, enif_schedule_nif's
// continuation moves it between dirty CPU, dirty I/O and normal schedulers.
//
// The operations, as erts defines them (Op, Arg):
//   scheduler, type        -> normal | dirty_cpu | dirty_io: where the call runs
//   error, Reason          -> raises error:Reason for notsup, undef, badarith, noproc,
//                             system_limit; badarg for anything else
//   copy, Term             -> a list of 1000 copies of Term, built on the process's heap
//   send, Pid              -> sends {ok, Self} to Pid, returns ok
//   wait, Ms               -> waits Ms milliseconds (spinning on a dirty CPU scheduler), ok
//   reschedule, N          -> reschedules itself with N-2 until 0, changing scheduler type
//                             each time N is divisible by 4 (cpu -> io -> normal -> cpu); ok,
//                             or badarg when N is odd (it reaches -1)
//   ready_wait6_done, Pid  -> sends {ready, Self}, waits 6 s, sends {done, Self}, ok
// alive_waitexiting (wait until the process is killed while it runs dirty) needs a process to
// be ended while its dirty step runs, which beamvm does only when the step returns
// (scheduler/dirty_schedulers.hpp): it raises error:{not_implemented, alive_waitexiting}.
#include "nif/debug_dirty.hpp"

#include <chrono>
#include <thread>

#include "bifs/bif_util.hpp"
#include "nif/nif_env.hpp"
#include "nif/nif_module.hpp"
#include "scheduler/dirty_schedulers.hpp"
#include "scheduler/signals.hpp"
#include "vm/clocks.hpp"
#include "vm/copy_term.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

using nif::N;
using nif::T;

enum class Where { Normal, Cpu, Io };

ERL_NIF_TERM run_normal(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]);
ERL_NIF_TERM run_cpu(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]);
ERL_NIF_TERM run_io(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]);

ERL_NIF_TERM raise(ErlNifEnv* env, Term reason) {
    env->exception = reason;
    return N(NON_VALUE);
}

// The call continues with (Op, Arg) on a scheduler of kind `to`.
ERL_NIF_TERM continue_on(ErlNifEnv* env, Where to, Term op, Term arg) {
    auto s = std::make_unique<ErlNifEnv::Scheduled>();
    s->fn = to == Where::Cpu ? run_cpu : to == Where::Io ? run_io : run_normal;
    s->flags = to == Where::Cpu ? ERL_NIF_DIRTY_JOB_CPU_BOUND : to == Where::Io ? ERL_NIF_DIRTY_JOB_IO_BOUND : 0;
    s->name = to == Where::Normal ? atom("dirty") : to == Where::Cpu ? atom("dirty_cpu") : atom("dirty_io");
    s->argc = 2;
    s->args[0] = op;
    s->args[1] = arg;
    env->scheduled = std::move(s);
    return N(am::ok);
}

// Waits `ms` milliseconds: spinning (yielding the thread) when `busy`, as erts does on a dirty
// CPU scheduler, else sleeping.
void wait_ms(int64_t ms, bool busy) {
    int64_t until = monotonic_ns() + std::max<int64_t>(ms, 0) * 1'000'000;
    for (int64_t now = monotonic_ns(); now < until; now = monotonic_ns()) {
        if (busy) std::this_thread::yield();
        else std::this_thread::sleep_for(std::chrono::nanoseconds(until - now));
    }
}

void send_tagged(ErlNifEnv* env, Term to, const char* tag) {
    Term msg = make_tuple(*env->heap, {atom(tag), env->proc->pid});
    if (is_local_pid(to)) post_message(*env->vm, to, msg);
}

Term where_term(uint8_t kind) {
    if (kind == dirty_kind::CPU) return atom("dirty_cpu");
    if (kind == dirty_kind::IO) return atom("dirty_io");
    return atom("normal");
}

ERL_NIF_TERM dirty_test(ErlNifEnv* env, Where where, Term op, Term arg) {
    if (op == atom("scheduler")) {
        if (arg != atom("type")) return raise(env, am::badarg);
        return N(where_term(DirtySchedulers::current_kind()));
    }
    if (op == atom("error")) {
        for (const char* r : {"notsup", "undef", "badarith", "noproc", "system_limit"})
            if (arg == atom(r)) return raise(env, arg);
        return raise(env, am::badarg);
    }
    if (op == atom("copy")) {
        Term list = NIL;
        for (int i = 0; i < 1000; ++i) {
            Term c = copy_term(arg, *env->heap);
            list = cons_at(env->heap->alloc(2), c, list);
        }
        return N(list);
    }
    if (op == atom("send")) {
        send_tagged(env, arg, "ok");
        return N(am::ok);
    }
    if (op == atom("wait")) {
        if (!is_small(arg)) return raise(env, am::badarg);
        wait_ms(small_value(arg), where == Where::Cpu);
        return N(am::ok);
    }
    if (op == atom("reschedule")) {
        if (!is_small(arg) || small_value(arg) < 0) return raise(env, am::badarg);
        SWord n = small_value(arg);
        if (n == 0) return N(am::ok);
        Where next = where;
        if (n % 4 == 0) next = where == Where::Cpu ? Where::Io : where == Where::Io ? Where::Normal : Where::Cpu;
        return continue_on(env, next, op, make_small(n - 2));
    }
    if (op == atom("ready_wait6_done")) {
        send_tagged(env, arg, "ready");
        wait_ms(6000, false);
        send_tagged(env, arg, "done");
        return N(am::ok);
    }
    if (op == atom("alive_waitexiting"))
        return raise(env, make_tuple(*env->heap, {atom("not_implemented"), op}));
    return raise(env, am::badarg);
}

ERL_NIF_TERM run_normal(ErlNifEnv* env, int, const ERL_NIF_TERM argv[]) {
    return dirty_test(env, Where::Normal, T(argv[0]), T(argv[1]));
}
ERL_NIF_TERM run_cpu(ErlNifEnv* env, int, const ERL_NIF_TERM argv[]) {
    return dirty_test(env, Where::Cpu, T(argv[0]), T(argv[1]));
}
ERL_NIF_TERM run_io(ErlNifEnv* env, int, const ERL_NIF_TERM argv[]) {
    return dirty_test(env, Where::Io, T(argv[0]), T(argv[1]));
}

// erts_debug:dirty(Type, Op, Arg): on a normal scheduler, then where Type says.
ERL_NIF_TERM run_dirty3(ErlNifEnv* env, int, const ERL_NIF_TERM argv[]) {
    Term type = T(argv[0]);
    if (type == atom("normal")) return dirty_test(env, Where::Normal, T(argv[1]), T(argv[2]));
    if (type == atom("dirty_cpu")) return continue_on(env, Where::Cpu, T(argv[1]), T(argv[2]));
    if (type == atom("dirty_io")) return continue_on(env, Where::Io, T(argv[1]), T(argv[2]));
    return raise(env, am::badarg);
}

struct DebugDirtyFunctions {
    NifModule owner;  // no library, no private data
    NifFunction cpu, io, dirty3;
    DebugDirtyFunctions() {
        Term m = atom("erts_debug");
        cpu = {m, atom("dirty_cpu"), 2, ERL_NIF_DIRTY_JOB_CPU_BOUND, run_cpu, &owner};
        io = {m, atom("dirty_io"), 2, ERL_NIF_DIRTY_JOB_IO_BOUND, run_io, &owner};
        dirty3 = {m, atom("dirty"), 3, 0, run_dirty3, &owner};
    }
};

}  // namespace

const NifFunction* debug_dirty_function(Term module, Term function, unsigned arity) {
    if (module != atom("erts_debug")) return nullptr;
    static const DebugDirtyFunctions fns;  // atoms are the same in every VM of the process
    for (const NifFunction* f : {&fns.cpu, &fns.io, &fns.dirty3})
        if (f->name == function && f->arity == arity) return f;
    return nullptr;
}

}  // namespace beam

// enif_* environments, messages, exceptions and rescheduling.
#include <algorithm>
#include <cstring>

#include "nif/nif_env.hpp"
#include "nif/nif_module.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/signals.hpp"
#include "vm/copy_term.hpp"
#include "vm/interp.hpp"
#include "vm/vm.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;

extern "C" {

void* enif_priv_data(ErlNifEnv* env) { return env->module ? env->module->priv_data : nullptr; }

// ---- process-independent environments ----
ErlNifEnv* enif_alloc_env(void) {
    auto* env = new ErlNifEnv;
    env->vm = nif::current_vm();
    env->own = std::make_unique<LiteralArea>();
    env->heap = env->own.get();
    return env;
}
void enif_free_env(ErlNifEnv* env) { delete env; }
void enif_clear_env(ErlNifEnv* env) {
    if (!env->own) return;  // a call environment is the process's heap
    env->own = std::make_unique<LiteralArea>();
    env->heap = env->own.get();
}
ERL_NIF_TERM enif_make_copy(ErlNifEnv* dst, ERL_NIF_TERM src) { return N(copy_term(T(src), nif::heap(dst))); }

// ---- pids and messages ----
ErlNifPid* enif_self(ErlNifEnv* env, ErlNifPid* pid) {
    if (!env || !env->proc) return nullptr;
    pid->pid = N(env->proc->pid);
    return pid;
}
int enif_get_local_pid(ErlNifEnv*, ERL_NIF_TERM t, ErlNifPid* pid) {
    if (!is_local_pid(T(t))) return 0;
    pid->pid = t;
    return 1;
}
void enif_set_pid_undefined(ErlNifPid* pid) { pid->pid = N(am::undefined); }
int enif_is_pid_undefined(const ErlNifPid* pid) { return T(pid->pid) == am::undefined; }

// The message is copied into the receiver; a message environment is cleared afterwards, as
// erts leaves it. From a thread outside the VM (env null) the VM is the one that loaded NIFs.
int enif_send(ErlNifEnv* env, const ErlNifPid* to, ErlNifEnv* msg_env, ERL_NIF_TERM msg) {
    VM* vm = env && env->vm ? env->vm : msg_env && msg_env->vm ? msg_env->vm : nif::current_vm();
    bool sent = vm && is_local_pid(T(to->pid)) && post_message(*vm, T(to->pid), T(msg));
    if (msg_env) enif_clear_env(msg_env);
    return sent;
}

int enif_is_current_process_alive(ErlNifEnv* env) {
    return env && env->proc && !(env->proc->sched.state.load(std::memory_order_relaxed) & run_state::EXITED);
}
int enif_is_process_alive(ErlNifEnv* env, ErlNifPid* pid) {
    VM* vm = env && env->vm ? env->vm : nif::current_vm();
    if (!vm || !is_local_pid(T(pid->pid))) return 0;
    Process* p = vm->procs.lookup(T(pid->pid));
    if (!p) return 0;
    ProcessTable::release(p);
    return 1;
}
int enif_whereis_pid(ErlNifEnv* env, ERL_NIF_TERM name, ErlNifPid* pid) {
    VM* vm = env && env->vm ? env->vm : nif::current_vm();
    if (!vm || !is_atom(T(name))) return 0;
    Term r = vm->procs.whereis(env && env->proc ? env->proc->ns : &vm->root(), T(name));
    if (!is_local_pid(r)) return 0;
    pid->pid = N(r);
    return 1;
}

// ---- exceptions ----
ERL_NIF_TERM enif_raise_exception(ErlNifEnv* env, ERL_NIF_TERM reason) {
    env->exception = T(reason);
    return N(NON_VALUE);
}
ERL_NIF_TERM enif_make_badarg(ErlNifEnv* env) { return enif_raise_exception(env, N(am::badarg)); }
int enif_has_pending_exception(ErlNifEnv* env, ERL_NIF_TERM* reason) {
    if (is_non_value(env->exception)) return 0;
    if (reason) *reason = N(env->exception);
    return 1;
}

// ---- rescheduling ----
// The scheduled call replaces the running one when it returns (nif/nif_call.cpp): it runs
// when the interpreter next comes to the process (which yields first if its reductions are
// spent), or on a dirty scheduler for the dirty flags. fun_name must make an atom.
ERL_NIF_TERM enif_schedule_nif(ErlNifEnv* env, const char* name, int flags,
                               ERL_NIF_TERM (*fp)(ErlNifEnv*, int, const ERL_NIF_TERM[]), int argc,
                               const ERL_NIF_TERM argv[]) {
    if (!env->proc || argc < 0 || argc > 255 || !name || std::strlen(name) > MAX_ATOM_CHARS ||
        (flags != 0 && flags != ERL_NIF_DIRTY_JOB_CPU_BOUND && flags != ERL_NIF_DIRTY_JOB_IO_BOUND))
        return enif_make_badarg(env);
    auto s = std::make_unique<ErlNifEnv::Scheduled>();
    s->fn = fp;
    s->flags = flags;
    s->name = T(enif_make_atom(env, name));
    s->argc = argc;
    for (int i = 0; i < argc; ++i) s->args[i] = T(argv[i]);
    env->scheduled = std::move(s);
    return N(NON_VALUE);
}

// Charges `percent` of a time slice in reductions, as erts: ceil(budget / 100) per percent,
// the slice's use capped at the budget. 1 once the slice is spent. Nothing on a dirty
// scheduler, where no slice is counted.
int enif_consume_timeslice(ErlNifEnv* env, int percent) {
    if (env->dirty || !env->proc) return 0;
    if (percent < 1) percent = 1;
    if (percent > 100) percent = 100;
    constexpr int64_t per_percent = (REDUCTION_BUDGET + 99) / 100;
    Process* p = env->proc;
    p->slice_reds_used = std::min(p->slice_reds_used + per_percent * percent, REDUCTION_BUDGET);
    return p->slice_reds_used >= REDUCTION_BUDGET;
}

}  // extern "C"

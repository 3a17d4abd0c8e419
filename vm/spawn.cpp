// Creating processes and starting the VM's schedulers.
#include "scheduler/signals.hpp"
#include "vm/copy_term.hpp"
#include "vm/interp.hpp"
#include "vm/system_flags.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {
// Code every process starts in: apply M:F(Args) or Fun(Args) as a tail call, with a return
// address under it that ends the process normally.
const Word* exit_code() {
    static const Word code[1] = {handler_word(Op::normal_exit)};
    return code;
}
const Word* apply_mfa_code() {
    static const Word code[3] = {handler_word(Op::apply_mfa_list_uu), 1, 0};
    return code;
}
const Word* apply_fun_code() {
    static const Word code[3] = {handler_word(Op::apply_fun_list_uu), 1, 0};
    return code;
}
}  // namespace

void VM::start(int scheduler_count) {
    scheds = std::make_unique<Schedulers>(this, scheduler_count);
    scheds->start();
    timers.start();
}

Process* VM::new_process(Namespace& ns, size_t min_heap, Term group_leader, bool system) {
    auto* p = new Process(this, &ns, make_local_pid(next_pid()), min_heap);
    p->sched.refc.store(2, std::memory_order_relaxed);  // the table's and the caller's
    p->group_leader = group_leader;
    p->set_min_bin_vheap_size(system_flags(*this).min_bin_vheap_size.load(std::memory_order_relaxed));
    // Not runnable until start_process: signals sent meanwhile only mark it PENDING.
    p->sched.state.store(run_state::RUNNING, std::memory_order_relaxed);
    *--p->stop = Term{reinterpret_cast<Word>(exit_code())};
    p->sched.system = system;
    if (!system && new_process_trace.flags.load(std::memory_order_acquire)) {
        std::lock_guard lock(trace_mutex);
        set_trace(p, new_process_trace.flags.load(std::memory_order_relaxed), new_process_trace.tracer);
    }
    procs.insert(p);
    if (scheds && !system) scheds->user_process_started();
    return p;
}

void VM::setup_call(Process* p, Term m, Term f, Term args) {
    p->saved_x = {m, f, copy_term(args, *p)};
    p->arity = 3;
    p->pc = apply_mfa_code();
    p->sched.initial_m = m;
    p->sched.initial_f = f;
    uint32_t n = 0;
    for (Term l = args; is_list(l); l = tail(l)) ++n;
    p->sched.initial_a = n;
}

void VM::setup_fun_call(Process* p, Term fun) {
    p->saved_x = {copy_term(fun, *p), NIL};
    p->arity = 2;
    p->pc = apply_fun_code();
    p->sched.initial_m = am::erlang;
    p->sched.initial_f = am::apply;
    p->sched.initial_a = 2;
}

void VM::start_process(Process* p) {
    p->sched.state.fetch_and(~run_state::RUNNING, std::memory_order_acq_rel);
    scheds->activate(p);
}

}  // namespace beam

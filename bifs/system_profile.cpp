// erlang:system_profile/0,2 (OTP's erl_bif_trace.c): who is told when processes and
// schedulers become active or inactive. The events are raised by the scheduler
// (vm/system_monitor.cpp).
#include <mutex>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "scheduler/ports.hpp"
#include "vm/process.hpp"
#include "vm/system_monitor.hpp"
#include "vm/trace.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

bool live_profiler(VM& vm, Term who) {
    if (is_local_port(who)) return port_is_open(vm, who);
    if (!is_pid(who)) return false;
    Process* q = vm.procs.lookup(who);
    if (!q) return false;
    bool alive = !(q->sched.state.load(std::memory_order_acquire) & run_state::EXITED);
    ProcessTable::release(q);
    return alive;
}

// undefined or {Profiler, Options} as system_profile/0 reports it; a profiler that has died
// is forgotten here. Called with the mutex held.
Term current_locked(Process* p) {
    SystemProfile& sp = p->vm->sysprof;
    if (sp.profiler == NIL) return am::undefined;
    if (!live_profiler(*p->vm, sp.profiler)) {
        sp.flags.store(0, std::memory_order_relaxed);
        sp.profiler = NIL;
        return am::undefined;
    }
    uint32_t f = sp.flags.load(std::memory_order_relaxed);
    Term opts = NIL;
    auto add = [&](const char* name) {
        Term t = atom(name);
        opts = make_list_from(*p, &t, 1, opts);
    };
    if (f & profile_flag::RUNNABLE_PORTS) add("runnable_ports");
    if (f & profile_flag::RUNNABLE_PROCS) add("runnable_procs");
    if (f & profile_flag::SCHEDULER) add("scheduler");
    if (f & profile_flag::EXCLUSIVE) add("exclusive");
    return make_tuple(*p, {sp.profiler, opts});
}

// erlang:system_profile() -> undefined | {Profiler, Options}.
Term system_profile_0(Process* p, const Term*) {
    std::lock_guard lock(p->vm->sysprof.mutex);
    return current_locked(p);
}

// erlang:system_profile(Profiler | undefined, Options) -> previous setting.
Term system_profile_2(Process* p, const Term* a) {
    VM& vm = *p->vm;
    SystemProfile& sp = vm.sysprof;
    Term who = a[0], options = a[1];
    if (who == am::undefined || options == NIL) {
        std::lock_guard lock(sp.mutex);
        Term prev = current_locked(p);
        sp.flags.store(0, std::memory_order_relaxed);
        sp.profiler = NIL;
        return prev;
    }
    if (!is_list(options) || !live_profiler(vm, who)) return p->badarg();
    uint32_t flags = 0, ts = trace_flag::TIMESTAMP;
    Term l = options;
    for (; is_list(l); l = tail(l)) {
        Term o = head(l);
        if (o == atom("runnable_procs")) flags |= profile_flag::RUNNABLE_PROCS;
        else if (o == atom("runnable_ports")) flags |= profile_flag::RUNNABLE_PORTS;
        else if (o == atom("scheduler")) flags |= profile_flag::SCHEDULER;
        else if (o == atom("exclusive")) flags |= profile_flag::EXCLUSIVE;
        else if (o == atom("timestamp")) ts = trace_flag::TIMESTAMP;
        else if (o == atom("monotonic_timestamp")) ts = trace_flag::MONOTONIC_TIMESTAMP;
        else if (o == atom("strict_monotonic_timestamp")) ts = trace_flag::STRICT_MONOTONIC_TIMESTAMP;
        else return p->badarg();
    }
    if (l != NIL) return p->badarg();
    std::lock_guard lock(sp.mutex);
    Term prev = current_locked(p);
    sp.profiler = who;
    sp.timestamp = ts;
    sp.generation++;
    // Every scheduler counts as active when scheduler profiling starts (erl counts those not
    // sleeping; the count is only reported, never relied on).
    if (flags & profile_flag::SCHEDULER) sp.active_schedulers = vm.scheds ? vm.scheds->online() : 1;
    sp.flags.store(flags, std::memory_order_relaxed);
    return prev;
}

constexpr BifSpec table[] = {
    {"erlang", "system_profile", 0, &system_profile_0},
    {"erlang", "system_profile", 2, &system_profile_2},
};

}  // namespace

std::span<const BifSpec> system_profile_bifs() { return table; }

}  // namespace beam

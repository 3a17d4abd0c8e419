// erlang:system_monitor/0,1,2 (OTP's erl_bif_trace.c): who is told about long garbage
// collections, long time slices, large heaps and busy ports. The events themselves are raised
// by the GC and the scheduler (vm/system_monitor.cpp).
#include <mutex>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"
#include "vm/process.hpp"
#include "vm/system_monitor.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// erl's lower bounds: 1 ms for the times, and 16 Kwords ("not an unnatural heap size").
constexpr uint64_t MIN_TIME_MS = 1;
constexpr uint64_t MIN_LARGE_HEAP = 16384;

bool live_process(VM& vm, Term pid) {
    if (!is_pid(pid)) return false;
    Process* q = vm.procs.lookup(pid);
    if (!q) return false;
    bool alive = !(q->sched.state.load(std::memory_order_acquire) & run_state::EXITED);
    ProcessTable::release(q);
    return alive;
}

// A non-negative integer that fits 64 bits (erl's term_to_Uint).
bool to_uint(Term t, uint64_t& out) {
    if (is_small(t)) {
        if (small_value(t) < 0) return false;
        out = uint64_t(small_value(t));
        return true;
    }
    if (is_boxed_sub(t, Sub::PosBig) && big_limb_count(t) == 1) {
        out = big_limbs(t)[0];
        return true;
    }
    return false;
}

// The setting as system_monitor/0 reports it: undefined, or {Pid, Options}. A monitor that has
// died is forgotten here. Called with the mutex held.
Term current_locked(Process* p) {
    SystemMonitor& m = p->vm->sysmon;
    if (m.pid == NIL) return am::undefined;
    if (!live_process(*p->vm, m.pid)) {
        m.flags.store(0, std::memory_order_relaxed);
        m.pid = NIL;
        return am::undefined;
    }
    uint32_t f = m.flags.load(std::memory_order_relaxed);
    Term opts = NIL;
    auto add = [&](Term t) { opts = make_list_from(*p, &t, 1, opts); };
    if (m.long_gc) add(make_tuple(*p, {atom("long_gc"), make_integer_u(*p, m.long_gc)}));
    if (m.long_schedule) add(make_tuple(*p, {atom("long_schedule"), make_integer_u(*p, m.long_schedule)}));
    if (m.large_heap) add(make_tuple(*p, {atom("large_heap"), make_integer_u(*p, m.large_heap)}));
    if (f & sysmon_flag::BUSY_PORT) add(atom("busy_port"));
    if (f & sysmon_flag::BUSY_DIST_PORT) add(atom("busy_dist_port"));
    return make_tuple(*p, {m.pid, opts});
}

void clear_locked(SystemMonitor& m) {
    m.flags.store(0, std::memory_order_relaxed);
    m.pid = NIL;
    m.long_gc = m.long_schedule = m.large_heap = 0;
}

Term set_monitor(Process* p, Term pid, Term options) {
    SystemMonitor& m = p->vm->sysmon;
    if (pid == am::undefined || options == NIL) {
        std::lock_guard lock(m.mutex);
        Term prev = current_locked(p);
        clear_locked(m);
        return prev;
    }
    if (!is_list(options) || !live_process(*p->vm, pid)) return p->badarg();
    uint64_t long_gc = 0, long_schedule = 0, large_heap = 0;
    uint32_t flags = 0;
    Term l = options;
    for (; is_list(l); l = tail(l)) {
        Term o = head(l);
        if (o == atom("busy_port")) {
            flags |= sysmon_flag::BUSY_PORT;
        } else if (o == atom("busy_dist_port")) {
            flags |= sysmon_flag::BUSY_DIST_PORT;
        } else if (is_tuple(o) && tuple_arity(o) == 2) {
            Term key = tuple_elem(o, 0);
            uint64_t v;
            if (!to_uint(tuple_elem(o, 1), v)) return p->badarg();
            if (key == atom("long_gc")) long_gc = std::max(v, MIN_TIME_MS);
            else if (key == atom("long_schedule")) long_schedule = std::max(v, MIN_TIME_MS);
            else if (key == atom("large_heap")) large_heap = std::max(v, MIN_LARGE_HEAP);
            else return p->badarg();
        } else {
            return p->badarg();
        }
    }
    if (l != NIL) return p->badarg();
    if (long_gc) flags |= sysmon_flag::LONG_GC;
    if (long_schedule) flags |= sysmon_flag::LONG_SCHEDULE;
    if (large_heap) flags |= sysmon_flag::LARGE_HEAP;
    std::lock_guard lock(m.mutex);
    Term prev = current_locked(p);
    m.pid = pid;
    m.long_gc = long_gc;
    m.long_schedule = long_schedule;
    m.large_heap = large_heap;
    m.flags.store(flags, std::memory_order_relaxed);
    return prev;
}

// erlang:system_monitor() -> undefined | {MonitorPid, Options}.
Term system_monitor_0(Process* p, const Term*) {
    std::lock_guard lock(p->vm->sysmon.mutex);
    return current_locked(p);
}

// erlang:system_monitor(undefined | {MonitorPid, Options}) -> previous setting.
Term system_monitor_1(Process* p, const Term* a) {
    if (a[0] == am::undefined) return set_monitor(p, am::undefined, NIL);
    if (is_tuple(a[0]) && tuple_arity(a[0]) == 2) return set_monitor(p, tuple_elem(a[0], 0), tuple_elem(a[0], 1));
    return p->badarg();
}

// erlang:system_monitor(MonitorPid, Options) -> previous setting.
Term system_monitor_2(Process* p, const Term* a) { return set_monitor(p, a[0], a[1]); }

constexpr BifSpec table[] = {
    {"erlang", "system_monitor", 0, &system_monitor_0},
    {"erlang", "system_monitor", 1, &system_monitor_1},
    {"erlang", "system_monitor", 2, &system_monitor_2},
};

}  // namespace

std::span<const BifSpec> system_monitor_bifs() { return table; }

}  // namespace beam

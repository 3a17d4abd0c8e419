// What the system monitor and the system profiler are told (vm/system_monitor.hpp), in the
// shapes erl gives them (erl_trace.c monitor_long_gc, monitor_large_heap,
// monitor_long_schedule_proc, profile_runnable_proc, profile_scheduler).
#include "vm/system_monitor.hpp"

#include <chrono>
#include <initializer_list>
#include <thread>
#include <utility>
#include <vector>

#include "bifs/bif_util.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/signals.hpp"
#include "vm/bignum.hpp"
#include "vm/clocks.hpp"
#include "vm/ext_term.hpp"
#include "vm/heap.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/trace.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

bool process_alive(VM& vm, Term pid) {
    Process* q = vm.procs.lookup(pid);
    if (!q) return false;
    bool alive = !(q->sched.state.load(std::memory_order_acquire) & run_state::EXITED);
    ProcessTable::release(q);
    return alive;
}

// Sends `msg` about `about` to the monitor; forgets a monitor that has died. Messages about
// the monitor itself are dropped, as erl's system message dispatcher drops them.
void tell_monitor(VM& vm, Term about, Term msg) {
    SystemMonitor& m = vm.sysmon;
    std::lock_guard lock(m.mutex);
    if (m.pid == NIL || m.pid == about) return;
    if (!process_alive(vm, m.pid)) {
        m.flags.store(0, std::memory_order_relaxed);
        m.pid = NIL;
        return;
    }
    post_message(vm, m.pid, msg);
}

// [{Tag, Value}...] in the given order.
Term tagged_list(TermAllocator& a, std::initializer_list<std::pair<const char*, uint64_t>> items) {
    std::vector<Term> elems;
    for (auto& [tag, value] : items) elems.push_back(make_tuple(a, {atom(tag), make_integer_u(a, value)}));
    return make_list_from(a, elems.data(), elems.size());
}

// The heap figures erl reports with long_gc and large_heap, in words.
Term heap_info(TermAllocator& a, const Process* p, bool with_timeout, uint64_t timeout) {
    uint64_t old_block = p->old_heap ? uint64_t(p->old_hend - p->old_heap) : 0;
    uint64_t old_used = p->old_heap ? uint64_t(p->old_htop - p->old_heap) : 0;
    uint64_t block = uint64_t(p->hend - p->heap), used = uint64_t(p->htop - p->heap);
    uint64_t stack = uint64_t(p->hend - p->stop), mbuf = p->fragment_words;
    if (with_timeout)
        return tagged_list(a, {{"timeout", timeout}, {"old_heap_block_size", old_block}, {"heap_block_size", block},
                               {"mbuf_size", mbuf}, {"stack_size", stack}, {"old_heap_size", old_used},
                               {"heap_size", used}});
    return tagged_list(a, {{"old_heap_block_size", old_block}, {"heap_block_size", block}, {"mbuf_size", mbuf},
                           {"stack_size", stack}, {"old_heap_size", old_used}, {"heap_size", used}});
}

Term mfa_at(VM& vm, TermAllocator& a, const void* pc) {
    const Word* at = static_cast<const Word*>(pc);
    if (!at) return NON_VALUE;
    if (ModuleCode* mc = vm.code_at(at))
        if (const FunctionInfo* fi = mc->function_at(at))
            return make_tuple(a, {mc->name, fi->name, make_small(SWord(fi->arity))});
    return NON_VALUE;
}

// Sends `msg` to the profiler; forgets a profiler that has died. Called with the mutex held
// so that the profiler gets the events in the order they happened.
void tell_profiler_locked(VM& vm, Term msg) {
    SystemProfile& sp = vm.sysprof;
    Term to = sp.profiler;
    if (is_pid(to) && process_alive(vm, to)) {
        post_message(vm, to, msg);
    } else if (is_port(to) && port_is_open(vm, to)) {
        std::vector<uint8_t> bytes;
        if (encode_external(msg, bytes, {.node = &vm.node})) port_command(vm, to, bytes.data(), bytes.size());
    } else {
        sp.flags.store(0, std::memory_order_relaxed);
        sp.profiler = NIL;
    }
}

}  // namespace

uint32_t sysmon_gc_flags(const Process* p) {
    if (!p->vm) return 0;
    return p->vm->sysmon.flags.load(std::memory_order_relaxed) & (sysmon_flag::LONG_GC | sysmon_flag::LARGE_HEAP);
}

void sysmon_after_gc(Process* p, int64_t start_ns) {
    VM& vm = *p->vm;
    uint64_t long_gc, large_heap;
    {
        std::lock_guard lock(vm.sysmon.mutex);
        long_gc = vm.sysmon.long_gc;
        large_heap = vm.sysmon.large_heap;
    }
    if (long_gc && start_ns) {
        if (uint64_t sleep = vm.sysmon.test_long_gc_sleep_ms.load(std::memory_order_relaxed))
            std::this_thread::sleep_for(std::chrono::milliseconds(sleep));
        uint64_t ms = uint64_t(monotonic_ns() - start_ns) / 1'000'000;
        if (ms > long_gc) {
            LiteralArea scratch;
            tell_monitor(vm, p->pid, make_tuple(scratch, {atom("monitor"), p->pid, atom("long_gc"),
                                                          heap_info(scratch, p, true, ms)}));
        }
    }
    if (large_heap) {
        uint64_t size = uint64_t(p->hend - p->heap) + (p->old_heap ? uint64_t(p->old_hend - p->old_heap) : 0);
        if (size >= large_heap) {
            LiteralArea scratch;
            tell_monitor(vm, p->pid, make_tuple(scratch, {atom("monitor"), p->pid, atom("large_heap"),
                                                          heap_info(scratch, p, false, 0)}));
        }
    }
}

void sysmon_after_slice(Process* p, int64_t ns, const void* in_pc, const void* out_pc) {
    VM& vm = *p->vm;
    uint64_t limit;
    {
        std::lock_guard lock(vm.sysmon.mutex);
        limit = vm.sysmon.long_schedule;
    }
    uint64_t ms = uint64_t(ns) / 1'000'000;
    if (!limit || ms <= limit) return;
    LiteralArea scratch;
    Term in = mfa_at(vm, scratch, in_pc), out = mfa_at(vm, scratch, out_pc);
    Term info[] = {make_tuple(scratch, {atom("timeout"), make_integer_u(scratch, ms)}),
                   make_tuple(scratch, {atom("in"), is_value(in) ? in : am::undefined}),
                   make_tuple(scratch, {atom("out"), is_value(out) ? out : am::undefined})};
    tell_monitor(vm, p->pid, make_tuple(scratch, {atom("monitor"), p->pid, atom("long_schedule"),
                                                  make_list_from(scratch, info, 3)}));
}

void sysmon_busy_port(Process* p, Term port) {
    LiteralArea scratch;
    tell_monitor(*p->vm, p->pid, make_tuple(scratch, {atom("monitor"), p->pid, atom("busy_port"), port}));
}

namespace {

void report_process(Process* p, bool active, bool woken, bool exiting) {
    VM& vm = *p->vm;
    SystemProfile& sp = vm.sysprof;
    std::lock_guard lock(sp.mutex);
    if (!(sp.flags.load(std::memory_order_relaxed) & profile_flag::RUNNABLE_PROCS)) return;
    uint32_t state = sp.generation << 1 | (active ? 1 : 0);
    if (p->profile_state >> 1 == sp.generation) {
        if (p->profile_state == state) return;  // no change
    } else if (active && !woken) {
        // First seen in this session, runnable all along: already active, nothing to report.
        p->profile_state = state;
        return;
    }
    p->profile_state = state;
    if (sp.profiler == p->pid) return;  // the profiler is not profiled
    LiteralArea scratch;
    Term where = exiting ? NON_VALUE : mfa_at(vm, scratch, p->pc);
    Term ts = trace_timestamp(scratch, sp.timestamp);
    tell_profiler_locked(vm, make_tuple(scratch, {atom("profile"), p->pid, active ? atom("active") : atom("inactive"),
                                                  is_value(where) ? where : make_small(0), ts}));
}

}  // namespace

void profile_process(Process* p, bool active, bool woken) { report_process(p, active, woken, false); }

void profile_process_exit(Process* p) { report_process(p, false, false, true); }

void profile_scheduler(VM& vm, int id, bool active) {
    SystemProfile& sp = vm.sysprof;
    std::lock_guard lock(sp.mutex);
    if (!(sp.flags.load(std::memory_order_relaxed) & profile_flag::SCHEDULER)) return;
    sp.active_schedulers += active ? 1 : -1;
    LiteralArea scratch;
    Term ts = trace_timestamp(scratch, sp.timestamp);
    tell_profiler_locked(vm, make_tuple(scratch, {atom("profile"), atom("scheduler"), make_small(id),
                                                  active ? atom("active") : atom("inactive"),
                                                  make_small(sp.active_schedulers), ts}));
}

}  // namespace beam

// Suspending processes: see scheduler/suspend.hpp.
#include "scheduler/suspend.hpp"

#include <algorithm>

#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/vm.hpp"

namespace beam {
namespace {

std::vector<SuspendEntry>::iterator entry_for(Process* p, Term target) {
    auto& v = p->sched.suspending;
    return std::find_if(v.begin(), v.end(), [&](const SuspendEntry& e) { return e.pid == target; });
}

// Takes `n` suspensions off q, and lets it run again when none is left.
void unsuspend(VM& vm, Process* q, uint32_t n) {
    uint32_t before = q->sched.suspend_count.fetch_sub(n, std::memory_order_acq_rel);
    if (before == n && vm.scheds) vm.scheds->activate(q);
}

// Once borrowed, q is not running, and with its count above 0 no scheduler runs its code.
void wait_until_stopped(VM& vm, Process* q) {
    if (vm.scheds && vm.scheds->borrow(q)) vm.scheds->give_back(q, false);
}

}  // namespace

SuspendOutcome suspend_process(VM& vm, Process* p, Term target, bool unless_suspending, bool wait) {
    auto it = entry_for(p, target);
    Process* q = vm.procs.lookup(target);
    if (!q) return SuspendOutcome::NoProcess;
    if (unless_suspending && it != p->sched.suspending.end()) {
        // Synchronous: the earlier (perhaps asynchronous) suspension has taken effect on return.
        if (wait) {
            wait_until_stopped(vm, q);
            std::lock_guard lock(p->sched.info_mutex);
            it->active = true;
        }
        ProcessTable::release(q);
        return SuspendOutcome::AlreadySuspending;
    }
    q->sched.suspend_count.fetch_add(1, std::memory_order_acq_rel);
    {
        std::lock_guard lock(p->sched.info_mutex);
        if (it != p->sched.suspending.end()) ++it->count;
        else it = p->sched.suspending.insert(p->sched.suspending.end(), SuspendEntry{target, 1, false});
    }
    if (wait) {
        wait_until_stopped(vm, q);
        std::lock_guard lock(p->sched.info_mutex);
        it->active = true;
    }
    ProcessTable::release(q);
    return SuspendOutcome::Suspended;
}

bool resume_process(VM& vm, Process* p, Term target) {
    auto it = entry_for(p, target);
    if (it == p->sched.suspending.end()) return false;
    Process* q = vm.procs.lookup(target);
    {
        std::lock_guard lock(p->sched.info_mutex);
        if (!q || --it->count == 0) p->sched.suspending.erase(it);
    }
    if (!q) return false;  // it has exited: the suspension went with it, as erts' monitor does
    unsuspend(vm, q, 1);
    ProcessTable::release(q);
    return true;
}

bool suspension_active(VM& vm, const SuspendEntry& e) {
    if (e.active) return true;
    Process* q = vm.procs.lookup(e.pid);
    if (!q) return true;
    bool running = q->sched.state.load(std::memory_order_acquire) & run_state::RUNNING;
    ProcessTable::release(q);
    return !running;
}

void release_suspensions(VM& vm, Process* p) {
    if (p->sched.suspending.empty()) return;  // owner-only list: no lock needed to read it here
    std::vector<SuspendEntry> held;
    {
        std::lock_guard lock(p->sched.info_mutex);
        held.swap(p->sched.suspending);
    }
    for (const SuspendEntry& e : held) {
        if (Process* q = vm.procs.lookup(e.pid)) {
            unsuspend(vm, q, e.count);
            ProcessTable::release(q);
        }
    }
}

}  // namespace beam

// Suspending processes: see scheduler/suspend.hpp.
#include "scheduler/suspend.hpp"

#include <algorithm>

#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/vm.hpp"

namespace beam {
namespace {

std::vector<std::pair<Term, uint32_t>>::iterator entry_for(Process* p, Term target) {
    auto& v = p->sched.suspending;
    return std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.first == target; });
}

// Takes `n` suspensions off q, and lets it run again when none is left.
void unsuspend(VM& vm, Process* q, uint32_t n) {
    uint32_t before = q->sched.suspend_count.fetch_sub(n, std::memory_order_acq_rel);
    if (before == n && vm.scheds) vm.scheds->activate(q);
}

}  // namespace

SuspendOutcome suspend_process(VM& vm, Process* p, Term target, bool unless_suspending, bool wait) {
    auto it = entry_for(p, target);
    if (unless_suspending && it != p->sched.suspending.end()) return SuspendOutcome::AlreadySuspending;
    Process* q = vm.procs.lookup(target);
    if (!q) return SuspendOutcome::NoProcess;
    q->sched.suspend_count.fetch_add(1, std::memory_order_acq_rel);
    {
        std::lock_guard lock(p->sched.info_mutex);
        if (it != p->sched.suspending.end()) ++it->second;
        else p->sched.suspending.emplace_back(target, 1);
    }
    // Once borrowed, q is not running, and with its count above 0 no scheduler runs its code.
    if (wait && vm.scheds && vm.scheds->borrow(q)) vm.scheds->give_back(q, false);
    ProcessTable::release(q);
    return SuspendOutcome::Suspended;
}

bool resume_process(VM& vm, Process* p, Term target) {
    auto it = entry_for(p, target);
    if (it == p->sched.suspending.end()) return false;
    Process* q = vm.procs.lookup(target);
    {
        std::lock_guard lock(p->sched.info_mutex);
        if (!q || --it->second == 0) p->sched.suspending.erase(it);
    }
    if (!q) return false;  // it has exited: the suspension went with it, as erts' monitor does
    unsuspend(vm, q, 1);
    ProcessTable::release(q);
    return true;
}

void release_suspensions(VM& vm, Process* p) {
    std::vector<std::pair<Term, uint32_t>> held;
    {
        std::lock_guard lock(p->sched.info_mutex);
        held.swap(p->sched.suspending);
    }
    for (auto& [target, n] : held) {
        if (Process* q = vm.procs.lookup(target)) {
            unsuspend(vm, q, n);
            ProcessTable::release(q);
        }
    }
}

}  // namespace beam

#include "vm/literal_release.hpp"

#include <mutex>

#include "scheduler/signals.hpp"
#include "vm/code_use.hpp"
#include "vm/gc.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

constexpr int BORROW_ATTEMPTS = 50;  // as a purge: each retry lets the process end its slice

// Copies what `q` holds of `area` onto its heap. False if q could not be looked at.
bool copy_out_of(VM& vm, Process* q, const LiteralArea& area) {
    if (q->sched.dirty.load(std::memory_order_acquire) != 0) return false;  // in a dirty NIF
    bool borrowed = false;
    for (int i = 0; i < BORROW_ATTEMPTS && !borrowed; ++i) {
        if (q->sched.state.load(std::memory_order_acquire) & run_state::EXITED) return true;
        borrowed = vm.scheds->borrow(q);
    }
    if (!borrowed) return (q->sched.state.load(std::memory_order_acquire) & run_state::EXITED) != 0;
    SignalResult sr = handle_signals(vm, q);
    if (sr.exit) {
        vm.scheds->exit_borrowed(q, sr.reason);
        return true;
    }
    if (holds_literals(q, area, q->saved_x.data(), q->arity))
        garbage_collect_literals(q, q->saved_x.data(), q->arity, area);
    vm.scheds->give_back(q, sr.new_messages > 0 || q->timed_out || sr.system_tasks);
    return true;
}

}  // namespace

namespace {

void release_one(Process* self, Term* x, unsigned live, std::unique_ptr<LiteralArea> area) {
    VM& vm = *self->vm;
    if (holds_literals(self, *area, x, live)) garbage_collect_literals(self, x, live, *area);
    bool all = true;
    if (vm.scheds) {
        for (Term pid : vm.procs.pids()) {
            if (pid == self->pid) continue;
            Process* q = vm.procs.lookup(pid);
            if (!q) continue;
            all = copy_out_of(vm, q, *area) && all;
            ProcessTable::release(q);
        }
    }
    if (all) return;  // `area` is freed here
    std::unique_lock lock(vm.persistent.mutex);
    vm.persistent.retained.push_back(std::move(area));
}

}  // namespace

void release_literal_area(Process* self, Term* x, unsigned live, std::unique_ptr<LiteralArea> area) {
    if (!area) return;
    PersistentTerms& s = self->vm->persistent;
    {
        std::unique_lock lock(s.mutex);
        if (s.releasing) {  // another process is looking at every process: this one is kept
            s.retained.push_back(std::move(area));
            return;
        }
        s.releasing = true;
    }
    release_one(self, x, live, std::move(area));
    std::unique_lock lock(s.mutex);
    s.releasing = false;
}

}  // namespace beam

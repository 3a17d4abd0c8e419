// Looking at another process where it stands: borrowed from the schedulers between two of its
// time slices, its pending signals taken in first, then given back (code purges,
// check_process_code, literal releases). A function of the header so each caller's look is
// inlined.
#pragma once

#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

namespace beam {

enum class Visit {
    Looked,       // `look` ran
    Gone,         // q had exited, or its signals ended it
    Unreachable,  // q runs a dirty NIF, or stayed busy through every attempt
};

// `look(q)` runs while q is borrowed (its live x registers in q->saved_x, q->arity of them);
// it returns NON_VALUE to give q back, or a reason to end q with instead.
template <class Look>
Visit visit_borrowed(VM& vm, Process* q, Look look) {
    // Borrowing gives up after a while when q stays busy (it may itself be inside a long BIF,
    // or borrowing us). Each retry lets it reach the end of its time slice.
    constexpr int ATTEMPTS = 50;
    // A process executing a dirty NIF is not borrowed before the NIF returns, which may take
    // any time.
    if (q->sched.dirty.load(std::memory_order_acquire) != 0) return Visit::Unreachable;
    auto exited = [&] { return (q->sched.state.load(std::memory_order_acquire) & run_state::EXITED) != 0; };
    bool borrowed = false;
    for (int i = 0; i < ATTEMPTS && !borrowed; ++i) {
        if (exited()) return Visit::Gone;
        borrowed = vm.scheds->borrow(q);
    }
    if (!borrowed) return exited() ? Visit::Gone : Visit::Unreachable;
    SignalResult sr = handle_signals(vm, q);
    if (sr.exit) {
        vm.scheds->exit_borrowed(q, sr.reason);  // it is gone, as it would be once it ran
        return Visit::Gone;
    }
    Term end = look(q);
    if (is_value(end)) vm.scheds->exit_borrowed(q, end);
    else vm.scheds->give_back(q, sr.new_messages > 0 || q->timed_out || sr.system_tasks);
    return Visit::Looked;
}

}  // namespace beam

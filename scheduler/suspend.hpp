// Suspending processes (erlang:suspend_process/1,2, erlang:resume_process/1; OTP:
// erl_process.c, erts_internal_suspend_process_2). A suspender keeps, per process it has
// suspended, how many times (suspensions nest); the suspended process keeps the total over
// all suspenders. While that total is above 0 the process takes in its signals (an exit
// signal still ends it) but runs no code; a wake-up that arrives meanwhile (a message, a
// timeout) is kept for when it is resumed. A suspender's suspensions end when it exits.
#pragma once

#include "vm/process.hpp"

namespace beam {

class VM;

enum class SuspendOutcome {
    Suspended,          // the count went up (it was already suspended by the caller, or now is)
    AlreadySuspending,  // unless_suspending, and the caller already suspends it: unchanged
    NoProcess,          // no such live process
};

// `wait`: return only once the target is not running (erts' synchronous suspend); it borrows
// the target from the schedulers for a moment, as process_info does.
SuspendOutcome suspend_process(VM& vm, Process* suspender, Term target, bool unless_suspending, bool wait);

// One suspension fewer; false when the caller does not suspend a live `target`.
bool resume_process(VM& vm, Process* suspender, Term target);

// Whether a suspension has taken effect: a synchronous suspend saw the target stopped, or the
// target is not executing now. Until then it is outstanding, as erts reports an asynchronous
// suspend the target has not acted on (process_info(Suspender, suspending)).
bool suspension_active(VM& vm, const SuspendEntry& e);

// At the suspender's exit: every suspension it holds ends.
void release_suspensions(VM& vm, Process* suspender);

}  // namespace beam

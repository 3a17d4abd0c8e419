// erl's +sbwt (scheduler busy wait threshold): how long an idle scheduler looks for work
// before it sleeps (Schedulers::spin). Set from the command line before the schedulers start.
#pragma once

namespace beam {

enum class BusyWait { None, VeryShort, Short, Medium, Long, VeryLong };

// Longest spin for each level, in nanoseconds, for `vm`'s schedulers (EmulatorOptions::
// busy_wait_ns); medium (erl's default) is beamvm's 50 us. None: an idle scheduler sleeps at once.
class VM;
void set_scheduler_busy_wait(VM& vm, BusyWait level);

}  // namespace beam

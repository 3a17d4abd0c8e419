// erl's +sbwt (scheduler busy wait threshold): how long an idle scheduler looks for work
// before it sleeps (Schedulers::spin). Set from the command line before the schedulers start.
#pragma once

namespace beam {

enum class BusyWait { None, VeryShort, Short, Medium, Long, VeryLong };

// Longest spin for each level, in nanoseconds; medium (erl's default) is beamvm's 50 us.
// None: an idle scheduler sleeps at once.
void set_scheduler_busy_wait(BusyWait level);
long long scheduler_busy_wait_ns();

}  // namespace beam

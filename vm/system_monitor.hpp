// erlang:system_monitor/1,2 and erlang:system_profile/2: one process (or port, for the
// profiler) told about events across the whole system: long garbage collections, long time
// slices, large heaps and busy ports ({monitor, Who, What, Info}), and processes and
// schedulers becoming active or inactive ({profile, ...}).
//
// No cost when off: the GC, the scheduler and the exit path test one atomic word of flags
// (relaxed) and do nothing else while it is zero. The settings behind the flags change under a
// mutex. A monitor or profiler that has died is forgotten the next time it would be told
// something or is asked about, as erl forgets it when it exits.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "vm/term.hpp"

namespace beam {

class Process;
class VM;

namespace sysmon_flag {
inline constexpr uint32_t LONG_GC = 1;
inline constexpr uint32_t LARGE_HEAP = 2;
inline constexpr uint32_t LONG_SCHEDULE = 4;
inline constexpr uint32_t BUSY_PORT = 8;
inline constexpr uint32_t BUSY_DIST_PORT = 16;
}  // namespace sysmon_flag

struct SystemMonitor {
    std::atomic<uint32_t> flags{0};
    std::mutex mutex;  // guards what follows
    Term pid = NIL;    // the monitor process; NIL when none
    uint64_t long_gc = 0, long_schedule = 0, large_heap = 0;  // ms, ms, words
    // erts_debug:set_internal_state(test_long_gc_sleep, Ms): OTP's test hook that makes every
    // collection take Ms longer. beamvm sleeps only in collections long_gc is timing.
    std::atomic<uint64_t> test_long_gc_sleep_ms{0};
};

namespace profile_flag {
inline constexpr uint32_t RUNNABLE_PROCS = 1;
inline constexpr uint32_t RUNNABLE_PORTS = 2;
inline constexpr uint32_t SCHEDULER = 4;
inline constexpr uint32_t EXCLUSIVE = 8;
}  // namespace profile_flag

struct SystemProfile {
    std::atomic<uint32_t> flags{0};
    std::mutex mutex;         // guards what follows, and orders the messages it sends
    Term profiler = NIL;      // pid or port; NIL when none
    uint32_t timestamp = 0;   // trace_flag:: timestamp kind of the messages
    int active_schedulers = 0;
    uint32_t generation = 0;  // moves on at each system_profile/2 (Process::profile_state)
};

// The system_monitor flags the GC looks at (long_gc, large_heap), 0 when off.
uint32_t sysmon_gc_flags(const Process* p);
// The GC (vm/gc.cpp) after a collection of `p` that started at `start_ns` (monotonic; 0 if
// long_gc was off when it started).
void sysmon_after_gc(Process* p, int64_t start_ns);
// A time slice of `p` that took `ns` (scheduler/scheduler.cpp), with where it was scheduled
// in and out (pc values; null if unknown).
void sysmon_after_slice(Process* p, int64_t ns, const void* in_pc, const void* out_pc);
// `p` was suspended on the busy port `port`.
void sysmon_busy_port(Process* p, Term port);

// runnable_procs: `p` runs again after waiting (active; `woken`: it waited for a message, as
// opposed to having been runnable all along), waits with nothing to do, or exits (inactive).
// Called by whoever runs `p`; repeated states are not reported twice, and a process that was
// already runnable when profiling began counts as active without a report, as on erl.
void profile_process(Process* p, bool active, bool woken = true);
// The same for a process that exits: inactive, at no function (erl reports 0).
void profile_process_exit(Process* p);
// scheduler: scheduler `id` (1-based) goes to sleep or wakes up.
void profile_scheduler(VM& vm, int id, bool active);

}  // namespace beam

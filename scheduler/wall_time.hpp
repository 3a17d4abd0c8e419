// statistics(scheduler_wall_time): how long each scheduler thread has been busy.
//
// Each scheduler thread (normal or dirty) owns a BusyClock and marks its own transitions:
// a normal scheduler goes idle when it finds no process to run (before it spins or sleeps)
// and busy again when it takes one; a dirty thread is busy while it runs a dirty step. Only
// those transitions read the clock, so a scheduler that keeps finding work pays nothing.
//
// The measurement is enabled per process, as in erts: system_flag(scheduler_wall_time, true)
// counts one for the caller, false takes one back, and a process's counts go when it exits.
// While any process holds a count, statistics(scheduler_wall_time) gives, per scheduler,
// {Id, ActiveTime, TotalTime} in nanoseconds since the measurement was last switched on;
// otherwise `undefined`.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "vm/term.hpp"

namespace beam {

// One thread's busy time. Written by its thread only; read by any (a sequence lock keeps a
// reader from pairing the total of one busy period with the start of the next).
class BusyClock {
public:
    // The owning thread: busy from `now` (nothing if busy already).
    void busy(int64_t now) {
        if (since_.load(std::memory_order_relaxed) == 0) write(total_.load(std::memory_order_relaxed), now);
    }
    // The owning thread: idle from `now` (nothing if idle already).
    void idle(int64_t now) {
        int64_t since = since_.load(std::memory_order_relaxed);
        if (since != 0) write(total_.load(std::memory_order_relaxed) + (now - since), 0);
    }
    bool is_busy() const { return since_.load(std::memory_order_relaxed) != 0; }
    // Any thread: nanoseconds busy up to `now`, counted since the thread began.
    int64_t busy_ns(int64_t now) const;

private:
    void write(int64_t total, int64_t since);
    std::atomic<uint32_t> seq_{0};  // odd while the owner writes
    std::atomic<int64_t> total_{0};  // busy periods that have ended
    std::atomic<int64_t> since_{0};  // start of the current busy period; 0: idle
};

// Who has switched the measurement on, and where it started.
class WallTimeSwitch {
public:
    // system_flag(scheduler_wall_time, On) by `pid`: true if the measurement was on before.
    // `busy` gives every scheduler's busy_ns at `now`, as a baseline when it switches on.
    template <class BusyNow>
    bool set(Term pid, bool on, int64_t now, BusyNow busy);
    // An exiting process's counts go (exit_process calls it before links and monitors hear
    // of the exit, so no count outlives its process).
    void release(Term pid);
    // The baseline (start time and each scheduler's busy time then), if the measurement is on.
    struct Start {
        int64_t at;
        std::vector<int64_t> busy;
    };
    std::optional<Start> start();

private:
    std::mutex mutex_;
    std::map<Word, int> counts_;  // pid -> switch-ons not yet taken back
    std::atomic<bool> any_{false};
    Start start_;
};

template <class BusyNow>
bool WallTimeSwitch::set(Term pid, bool on, int64_t now, BusyNow busy) {
    std::lock_guard lock(mutex_);
    bool was_on = !counts_.empty();
    if (on) {
        ++counts_[pid.raw];
        if (!was_on) start_ = {now, busy(now)};
    } else if (auto it = counts_.find(pid.raw); it != counts_.end() && --it->second == 0) {
        counts_.erase(it);
    }
    any_.store(!counts_.empty(), std::memory_order_release);
    return was_on;
}

}  // namespace beam

// One scheduler (scheduler/scheduler.hpp): its thread, its run queues and how it sleeps.
// Private to scheduler.cpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <thread>

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "scheduler/scheduler.hpp"
#include "scheduler/wall_time.hpp"
#include "scheduler/word_lock.hpp"

namespace beam {

struct Schedulers::Scheduler {
    int index;
    std::thread thread;
    // The run queue's lock is taken twice per message passed (the receiver queued, then
    // taken): a WordLock's uncontended path is one compare-and-swap, std::mutex's a call.
    WordLock mutex;
    // A sleeping scheduler waits on this word (a futex); a waker changes it under `mutex`
    // and wakes the sleeper. Measured on svc_genserver_ets at +S 2 (perf, futex calls):
    // std::condition_variable_any, which this replaces, took its own internal mutex on both
    // sides, and that mutex's hand-off was 30% of the run's futex calls on top of the wake.
    std::atomic<uint32_t> wake_seq{0};
    std::deque<Process*> queues[4];  // max, high, normal, low
    // Processes in `queues`: changed under `mutex`, read without it by idle schedulers
    // looking for work while they spin (scheduler.cpp, next()).
    std::atomic<size_t> queued{0};
    void count_queued(long d) { queued.store(queued.load(std::memory_order_relaxed) + size_t(d), std::memory_order_release); }
    // Backlog measure for waking another scheduler (scheduler.cpp, count_backlog): written by
    // this scheduler's thread, read by enqueuers, reset by whoever wakes the other.
    std::atomic<int64_t> wakeup_other{0};
    // How many times the wakeup_other limit is doubled for this scheduler's backlog: set to
    // the maximum each time a process stolen from it came straight back (woken by a process
    // here), reset when one did a slice's worth of work with its thief (scheduler.hpp,
    // note_after_steal). It comes down one step per BACKOFF_DECAY_REDUCTIONS that this
    // scheduler runs, counted from `backoff_decay_at` (its `reductions` then).
    std::atomic<int> share_backoff{0};
    std::atomic<int64_t> backoff_decay_at{0};
    std::atomic<bool> running{false};  // inside run_one
    std::atomic<uint64_t> slices{0};    // run_one calls finished
    // Reductions of the slices this scheduler finished: written by it alone (a relaxed
    // load and store, no read-modify-write per slice), summed by total_reductions.
    std::atomic<int64_t> reductions{0};
    std::atomic<bool> in_barrier{false};  // in await_running_slices
    std::atomic<bool> spinning{false};  // idle, looking for work before it sleeps
    bool sleeping = false;    // under mutex
    bool wake_sent = false;   // under mutex: a waker has bumped wake_seq for this sleep
    bool steal_hint = false;  // woken because another scheduler has queued work
    bool rebalance = false;   // woken because the number of schedulers online changed
    unsigned low_credit = 0;  // lets low priority run now and then while normal is busy
    int64_t polled_ns = 0;    // when this scheduler last polled the scheduler pollset
    // What it had run when it last read the clock for that (Schedulers::poll_io).
    int64_t poll_check_reds = 0;
    unsigned poll_check_calls = 0;
    BusyClock busy;  // statistics(scheduler_wall_time): idle from finding no process until it takes one

    // The waker: with `mutex` held, after changing what the sleeper waits for. The futex
    // call itself may come after the lock is let go (wake_sleeper), so the woken thread does
    // not find the lock still held.
    void bump_locked() { wake_seq.fetch_add(1, std::memory_order_release); }
    void wake_sleeper() {
        syscall(SYS_futex, reinterpret_cast<uint32_t*>(&wake_seq), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    }
    // The sleeper, with `mutex` not held: returns when wake_seq is no longer `seen` (read
    // under `mutex` together with the state it waits on), or spuriously. A raw futex rather
    // than atomic::wait, which yields the thread a few times before it sleeps: the scheduler
    // has already spun (Schedulers::spin) by the time it gets here.
    void sleep_until_bumped(uint32_t seen) {
        syscall(SYS_futex, reinterpret_cast<uint32_t*>(&wake_seq), FUTEX_WAIT_PRIVATE, seen, nullptr, nullptr, 0);
    }
};

}  // namespace beam

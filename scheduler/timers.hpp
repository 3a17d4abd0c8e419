// Timers: receive ... after, erlang:send_after/start_timer. One timer thread per VM keeps a
// min-heap of live timers and sleeps on a condition variable until the earliest one (design notes
// §4 ask for a timer wheel per scheduler; a heap on its own thread is simpler and keeps timers
// exact while every scheduler is busy — see docs/architecture.md).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "scheduler/word_lock.hpp"
#include "vm/copy_term.hpp"
#include "vm/term.hpp"

namespace beam {

class VM;
class Namespace;

class TimerService {
public:
    using Clock = std::chrono::steady_clock;

    explicit TimerService(VM* vm);
    ~TimerService();
    void start();
    void stop();

    // A receive ... after: at expiry, a Timeout signal carrying the returned handle goes to
    // `pid`. The handle is what cancel() takes; it is never a reference number (bit 63 set).
    uint64_t start_receive_timeout(Term pid, int64_t ms);
    // erlang:send_after / start_timer: at expiry, `msg` goes to `dest` (pid or registered name).
    // A registered-name `dest` is looked up in `ns` when the timer fires, as OTP does.
    // `id` is the timer reference's number.
    void start_message_timer(uint64_t id, Term dest, MessageBuffer msg, int64_t ms, const Namespace* ns);
    // Removes a timer (a reference number or a receive timeout's handle). Returns the
    // milliseconds that were left, or nullopt if it already fired or never existed.
    std::optional<int64_t> cancel(uint64_t id);
    // A receive timeout's end when its receive is over: as cancel, without the time left,
    // which costs a read of the clock (two per gen_server:call with this and the start).
    void cancel_receive_timeout(uint64_t handle);
    std::optional<int64_t> remaining(uint64_t id);
    // Cancels every message timer addressed to `pid` (it has exited).
    void cancel_for(Term pid);
    // Message timers (send_after, start_timer) not yet fired or cancelled, and the bytes each
    // holds (its slot), for erts' bif_timer allocation figures.
    size_t message_timer_count();
    static size_t message_timer_bytes();

private:
    // Timers live in slots that are reused (no allocation per timer), ordered by a min-heap
    // of slot numbers in which each slot knows its position, so a cancelled timer leaves the
    // heap at once. With a heap that only kept deadlines, every cancelled receive timeout
    // stayed until its deadline: a gen_server client's 5-second call timeouts piled up to
    // hundreds of thousands of entries, and pushing onto that heap was 2.4-3.9% of
    // bench/real/svc_genserver_ets at +S 1 (perf), the whole timer service 8%.
    static constexpr uint32_t NO_POS = ~0u;
    struct Slot {
        Clock::time_point deadline;
        Term dest = NIL;
        bool receive_timeout = false;
        bool live = false;
        uint32_t generation = 0;   // bumped on each reuse: a stale handle finds no timer
        uint32_t heap_pos = NO_POS;
        uint64_t ref = 0;           // a message timer's reference number
        MessageBuffer msg;
        const Namespace* ns = nullptr;  // where a registered-name `dest` is looked up
    };
    static constexpr uint64_t HANDLE_BIT = uint64_t(1) << 63;

    uint32_t new_slot(Clock::time_point deadline, Term dest);  // caller holds mutex_
    void free_slot(uint32_t i);                                // caller holds mutex_, not in heap
    Slot* find(uint64_t id, uint32_t& index);                  // caller holds mutex_
    void remove(uint32_t i);                                   // out of the heap, slot freed
    void heap_push(uint32_t i);
    void heap_erase(uint32_t pos);
    void sift_up(uint32_t pos);
    void sift_down(uint32_t pos);
    bool earlier(uint32_t a, uint32_t b) const { return slots_[a].deadline < slots_[b].deadline; }
    void place(uint32_t pos, uint32_t i) {
        heap_[pos] = i;
        slots_[i].heap_pos = pos;
    }
    void loop();
    void forget_dest(Term dest, uint64_t ref);  // caller holds mutex_
    void fire(uint64_t id, Slot& e);

    VM* vm_;
    // Held for a slot and heap update: schedulers starting and cancelling timers at once
    // (a gen_statem timeout per call) met here, and std::mutex sleeps at the first
    // contention (a tenth of a TLS echo's futex calls); a WordLock spins a little first.
    WordLock mutex_;
    std::condition_variable_any cv_;
    std::vector<Slot> slots_;
    std::vector<uint32_t> free_;
    std::vector<uint32_t> heap_;                     // slot numbers, earliest deadline first
    std::unordered_map<uint64_t, uint32_t> by_ref_;  // message timers: reference number -> slot
    std::unordered_multimap<Term, uint64_t> by_pid_;  // message timers addressed to a pid
    // by_pid_.size(), read without the lock: a process that exits while no message timer is
    // addressed to any pid (the usual case) does not take the timer lock.
    std::atomic<size_t> pid_timers_{0};
    std::thread thread_;
    bool stopping_ = false;
    // When the timer thread will look at the heap again by itself: the deadline it sleeps
    // until, max() while it waits for any timer, min() while it is awake. A new timer wakes
    // it only when due before that. (Notifying whenever a new timer became the earliest woke
    // the thread on almost every gen_server:call once cancelled timeouts left the heap.)
    Clock::time_point waiting_until_ = Clock::time_point::min();
};

}  // namespace beam

// statistics(scheduler_wall_time): busy clocks and the per-process switch (wall_time.hpp).
#include "scheduler/wall_time.hpp"

namespace beam {

void BusyClock::write(int64_t total, int64_t since) {
    uint32_t s = seq_.load(std::memory_order_relaxed);
    seq_.store(s + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    total_.store(total, std::memory_order_relaxed);
    since_.store(since, std::memory_order_relaxed);
    seq_.store(s + 2, std::memory_order_release);
}

int64_t BusyClock::busy_ns(int64_t now) const {
    for (;;) {
        uint32_t s = seq_.load(std::memory_order_acquire);
        if (s & 1) continue;
        int64_t total = total_.load(std::memory_order_relaxed);
        int64_t since = since_.load(std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (seq_.load(std::memory_order_relaxed) != s) continue;
        // A period that began after `now` was read has not counted yet.
        return since != 0 && now > since ? total + (now - since) : total;
    }
}

void WallTimeSwitch::release(Term pid) {
    if (!any_.load(std::memory_order_acquire)) return;
    std::lock_guard lock(mutex_);
    counts_.erase(pid.raw);
    any_.store(!counts_.empty(), std::memory_order_release);
}

std::optional<WallTimeSwitch::Start> WallTimeSwitch::start() {
    if (!any_.load(std::memory_order_acquire)) return std::nullopt;
    std::lock_guard lock(mutex_);
    if (counts_.empty()) return std::nullopt;
    return start_;
}

}  // namespace beam

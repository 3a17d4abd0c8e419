// A mutex in one 32-bit word, for locks that every process carries (its signal queue, its
// process_info lock). std::mutex is 40 bytes on Linux; two of them were 80 of the bytes an
// idle process costs (issue 11). Contention on these locks is short (a push, a swap, a copy
// of a few fields), so a short spin comes before sleeping.
//
// States: 0 free, 1 held, 2 held and someone may sleep on it. The sleeping side uses C++20's
// atomic wait (a futex on Linux); unlock wakes one sleeper only when the state says there may
// be one, so an uncontended lock/unlock is one compare-and-swap and one exchange.
#pragma once

#include <atomic>
#include <cstdint>

namespace beam {

class WordLock {
public:
    WordLock() = default;
    WordLock(const WordLock&) = delete;
    WordLock& operator=(const WordLock&) = delete;

    void lock() {
        uint32_t expected = 0;
        if (state_.compare_exchange_strong(expected, 1, std::memory_order_acquire)) [[likely]] return;
        lock_slow();
    }
    bool try_lock() {
        uint32_t expected = 0;
        return state_.compare_exchange_strong(expected, 1, std::memory_order_acquire);
    }
    void unlock() {
        if (state_.exchange(0, std::memory_order_release) == 2) state_.notify_one();
    }

private:
    [[gnu::noinline]] void lock_slow() {
        for (int i = 0; i < SPINS; ++i) {
            uint32_t expected = 0;
            if (state_.load(std::memory_order_relaxed) == 0 &&
                state_.compare_exchange_weak(expected, 1, std::memory_order_acquire))
                return;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        // Mark the lock contended; whoever holds it wakes one sleeper when it lets go.
        while (state_.exchange(2, std::memory_order_acquire) != 0) state_.wait(2, std::memory_order_relaxed);
    }

    static constexpr int SPINS = 64;
    std::atomic<uint32_t> state_{0};
};

}  // namespace beam

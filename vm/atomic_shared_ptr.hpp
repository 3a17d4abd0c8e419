// A shared_ptr that threads read and replace concurrently: what std::atomic<std::shared_ptr>
// offers, with a lock whose release orders the reader's copy before the next writer's store.
//
// Why not std::atomic<std::shared_ptr<T>>: libstdc++ 12's load() takes the lock bit in the
// count word with acquire but lets it go with memory_order_relaxed, so in the C++ memory model
// a reader's copy of the pointer and the next store race (ThreadSanitizer reports it, e.g.
// tests/conformance/trace_call_toggle.erl at +S 4: breakpoint_hit reading a match spec while
// trace_pattern/3 replaces it). Here the lock is an atomic flag taken with acquire and let
// go with release on every path; the critical section is a pointer copy and a count increment.
// The flags are a shared table chosen by the object's address (as libstdc++'s mutex pool for
// std::atomic_load of a shared_ptr), so the object stays the size of a shared_ptr (Process
// holds one and must fit its 768-byte allocation: tests/unit/gc_process_footprint.cpp).
// The replaced value is destroyed after the lock is let go (its destructor may free memory).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

namespace beam {

template <class T>
class AtomicSharedPtr {
public:
    AtomicSharedPtr() = default;
    AtomicSharedPtr(std::shared_ptr<T> p) : p_(std::move(p)) {}  // before it is shared
    AtomicSharedPtr(const AtomicSharedPtr&) = delete;
    AtomicSharedPtr& operator=(const AtomicSharedPtr&) = delete;

    std::shared_ptr<T> load(std::memory_order = std::memory_order_seq_cst) const {
        lock();
        std::shared_ptr<T> r = p_;
        unlock();
        return r;
    }
    void store(std::shared_ptr<T> v, std::memory_order = std::memory_order_seq_cst) {
        lock();
        p_.swap(v);
        unlock();
    }  // v, now the old value, is released here
    // As std::atomic's: replaces it with `desired` if it still holds expected's pointer, else
    // loads it into `expected`.
    bool compare_exchange_strong(std::shared_ptr<T>& expected, std::shared_ptr<T> desired,
                                 std::memory_order = std::memory_order_seq_cst) {
        lock();
        bool same = p_.get() == expected.get();
        if (same) p_.swap(desired);
        else expected = p_;
        unlock();
        return same;
    }  // desired, now the old value when it was swapped, is released here

private:
    struct alignas(64) Flag {
        std::atomic<bool> busy{false};
    };
    static inline Flag flags_[64];
    std::atomic<bool>& busy() const { return flags_[(reinterpret_cast<uintptr_t>(this) >> 4) % 64].busy; }
    void lock() const {
        while (busy().exchange(true, std::memory_order_acquire))
            while (busy().load(std::memory_order_relaxed)) {
#if defined(__x86_64__) || defined(__i386__)
                __builtin_ia32_pause();
#endif
            }
    }
    void unlock() const { busy().store(false, std::memory_order_release); }

    std::shared_ptr<T> p_;
};

}  // namespace beam

// The VM's clocks, shared by the time BIFs and trace timestamps.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace beam {

// erlang:monotonic_time/0 in nanoseconds. OTP's monotonic clock starts at a large negative
// value; any fixed offset is valid.
inline int64_t monotonic_ns() {
    using namespace std::chrono;
    static const int64_t start = duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
    return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count() - start -
           int64_t(576460752303423488LL);
}

inline int64_t system_ns() {
    using namespace std::chrono;
    return duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
}

// erlang:time_offset/0 in nanoseconds. The VM runs in no_time_warp mode (its time offset is
// `final`), where erts fixes the offset once, at start: read here on first use, so that every
// call (the BIFs' and enif_time_offset's) answers the same value, as on erl, instead of a
// difference of two clock readings taken a few nanoseconds apart.
inline int64_t time_offset_ns() {
    static const int64_t offset = system_ns() - monotonic_ns();
    return offset;
}

// erlang:now/0 in microseconds: unique and strictly increasing across the whole VM (OTP:
// get_now in erl_time_sup.c): a call in the same microsecond as the last one answers the last
// value + 1. Trace timestamps (the `timestamp` flag) use the same clock.
inline int64_t unique_now_us() {
    static std::atomic<int64_t> last{0};
    int64_t us = system_ns() / 1000;
    int64_t prev = last.load(std::memory_order_relaxed);
    int64_t next;
    do {
        next = us > prev ? us : prev + 1;
    } while (!last.compare_exchange_weak(prev, next, std::memory_order_relaxed));
    return next;
}

}  // namespace beam

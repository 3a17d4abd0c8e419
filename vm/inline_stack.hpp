// A LIFO stack whose first N items live in place (no allocation for the small terms most
// walks meet); it spills to the heap past that.
#pragma once

#include <cstddef>
#include <vector>

namespace beam {

template <class T, size_t N>
class InlineStack {
public:
    InlineStack() {}
    InlineStack(const InlineStack&) = delete;
    InlineStack& operator=(const InlineStack&) = delete;

    // The in-place paths stay small enough to inline into the walks; the spill paths do not
    // (out of line, GCC left push itself uninlined in make_hash2: 9% of a phash2 profile).
    void push(const T& x) {
        if (n_ < N) [[likely]] slots_.items[n_] = x;
        else spill(x);
        ++n_;
    }
    T pop() {
        --n_;
        if (n_ < N) [[likely]] return slots_.items[n_];
        return unspill();
    }
    bool empty() const { return n_ == 0; }

private:
    [[gnu::noinline]] void spill(const T& x) { spill_.push_back(x); }
    [[gnu::noinline]] T unspill() {
        T x = spill_.back();
        spill_.pop_back();
        return x;
    }

    // Left uninitialised: a slot is written before it is read.
    union Slots {
        Slots() {}
        T items[N];
    } slots_;
    size_t n_ = 0;
    std::vector<T> spill_;
};

}  // namespace beam

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

    void push(const T& x) {
        if (n_ < N) slots_.items[n_] = x;
        else spill_.push_back(x);
        ++n_;
    }
    T pop() {
        --n_;
        if (n_ < N) return slots_.items[n_];
        T x = spill_.back();
        spill_.pop_back();
        return x;
    }
    bool empty() const { return n_ == 0; }

private:
    // Left uninitialised: a slot is written before it is read.
    union Slots {
        Slots() {}
        T items[N];
    } slots_;
    size_t n_ = 0;
    std::vector<T> spill_;
};

}  // namespace beam

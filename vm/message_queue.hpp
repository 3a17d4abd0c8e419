// A process's mailbox: message terms, oldest first, in a ring buffer that is allocated at the
// first message and grows by doubling.
//
// Why not std::deque: libstdc++'s deque allocates its map and a 512-byte node when it is
// constructed, so every process paid about 580 bytes for an empty mailbox (issue 11: a
// process waiting in receive should cost at most 1,500 bytes). A ring buffer keeps what a
// deque gave the receive loop: appending at the back and taking the oldest message are O(1);
// removing a message elsewhere (selective receive) moves the shorter side.
//
// The buffer is kept when the queue empties (a process that receives once usually receives
// again), except a large one, which a burst left behind: it is freed (see erase_at).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>

#include "vm/process_side_memory.hpp"
#include "vm/term.hpp"

namespace beam {

class MessageQueue {
public:
    MessageQueue() = default;
    MessageQueue(const MessageQueue&) = delete;
    MessageQueue& operator=(const MessageQueue&) = delete;
    ~MessageQueue() { release(); }

    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    Term& operator[](size_t i) { return buf_[(head_ + i) & (cap_ - 1)]; }
    const Term& operator[](size_t i) const { return buf_[(head_ + i) & (cap_ - 1)]; }

    void push_back(Term t) {
        if (count_ == cap_) grow();
        buf_[(head_ + count_) & (cap_ - 1)] = t;
        ++count_;
    }
    // Removes message `i`, keeping the order of the others.
    void erase_at(size_t i);

    // Bytes of buffer this queue holds (erlang:memory(processes) counts them).
    size_t allocated_bytes() const { return cap_ * sizeof(Term); }

    template <typename Q, typename T>
    class Iter {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Term;
        using difference_type = std::ptrdiff_t;
        using pointer = T*;
        using reference = T&;
        Iter() = default;
        Iter(Q* q, size_t i) : q_(q), i_(i) {}
        T& operator*() const { return (*q_)[i_]; }
        T* operator->() const { return &(*q_)[i_]; }
        Iter& operator++() {
            ++i_;
            return *this;
        }
        Iter operator++(int) {
            Iter r = *this;
            ++i_;
            return r;
        }
        bool operator==(const Iter& o) const { return i_ == o.i_; }

    private:
        Q* q_ = nullptr;
        size_t i_ = 0;
    };
    using iterator = Iter<MessageQueue, Term>;
    using const_iterator = Iter<const MessageQueue, const Term>;
    iterator begin() { return {this, 0}; }
    iterator end() { return {this, count_}; }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, count_}; }

private:
    // First buffer: 8 messages (64 bytes, one of mimalloc's small size classes).
    static constexpr uint32_t FIRST_CAPACITY = 8;
    // An emptied queue frees a buffer larger than this (words) rather than keep it.
    static constexpr uint32_t KEEP_CAPACITY = 64;

    [[gnu::cold]] void grow();
    void release();

    Term* buf_ = nullptr;
    uint32_t cap_ = 0;    // a power of two, or 0 before the first message
    uint32_t head_ = 0;   // index in buf_ of the oldest message
    uint32_t count_ = 0;
};

inline void MessageQueue::grow() {
    uint64_t cap = cap_ ? uint64_t(cap_) * 2 : FIRST_CAPACITY;
    if (cap > UINT32_MAX / 2) throw std::bad_alloc();
    auto* nb = static_cast<Term*>(std::malloc(cap * sizeof(Term)));
    if (!nb) throw std::bad_alloc();
    for (size_t i = 0; i < count_; ++i) nb[i] = (*this)[i];
    std::free(buf_);
    count_process_side_bytes(std::ptrdiff_t((cap - cap_) * sizeof(Term)));
    buf_ = nb;
    cap_ = uint32_t(cap);
    head_ = 0;
}

inline void MessageQueue::release() {
    if (!buf_) return;
    count_process_side_bytes(-std::ptrdiff_t(cap_ * sizeof(Term)));
    std::free(buf_);
    buf_ = nullptr;
    cap_ = head_ = 0;
}

inline void MessageQueue::erase_at(size_t i) {
    const uint32_t mask = cap_ - 1;
    // Where the part that moves does not wrap around the buffer's end, one memmove moves it
    // (selective receive from a long queue spent a tenth of its time in the loops below).
    if (i < count_ / 2) {
        // Move the older messages up by one.
        if (head_ + i < cap_) std::memmove(buf_ + head_ + 1, buf_ + head_, i * sizeof(Term));
        else
            for (size_t j = i; j > 0; --j) buf_[(head_ + j) & mask] = buf_[(head_ + j - 1) & mask];
        head_ = (head_ + 1) & mask;
    } else if (head_ + count_ <= cap_) {
        std::memmove(buf_ + head_ + i, buf_ + head_ + i + 1, (count_ - i - 1) * sizeof(Term));
    } else {
        for (size_t j = i; j + 1 < count_; ++j) buf_[(head_ + j) & mask] = buf_[(head_ + j + 1) & mask];
    }
    --count_;
    if (count_ == 0) {
        head_ = 0;
        if (cap_ > KEEP_CAPACITY) release();
    }
}

}  // namespace beam

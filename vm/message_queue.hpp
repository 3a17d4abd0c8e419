// A process's message queue (Process::mailbox): message terms, oldest first. A vector with a
// moving front: the receive loop's `size()` and `[i]` are a subtraction and an index (a
// std::deque computed both from its node map: about half of the 68 instructions that a
// selective receive spent per message it passed over), taking the oldest message is O(1),
// and an empty queue costs no allocation (a deque allocated two blocks per process at spawn).
// Erasing from the middle moves the shorter side, as a deque does.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "vm/term.hpp"

namespace beam {

class MessageQueue {
public:
    using iterator = std::vector<Term>::iterator;
    using const_iterator = std::vector<Term>::const_iterator;

    size_t size() const { return items_.size() - head_; }
    bool empty() const { return items_.size() == head_; }
    Term& operator[](size_t i) { return items_[head_ + i]; }
    const Term& operator[](size_t i) const { return items_[head_ + i]; }
    iterator begin() { return items_.begin() + long(head_); }
    iterator end() { return items_.end(); }
    const_iterator begin() const { return items_.begin() + long(head_); }
    const_iterator end() const { return items_.end(); }

    void push_back(Term t) { items_.push_back(t); }
    void pop_front() {
        ++head_;
        settle_front();
    }
    // Removes message i (0 = the oldest).
    void erase_at(size_t i) {
        if (i < size() / 2) {
            // Shift the older messages up by one over the hole; the front moves.
            auto first = begin();
            std::move_backward(first, first + long(i), first + long(i) + 1);
            pop_front();
        } else {
            items_.erase(begin() + long(i));
            if (empty()) settle_front();
        }
    }

private:
    // Drops the dead prefix once it is as long as the live part (each message is moved at most
    // once per doubling: O(1) amortised), and a large buffer once the queue is empty.
    void settle_front() {
        if (head_ == items_.size()) {
            head_ = 0;
            if (items_.capacity() > LARGE) std::vector<Term>().swap(items_);
            else items_.clear();
        } else if (head_ >= 32 && head_ >= size()) {
            items_.erase(items_.begin(), items_.begin() + long(head_));
            head_ = 0;
        }
    }
    static constexpr size_t LARGE = 4096;

    std::vector<Term> items_;
    size_t head_ = 0;  // items_[0, head_) are taken messages
};

}  // namespace beam

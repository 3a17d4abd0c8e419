// A list kept in insertion order whose oldest and newest entries are erased in O(1): the
// monitors a process holds (ProcessSched::monitors), in the order they were made, which is
// the order process_info(P, monitors) reports. Monitors mostly end oldest first (the DOWNs of
// a batch of spawn_monitor children, in spawn order) or newest first (a call's demonitor): both
// are O(1) here. A plain vector erased at the front made collecting the DOWNs of n children
// cost O(n^2) moves (1,000 monitors: about 15,000 instructions per DOWN).
#pragma once

#include <vector>

namespace beam {

template <class Entry>
class OrderedList {
public:
    using iterator = typename std::vector<Entry>::iterator;
    using const_iterator = typename std::vector<Entry>::const_iterator;

    iterator begin() { return items_.begin() + long(head_); }
    iterator end() { return items_.end(); }
    const_iterator begin() const { return items_.begin() + long(head_); }
    const_iterator end() const { return items_.end(); }
    size_t size() const { return items_.size() - head_; }
    bool empty() const { return size() == 0; }

    void push_back(const Entry& e) { items_.push_back(e); }
    void clear() {
        items_.clear();
        head_ = 0;
    }
    void erase(iterator it) {
        if (it != begin()) {
            items_.erase(it);
            return;
        }
        // The oldest: leave its slot behind (emptied) and start after it; the dead prefix is
        // dropped once it is as long as the live part.
        *it = Entry{};
        ++head_;
        if (head_ == items_.size()) {
            clear();
        } else if (head_ >= 16 && head_ >= size()) {
            items_.erase(items_.begin(), items_.begin() + long(head_));
            head_ = 0;
        }
    }

private:
    std::vector<Entry> items_;
    size_t head_ = 0;  // items_[0, head_) are erased slots
};

}  // namespace beam

// A list kept in insertion order whose oldest and newest entries are erased in O(1): the
// monitors a process holds (ProcessSched::monitors), in the order they were made, which is
// the order process_info(P, monitors) reports. Monitors mostly end oldest first (the DOWNs of
// a batch of spawn_monitor children, in spawn order) or newest first (a call's demonitor): both
// are O(1) here. A plain vector erased at the front made collecting the DOWNs of n children
// cost O(n^2) moves (1,000 monitors: about 15,000 instructions per DOWN).
#pragma once

#include <memory>
#include <vector>

namespace beam {

template <class Entry>
class OrderedList {
public:
    using iterator = typename std::vector<Entry>::iterator;
    using const_iterator = typename std::vector<Entry>::const_iterator;

    iterator begin() { return items().begin() + long(head()); }
    iterator end() { return items().end(); }
    const_iterator begin() const { return items().begin() + long(head()); }
    const_iterator end() const { return items().end(); }
    size_t size() const { return items().size() - head(); }
    bool empty() const { return size() == 0; }

    void push_back(const Entry& e) {
        if (!s_) s_ = std::make_unique<Storage>();
        s_->items.push_back(e);
    }
    void clear() {
        if (!s_) return;
        s_->items.clear();
        s_->head = 0;
    }
    void erase(iterator it) {
        if (it != begin()) {
            s_->items.erase(it);
            return;
        }
        // The oldest: leave its slot behind (emptied) and start after it; the dead prefix is
        // dropped once it is as long as the live part.
        *it = Entry{};
        ++s_->head;
        if (s_->head == s_->items.size()) {
            clear();
        } else if (s_->head >= 16 && s_->head >= size()) {
            s_->items.erase(s_->items.begin(), s_->items.begin() + long(s_->head));
            s_->head = 0;
        }
    }

private:
    // Allocated at the first entry: most processes never monitor anything, and one pointer
    // keeps the Process structure within its allocation class (tests/unit/gc_process_footprint.cpp).
    struct Storage {
        std::vector<Entry> items;
        size_t head = 0;  // items[0, head) are erased slots
    };
    static std::vector<Entry>& none() {
        static std::vector<Entry> empty;
        return empty;
    }
    std::vector<Entry>& items() { return s_ ? s_->items : none(); }
    const std::vector<Entry>& items() const { return s_ ? s_->items : none(); }
    size_t head() const { return s_ ? s_->head : 0; }

    std::unique_ptr<Storage> s_;
};

}  // namespace beam

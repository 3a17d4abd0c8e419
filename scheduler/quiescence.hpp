// Deferred freeing for objects that scheduler threads read without a lock or a reference
// (design notes §3; what erts calls thread progress). The process table's send path finds the
// receiver with one load and no reference count (scheduler/process_table.hpp): the process it
// finds may exit and drop its last reference at any moment, so its memory is not freed then
// but retired, and freed once every scheduler has been seen between two processes since.
//
// Each scheduler thread is a participant with a slot. Between two processes it reports a
// quiescent state (it holds no pointer found that way); asleep it is offline and holds none
// either. An object retired at epoch r is freed once every online participant has reported
// an epoch above r. Threads that are not participants (dirty schedulers, the I/O and timer
// threads, a host's threads) never read that way; they take a reference under the table's
// lock as before.
//
// Ordering. A reader reports epoch e, then loads a pointer to q. The retirer removes q from
// where readers find it, then takes r = epoch++. If the reader's load saw q, its earlier
// epoch load cannot have seen the increment (that would order the removal before the load),
// so e <= r and q stays. Coming online (store, then a seq_cst fence) against the reclaimer's
// fence and load of the slot is a store-load pair: either the reclaimer sees the slot online,
// or the reader's later loads see the removal.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace beam {

class Process;

class Quiescence {
public:
    Quiescence() = default;
    Quiescence(const Quiescence&) = delete;
    Quiescence& operator=(const Quiescence&) = delete;
    ~Quiescence();  // frees whatever is still retired (no participant runs by then)

    // Slots for `count` participants, before any thread joins.
    void prepare(int count);
    // Participant `slot` is running (thread start, end of a sleep) / not (sleep, thread end).
    void online(int slot);
    void offline(int slot);
    // Participant `slot` holds no pointer read without a reference; frees what it can.
    void quiescent(int slot) {
        Slot& s = slots_[size_t(slot)];
        s.seen.store(epoch_.load(std::memory_order_acquire), std::memory_order_release);
        if (pending_.load(std::memory_order_relaxed)) reclaim();
    }

    // p has dropped its last reference: freed now if no participant is online, else later.
    void retire(Process* p);
    size_t pending() const { return pending_.load(std::memory_order_relaxed); }  // retired, not freed

    // The calling thread is participant `slot` of this domain, until the scope ends.
    class Member {
    public:
        Member(Quiescence& q, int slot);
        ~Member();
        Member(const Member&) = delete;
        Member& operator=(const Member&) = delete;

    private:
        Quiescence& q_;
        int slot_;
    };
    // True when the calling thread is an online-capable participant of this domain.
    bool is_member() const;

private:
    void reclaim();

    struct alignas(64) Slot {
        std::atomic<uint64_t> seen{0};  // 0: offline
    };
    std::unique_ptr<Slot[]> slots_;
    int count_ = 0;
    alignas(64) std::atomic<uint64_t> epoch_{1};
    std::atomic<size_t> pending_{0};  // retired, not yet freed
    std::mutex mutex_;
    struct Retired {
        uint64_t epoch;
        Process* p;
    };
    std::vector<Retired> retired_;
};

}  // namespace beam

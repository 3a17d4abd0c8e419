#include "scheduler/quiescence.hpp"

#include <algorithm>
#include <limits>

#include "vm/process.hpp"

namespace beam {

namespace {
thread_local const Quiescence* tls_domain = nullptr;
}  // namespace

Quiescence::~Quiescence() {
    for (Retired& r : retired_) delete r.p;
}

void Quiescence::prepare(int count) {
    slots_.reset(new Slot[size_t(count)]);
    count_ = count;
}

void Quiescence::online(int slot) {
    slots_[size_t(slot)].seen.store(epoch_.load(std::memory_order_acquire), std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

void Quiescence::offline(int slot) { slots_[size_t(slot)].seen.store(0, std::memory_order_release); }

Quiescence::Member::Member(Quiescence& q, int slot) : q_(q), slot_(slot) {
    tls_domain = &q;
    q.online(slot);
}

Quiescence::Member::~Member() {
    q_.offline(slot_);
    tls_domain = nullptr;
}

bool Quiescence::is_member() const { return tls_domain == this; }

void Quiescence::retire(Process* p) {
    {
        std::lock_guard lock(mutex_);
        // The removal that made p unreachable came before (seq_cst), so every reader that
        // can still hold p reported an epoch at most this one.
        retired_.push_back({epoch_.fetch_add(1, std::memory_order_seq_cst), p});
        pending_.fetch_add(1, std::memory_order_relaxed);
    }
    reclaim();
}

void Quiescence::reclaim() {
    std::vector<Process*> done;
    {
        std::unique_lock lock(mutex_, std::try_to_lock);
        if (!lock.owns_lock()) return;  // another thread is at it
        std::atomic_thread_fence(std::memory_order_seq_cst);
        uint64_t oldest = std::numeric_limits<uint64_t>::max();
        for (int i = 0; i < count_; ++i) {
            uint64_t e = slots_[size_t(i)].seen.load(std::memory_order_acquire);
            if (e) oldest = std::min(oldest, e);
        }
        // Retired in epoch order: those below the oldest epoch reported are unreachable.
        size_t n = 0;
        while (n < retired_.size() && retired_[n].epoch < oldest) done.push_back(retired_[n++].p);
        retired_.erase(retired_.begin(), retired_.begin() + std::ptrdiff_t(n));
        pending_.fetch_sub(n, std::memory_order_relaxed);
    }
    for (Process* p : done) delete p;
}

}  // namespace beam

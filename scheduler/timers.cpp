#include "scheduler/timers.hpp"

#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

namespace beam {

TimerService::TimerService(VM* vm) : vm_(vm) {}

TimerService::~TimerService() { stop(); }

void TimerService::start() { thread_ = std::thread([this] { loop(); }); }

void TimerService::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    for (Slot& e : slots_)
        if (e.live) discard_buffer(e.msg);
    slots_.clear();
    free_.clear();
    heap_.clear();
    by_ref_.clear();
}

// ---- slots and the heap (mutex_ held) ----

uint32_t TimerService::new_slot(Clock::time_point deadline, Term dest) {
    uint32_t i;
    if (!free_.empty()) {
        i = free_.back();
        free_.pop_back();
    } else {
        i = uint32_t(slots_.size());
        slots_.emplace_back();
    }
    Slot& e = slots_[i];
    e.deadline = deadline;
    e.dest = dest;
    e.live = true;
    e.msg = MessageBuffer{};
    e.ns = nullptr;
    e.ref = 0;
    return i;
}

void TimerService::free_slot(uint32_t i) {
    Slot& e = slots_[i];
    e.live = false;
    e.generation++;
    e.msg = MessageBuffer{};
    free_.push_back(i);
}

void TimerService::sift_up(uint32_t pos) {
    uint32_t i = heap_[pos];
    while (pos > 0) {
        uint32_t parent = (pos - 1) / 2;
        if (!earlier(i, heap_[parent])) break;
        place(pos, heap_[parent]);
        pos = parent;
    }
    place(pos, i);
}

void TimerService::sift_down(uint32_t pos) {
    uint32_t n = uint32_t(heap_.size()), i = heap_[pos];
    for (;;) {
        uint32_t child = 2 * pos + 1;
        if (child >= n) break;
        if (child + 1 < n && earlier(heap_[child + 1], heap_[child])) child++;
        if (!earlier(heap_[child], i)) break;
        place(pos, heap_[child]);
        pos = child;
    }
    place(pos, i);
}

void TimerService::heap_push(uint32_t i) {
    heap_.push_back(i);
    sift_up(uint32_t(heap_.size() - 1));
}

void TimerService::heap_erase(uint32_t pos) {
    uint32_t gone = heap_[pos], last = heap_.back();
    heap_.pop_back();
    slots_[gone].heap_pos = NO_POS;
    if (pos == heap_.size()) return;
    place(pos, last);
    if (pos > 0 && earlier(last, heap_[(pos - 1) / 2])) sift_up(pos);
    else sift_down(pos);
}

void TimerService::remove(uint32_t i) {
    Slot& e = slots_[i];
    if (e.heap_pos != NO_POS) heap_erase(e.heap_pos);
    if (!e.receive_timeout) {
        by_ref_.erase(e.ref);
        forget_dest(e.dest, e.ref);
    }
    free_slot(i);
}

TimerService::Slot* TimerService::find(uint64_t id, uint32_t& index) {
    if (id & HANDLE_BIT) {
        index = uint32_t(id);
        if (index >= slots_.size()) return nullptr;
        Slot& e = slots_[index];
        bool same = e.live && e.receive_timeout && e.generation == uint32_t((id >> 32) & 0x7fffffff);
        return same ? &e : nullptr;
    }
    auto it = by_ref_.find(id);
    if (it == by_ref_.end()) return nullptr;
    index = it->second;
    return &slots_[index];
}

// ---- the interface ----

uint64_t TimerService::start_receive_timeout(Term pid, int64_t ms) {
    auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    std::lock_guard lock(mutex_);
    uint32_t i = new_slot(deadline, pid);
    Slot& e = slots_[i];
    e.receive_timeout = true;
    heap_push(i);
    if (deadline < waiting_until_) cv_.notify_one();
    return HANDLE_BIT | (uint64_t(e.generation & 0x7fffffff) << 32) | i;
}

void TimerService::start_message_timer(uint64_t id, Term dest, MessageBuffer msg, int64_t ms, const Namespace* ns) {
    auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    std::lock_guard lock(mutex_);
    uint32_t i = new_slot(deadline, dest);
    Slot& e = slots_[i];
    e.receive_timeout = false;
    e.msg = msg;
    e.ns = ns;
    e.ref = id;
    by_ref_.emplace(id, i);
    if (is_local_pid(dest)) {
        by_pid_.emplace(dest, id);
        pid_timers_.store(by_pid_.size(), std::memory_order_release);
    }
    heap_push(i);
    if (deadline < waiting_until_) cv_.notify_one();
}

static int64_t ms_left(TimerService::Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - TimerService::Clock::now());
    // OTP rounds the remaining time up to whole milliseconds, and never reports less than 0.
    return left.count() <= 0 ? 0 : (left.count() + 999) / 1000;
}

std::optional<int64_t> TimerService::cancel(uint64_t id) {
    std::lock_guard lock(mutex_);
    uint32_t i;
    Slot* e = find(id, i);
    if (!e) return std::nullopt;
    int64_t left = ms_left(e->deadline);
    discard_buffer(e->msg);
    remove(i);  // a cancelled earliest deadline only makes the timer thread wake early once
    return left;
}

void TimerService::cancel_receive_timeout(uint64_t handle) {
    std::lock_guard lock(mutex_);
    uint32_t i;
    if (find(handle, i)) remove(i);  // a receive timeout holds no message to discard
}

void TimerService::forget_dest(Term dest, uint64_t ref) {
    if (!is_local_pid(dest)) return;
    auto [lo, hi] = by_pid_.equal_range(dest);
    for (auto it = lo; it != hi; ++it)
        if (it->second == ref) {
            by_pid_.erase(it);
            pid_timers_.store(by_pid_.size(), std::memory_order_release);
            return;
        }
}

void TimerService::cancel_for(Term pid) {
    if (pid_timers_.load(std::memory_order_acquire) == 0) return;
    std::lock_guard lock(mutex_);
    auto [lo, hi] = by_pid_.equal_range(pid);
    std::vector<uint64_t> refs;
    for (auto it = lo; it != hi; ++it) refs.push_back(it->second);
    for (uint64_t ref : refs) {
        auto it = by_ref_.find(ref);
        if (it == by_ref_.end()) continue;
        discard_buffer(slots_[it->second].msg);
        remove(it->second);  // also takes it out of by_pid_
    }
}

size_t TimerService::message_timer_count() {
    std::lock_guard lock(mutex_);
    return by_ref_.size();
}

size_t TimerService::message_timer_bytes() { return sizeof(Slot); }

std::optional<int64_t> TimerService::remaining(uint64_t id) {
    std::lock_guard lock(mutex_);
    uint32_t i;
    Slot* e = find(id, i);
    if (!e) return std::nullopt;
    return ms_left(e->deadline);
}

void TimerService::loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (heap_.empty()) {
            waiting_until_ = Clock::time_point::max();
            cv_.wait(lock);
            waiting_until_ = Clock::time_point::min();
            continue;
        }
        uint32_t i = heap_[0];
        if (Clock::now() < slots_[i].deadline) {
            waiting_until_ = slots_[i].deadline;
            cv_.wait_until(lock, waiting_until_);
            waiting_until_ = Clock::time_point::min();
            continue;
        }
        Slot e = slots_[i];  // what fire needs; the buffer now belongs to the copy
        uint64_t id = e.receive_timeout ? HANDLE_BIT | (uint64_t(e.generation & 0x7fffffff) << 32) | i : e.ref;
        remove(i);
        lock.unlock();
        fire(id, e);
        lock.lock();
    }
}

void TimerService::fire(uint64_t id, Slot& e) {
    if (e.receive_timeout) {
        auto* s = new Signal{SignalKind::Timeout};
        s->timer_id = id;
        if (!deliver_signal(*vm_, e.dest, s)) delete s;
        return;
    }
    Term to = e.dest;
    if (is_atom(to)) to = vm_->procs.whereis(e.ns, to);
    auto* s = new Signal{SignalKind::Message};
    s->data = e.msg;
    e.msg = MessageBuffer{};
    if (!is_local_pid(to) || !deliver_signal(*vm_, to, s)) {
        discard_buffer(s->data);
        delete s;
    }
}

}  // namespace beam

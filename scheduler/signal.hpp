// Signals: everything one process tells another (design notes §3). Messages, exit signals,
// link/unlink, monitor/demonitor and timeouts all travel through one queue per process, so
// signals from one sender arrive in the order sent. Any thread may push; only the owner
// (the scheduler running the process) takes them out.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "scheduler/word_lock.hpp"
#include "vm/copy_term.hpp"
#include "vm/term.hpp"

namespace beam {

enum class SignalKind : uint8_t {
    Message,     // data: the message; alias: the alias it was sent to, 0 for a pid
    Exit,        // data: the reason; from exit/2 (linked = false) or a dying linked process
    Link,        // from wants a link
    Unlink,      // from drops its link
    Monitor,     // data: the monitor reference; from monitors this process
    Demonitor,   // ref: the monitor's reference
    Down,        // data: the {'DOWN', ...} message; ref: the monitor it ends
    Timeout,     // timer_id: a receive ... after expired
    GroupLeader, // data: the new group leader pid; ref: answered {Ref, true | badarg}
    IsAlive,     // ref: answered {Ref, true}, or {Ref, false} once the process has exited
    Monitoring,  // ref: the process now monitors `from` (a remote spawn_request's monitor)
    SystemTask,  // data: the request id; task: what to do (scheduler/signals.hpp
                 // run_system_tasks)
    SaveCalls,   // data: the new save_calls count (a small); ref: answered {Ref, Old}, or
                 // {Ref, badarg} once the process has exited (process_flag/3)
};

// erts_internal:request_system_task/3's requests, each answered {Tag, ReqId, true | false}.
enum SystemTaskKind : uint8_t {
    TASK_GC_MINOR,  // {garbage_collect, ReqId, minor}
    TASK_GC_MAJOR,  // {garbage_collect, ReqId, major}
    TASK_TEST,      // {system_task_test, ReqId}: nothing to do (OTP's tests of task priorities)
};

struct FlowCredit;  // scheduler/port_system.hpp

struct Signal {
    SignalKind kind;
    bool linked = false;  // Exit: sent because a linked process died (vs exit/2)
    bool normal_kills = false;  // Exit: exit/2 to oneself, which ends the caller even for `normal`
    uint8_t task = 0;           // SystemTask: a SystemTaskKind
    uint8_t seq = 0;      // Message, Exit: what it brings for seq_trace (vm/seq_trace.hpp seq_kind)
    // Message: data.term is on the receiver's heap already (post_message copied it there while
    // the receiver was not running); its collections keep it (SignalQueue::on_heap_terms).
    bool on_heap = false;
    Term from = NIL;      // sender pid (immediate)
    uint64_t timer_id = 0;
    uint64_t alias = 0;   // Message: the alias's reference number (dropped if no longer active)
    Term name = NIL;      // Monitor: the registered name it was made through, if any
    Word ref[3] = {};     // Down, Demonitor: the monitor's reference; GroupLeader, IsAlive: the reply's
    MessageBuffer data;
    // Message from a port's reader: `credit_units` go back to its flow credit once taken in.
    std::shared_ptr<FlowCredit> credit;
    int64_t credit_units = 0;
};

class SignalQueue {
public:
    // Returns false if the queue is closed (the owner has exited); the caller keeps the signal.
    bool push(Signal* s) {
        std::lock_guard lock(mutex_);
        if (closed_) return false;
        items_.push_back(s);
        queued_.store(true, std::memory_order_seq_cst);
        return true;
    }
    // Takes everything queued so far, in order. `out` must be empty; its capacity is left to
    // the queue for the next pushes (an owner that reuses one vector recycles the buffers).
    // An empty queue is seen without the lock. A push the owner misses here is followed by
    // the pusher's activate(): on a RUNNING process it sets PENDING, which makes the
    // scheduler look again; on a QUEUED one it only reads the state, and then the seq_cst
    // order of that read, this load, the push's store and the scheduler's QUEUED -> RUNNING
    // exchange (Schedulers::loop, borrow) makes this load see the push.
    void take(std::vector<Signal*>& out) {
        if (!queued_.load(std::memory_order_seq_cst)) return;
        std::lock_guard lock(mutex_);
        out.swap(items_);
        queued_.store(false, std::memory_order_relaxed);
        taken_.store(!out.empty(), std::memory_order_relaxed);
    }
    // The owner has acted on everything it took. Not called when a signal made it exit:
    // the queue then stays busy until close.
    void settle() {
        if (taken_.load(std::memory_order_relaxed)) taken_.store(false, std::memory_order_release);
    }
    bool empty() {
        std::lock_guard lock(mutex_);
        return items_.empty();
    }
    // Something is queued. Without the lock: a push by this thread earlier is always seen.
    bool has_signals() const { return queued_.load(std::memory_order_acquire); }
    // The owner's collector: each queued message that is on the owner's heap already. Only
    // the owner (or a sender holding it) adds those, so none comes while it collects.
    template <class F>
    void on_heap_terms(F f) {
        std::lock_guard lock(mutex_);
        for (Signal* s : items_)
            if (s->on_heap) f(s->data.term);
    }
    // Nothing queued and nothing taken but not yet acted on (see settle). Another process
    // asking "is it alive?" may answer at once only then: a signal it sent earlier (an exit
    // signal, say) may still be on its way to taking effect.
    bool idle() {
        std::lock_guard lock(mutex_);
        return items_.empty() && !taken_.load(std::memory_order_acquire);
    }
    // The owner has exited and told its links and monitors (exit_process closes it last).
    bool closed() {
        std::lock_guard lock(mutex_);
        return closed_;
    }
    // No more signals after this; returns what was still queued.
    void close(std::vector<Signal*>& rest) {
        std::lock_guard lock(mutex_);
        closed_ = true;
        rest.swap(items_);
        queued_.store(false, std::memory_order_relaxed);
    }

private:
    WordLock mutex_;
    bool closed_ = false;
    std::atomic<bool> queued_{false};  // items_ is not empty (written under mutex_)
    std::atomic<bool> taken_{false};   // taken but not yet settled (owner writes)
    std::vector<Signal*> items_;
};

}  // namespace beam

// The part of a process that schedulers and other processes touch: its run state (atomic
// flags changed by compare-and-swap: a process is in at most one run queue and run by at most
// one thread), its signal queue, and the bookkeeping for links, monitors and timers that its
// owner keeps while handling signals.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "scheduler/ordered_list.hpp"
#include "scheduler/signal.hpp"
#include "scheduler/word_lock.hpp"
#include "vm/term.hpp"

namespace beam {

class ExitWatcher;  // scheduler/native_monitors.hpp

namespace run_state {
inline constexpr uint32_t QUEUED = 1;    // in a run queue
inline constexpr uint32_t RUNNING = 2;   // a scheduler is running it or handling its signals
inline constexpr uint32_t PENDING = 4;   // signals arrived while RUNNING: look again before idling
inline constexpr uint32_t EXITED = 8;    // gone; signals to it are refused
}  // namespace run_state

// Kept outside the heap (the GC does not scan these tables): a reference by its id words.
struct MonitorEntry {
    Word ref[3];       // the reference's id words (vm/term.hpp: [hdr Ref][id0][id1][id2])
    Term pid;          // the other process (immediate)
    Term name = NIL;   // monitored by registered name: the name (DOWN reports {Name, Node})
    // Monitoring side only: monitor/3's {tag, Tag}, replacing 'DOWN' (a copy off the heap).
    std::shared_ptr<MessageBuffer> tag;
};

// How an alias (erlang:alias/1, monitor/3's {alias, _}) ends (scheduler/aliases.cpp).
enum class AliasKind : uint8_t {
    Explicit,        // unalias/1 only
    Reply,           // also after the first message through it
    Demonitor,       // also when its monitor ends (demonitor or DOWN)
    ReplyDemonitor,  // both: the first message also removes the monitor
};
struct AliasEntry {
    uint64_t ref;  // the reference's counter value (vm/term_refs.hpp)
    AliasKind kind;
};

struct SuspendEntry {
    Term pid;
    uint32_t count;
    bool active;  // known to have taken effect (a synchronous suspend saw the target stopped)
};

struct ProcessSched {
    std::atomic<uint32_t> state{0};
    std::atomic<uint32_t> refc{1};  // the process table holds one reference
    SignalQueue inbox;
    int home = 0;                   // scheduler it last ran on
    // process_flag(scheduler, N): 1-based index of the only scheduler that may run it, 0 for
    // any (OTP's bound processes). Set by the process itself; read by whoever queues it.
    std::atomic<int> bound_scheduler{0};
    int prio = 2;                   // 0 max, 1 high, 2 normal, 3 low
    // A request from a higher-priority process waits on this one's signals (group_leader/2,
    // is_process_alive/1): it is queued at that priority, and its next run only takes in
    // its signals before it goes back to its own priority (OTP's priority elevation).
    std::atomic<int> signal_prio{NO_SIGNAL_PRIO};
    static constexpr int NO_SIGNAL_PRIO = 4;

    // erlang:suspend_process/1,2: how many suspensions (from every suspender) hold it. While
    // above 0 its signals are taken in but its code does not run (scheduler/suspend.hpp).
    std::atomic<uint32_t> suspend_count{0};
    bool waiting = false;           // stopped in a receive with nothing to match
    bool hibernating = false;       // in erlang:hibernate/3, waiting for any message
    bool timer_set = false;         // a receive ... after timer is running for this wait
    uint64_t timer_id = 0;

    // Owner-only, except under info_mutex for process_info from other processes.
    WordLock info_mutex;
    // A message to one of its own aliases went through the signal queue (its alias is checked
    // when the message is taken in): plain messages to itself follow it there to stay in order.
    bool self_via_inbox = false;
    // The scheduler it was last stolen from, until its next wake-up or yield tells whether it
    // stayed with the thief (scheduler.cpp, note_after_steal); -1 if none.
    std::atomic<int16_t> stolen_from{-1};
    std::vector<Term> links;                  // pids
    OrderedList<MonitorEntry> monitors;       // processes this one monitors
    std::vector<MonitorEntry> monitored_by;   // processes monitoring this one
    std::vector<AliasEntry> aliases;          // this process's active aliases (owner only)
    // The processes this one has suspended, with how many times (nested suspends); owner only
    // (process_info readers hold info_mutex). scheduler/suspend.hpp.
    std::vector<SuspendEntry> suspending;
    Term registered_name = NIL;
    Term initial_m = NIL, initial_f = NIL;  // initial call {M, F, A}
    uint32_t initial_a = 0;
    bool system = false;            // VM-internal process (the I/O server): not counted as user work
    bool exit_pending = false;      // an exit signal arrived while running (RunStatus::Killed)
    bool native_monitors_fired = false;  // its exit has been told to the natives watching it
    // dirty_kind::CPU or IO while a dirty scheduler has it (vm/nif_call.hpp): it stays
    // RUNNING for the normal schedulers, its signals wait (erts' "executing dirty").
    std::atomic<uint8_t> dirty{0};
    Term exit_reason = NIL;         // its reason, on the process's heap
    std::vector<Signal*> leftover;  // signals after a fatal one: answered by exit_process
    // Natives watching its exit (scheduler/native_monitors.hpp), under info_mutex; fired once.
    // Allocated at the first watch: few processes own sockets (Process stays within 768 bytes).
    std::unique_ptr<std::vector<std::pair<uint64_t, std::shared_ptr<ExitWatcher>>>> native_monitors;
};

}  // namespace beam

// Scheduler threads (design notes §4): one per core by default, each with a run queue per
// priority. A scheduler runs a process for its reduction budget, then puts it at the back of
// its queue. An idle scheduler steals from the others before sleeping; a sleeping scheduler is
// woken when work arrives for it, never by polling.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "scheduler/dirty_schedulers.hpp"
#include "scheduler/wall_time.hpp"
#include "scheduler/word_lock.hpp"
#include "vm/process.hpp"

namespace beam {

class VM;

// The VM's scheduler pollset (scheduler/port_io.cpp): the sockets of driver ports. Awake
// schedulers poll it themselves, between processes and while they look for work, so a
// packet arriving while they are busy wakes no thread (erts' scheduler polling; waking the
// I/O thread for every packet was most of a TLS echo's context switches). The last scheduler
// to fall asleep hands it to the I/O thread, which then waits on it with everything else.
class SchedulerPollset {
public:
    virtual ~SchedulerPollset() = default;
    // Without blocking: dispatches the events that are ready. Any thread, no lock held.
    virtual void poll_now() = 0;
    // Every scheduler is asleep: the I/O thread watches the set until one of its events.
    virtual void hand_to_io_thread() = 0;
};

class Schedulers {
public:
    Schedulers(VM* vm, int count);
    VM* vm() const { return vm_; }
    ~Schedulers();

    int count() const { return int(scheds_.size()); }
    // erlang:system_flag(schedulers_online, N), 1 <= N <= count(): schedulers 0..N-1 take
    // work; each of the others hands its queued processes to them and then runs only the
    // processes bound to it (process_flag(scheduler, I)). Returns the previous number.
    int set_online(int n);
    int online() const { return online_.load(std::memory_order_acquire); }
    // erlang:system_flag(multi_scheduling, block | unblock | block_normal | unblock_normal)
    // for process `pid`: while any process blocks, only scheduler 1 takes work (as
    // set_online(1)); blocks are counted per process and kind (`normal`: the normal
    // schedulers only, the same thing in beamvm, which has no dirty ones) and released when
    // the process exits. Return the new state.
    enum class MultiState { Enabled, BlockedNormal, Blocked };
    MultiState block_multi_scheduling(Term pid, bool normal);
    MultiState unblock_multi_scheduling(Term pid, bool normal);
    void release_multi_scheduling(Term pid);  // an exiting process's blocks
    MultiState multi_scheduling_state();
    // erts_debug:set_internal_state(block, Ms) (a test hook): the schedulers take no process
    // until `until_ns` (monotonic); the one that asked waits it out in its own call.
    void block_until(int64_t until_ns) { blocked_until_ns_.store(until_ns, std::memory_order_release); }
    std::vector<Term> multi_scheduling_blockers(bool normal);  // each blocking process once
    // schedulers_online as erlang:system_info reports it: the number before any block.
    int reported_online();
    // system_flag(schedulers_online, N): while blocked, the number that unblocking restores.
    int set_reported_online(int n);
    void start();
    // Makes `p` runnable if it is neither queued nor running (any thread, any time).
    void activate(Process* p);
    // As activate, for a signal that a process of priority `prio` waits on: if that is higher
    // than p's own, p is queued (or moved) at `prio` to take in its signals only.
    void activate_for(Process* p, int prio);
    // Blocks until erlang:halt is called or no user process is left; returns the exit status.
    int run_until_done();
    // The first half of run_until_done: waits as it does, then returns the exit status with
    // the schedulers still running (a caller that then ends the OS process joins nothing).
    int wait_until_done();
    void halt(int status);
    // Halts (with the status already set, if any) and waits for every scheduler thread to end:
    // afterwards no process runs. The destructor does this; ~VM calls it first.
    void stop();
    bool halting() const { return halting_.load(std::memory_order_acquire); }
    int halt_status() const { return halt_status_.load(std::memory_order_acquire); }  // once halting

    // Processes that count towards "the VM has work": all but VM-internal ones.
    void user_process_started() { live_user_.fetch_add(1, std::memory_order_relaxed); }
    void user_process_ended();

    // Takes `p` out of scheduling for a moment so another process can act as its owner (read
    // its heap, take in its signals): true once p is idle and marked RUNNING by the caller.
    // Gives up (false) if p stays busy or has exited.
    bool borrow(Process* p);
    // Ends a borrow; `woken` if the borrower gave p new messages to look at.
    void give_back(Process* p, bool woken);
    // One attempt, no waiting: marks p RUNNING for the caller if it is idle or queued (not
    // running, not exited). A sender that holds its receiver so (scheduler/signals.cpp)
    // ends with give_back_runnable, having given it work.
    static bool try_borrow(Process* p) {
        std::atomic<uint32_t>& st = p->sched.state;
        uint32_t f = st.load(std::memory_order_relaxed);
        if (f & (run_state::RUNNING | run_state::EXITED)) return false;
        return st.compare_exchange_strong(f, f | run_state::RUNNING, std::memory_order_acquire);
    }
    // Ends a try_borrow and makes p runnable in the same compare-and-swap (activate would
    // take another).
    void give_back_runnable(Process* p);
    // Ends a borrow of a process that must exit with `reason` (taken from its signals). If a
    // run queue holds it, its scheduler ends it when it comes out (a queued process must stay
    // in memory until then); otherwise it exits here.
    void exit_borrowed(Process* p, Term reason);

    // The dirty CPU and dirty I/O schedulers (NIF steps flagged dirty).
    DirtySchedulers& dirty() { return *dirty_; }

    // system_flag(scheduler_wall_time, On) by `pid` (scheduler/wall_time.hpp): true if the
    // measurement was on before. An exiting process's switch-ons go (release_wall_time).
    bool set_wall_time(Term pid, bool on);
    void release_wall_time(Term pid) { wall_switch_.release(pid); }
    // statistics(scheduler_wall_time[_all]) while it is on: nanoseconds since it was switched
    // on, and each scheduler's busy nanoseconds in that time: the normal schedulers, then the
    // dirty CPU ones, then (with_io) the dirty I/O ones.
    struct WallTimes {
        int64_t total;
        std::vector<int64_t> busy;
    };
    std::optional<WallTimes> wall_times(bool with_io);

    // Set once, when the port system's poller starts; it outlives the scheduler threads.
    void set_pollset(SchedulerPollset* ps) { pollset_.store(ps, std::memory_order_release); }
    bool all_asleep() const { return sleepers_.load(std::memory_order_acquire) == count(); }
    // When a scheduler last polled the scheduler pollset (monotonic ns). A scheduler running a
    // process polls only between processes, so while every awake one runs a long time slice
    // (a process sending 1,000 messages to another node is one slice of 4,000 reductions,
    // several milliseconds) nobody polls: the I/O thread then polls for them
    // (PortSystem::run), as erts' poll thread always does.
    int64_t last_poll_ns() const { return last_poll_ns_.load(std::memory_order_relaxed); }

    // Index of the scheduler running on this thread, or -1 on other threads.
    static int current_index();
    // Returns once every other scheduler has finished the time slice it was running when
    // called (OTP's thread progress, as erlang:trace_delivered/1 waits for it): the
    // scheduling events of those slices (trace in/out) have been made by then.
    void await_running_slices();

    // Per scheduler, the processes in its run queues, plus the one it is running if
    // `with_running` (OTP's statistics(run_queue_lengths) and statistics(active_tasks)).
    std::vector<size_t> queue_lengths(bool with_running);
    // Reductions of every time slice finished so far, all schedulers (statistics(reductions)).
    int64_t total_reductions() const;
    // Times a process has been scheduled in and run, all schedulers (statistics(context_switches)).
    uint64_t total_slices() const;

private:
    // Every scheduler's busy nanoseconds at `now`, in wall_times' order (with the I/O ones).
    std::vector<int64_t> busy_now(int64_t now);
    WallTimeSwitch wall_switch_;
    struct MultiBlock {
        std::mutex mutex;
        std::vector<std::pair<Term, bool>> blockers;  // one entry per block: pid, normal
        MultiState state_locked() const;
        int saved_online = 0;
        std::atomic<bool> any{false};
    } multi_block_;
    // One scheduler's thread, run queues and sleep state: scheduler/run_queue.hpp, which only
    // scheduler.cpp includes (so changing it rebuilds one file, not everything vm.hpp reaches).
    struct Scheduler;

    void loop(Scheduler& s);
    Process* next(Scheduler& s);
    Process* pop_local(Scheduler& s);
    Process* steal(Scheduler& thief, bool busy_only = false);
    // An idle scheduler looks for work for a short while before it sleeps (OTP's scheduler
    // busy wait, +sbwt): a process queued meanwhile here, or on a busy scheduler with a
    // backlog, is taken without the futex wake-up that a sleeping scheduler needs. Null if
    // none came (or s has its own).
    Process* spin(Scheduler& s);
    // Polls the scheduler pollset if `s` has not for POLL_EVERY_NS (or `now`). Between two
    // processes the clock is read only once POLL_CHECK_REDUCTIONS have run or
    // POLL_CHECK_CALLS processes have been taken since it was last read: a gen_server:call
    // schedules two processes, and a read per process (27 ns here) was about 2% of
    // bench/real/svc_genserver_ets.
    void poll_io(Scheduler& s, bool now);
    static constexpr int64_t POLL_EVERY_NS = 100'000;
    static constexpr int64_t POLL_CHECK_REDUCTIONS = 2000;
    static constexpr unsigned POLL_CHECK_CALLS = 32;
    // An offline scheduler's queued processes that are not bound to it go to the online ones.
    void hand_over(Scheduler& s);
    // Queues p on s. A sleeping scheduler is woken to steal only when s, busy, has more than
    // one process waiting and has had a backlog for a while (scheduler.cpp, count_backlog):
    // s takes the next one itself. (Waking one on every yield of a lone busy process cost
    // about a quarter of an allocation benchmark's time in futex calls.)
    void enqueue(Scheduler& s, Process* p, int prio = -1);
    // Moves a queued p to queue `prio` of the scheduler holding it; false if no queue holds
    // it (a scheduler has just taken it and is about to run it).
    bool requeue(Process* p, int prio);
    void run_one(Scheduler& s, Process* p);
    // p, stolen from another scheduler, is next queued on `target`: back on its victim (woken
    // by a process there: stealing it only moved it between cores and back, as a gen_server's
    // client) sets the victim's share_backoff to the maximum at once, from where it decays
    // (BACKOFF_DECAY_REDUCTIONS). Raised one step per bounce, it took a dozen steals, each a
    // bounce, to reach the maximum in each svc_genserver_ets run at +S 2 (12-37 steals a
    // run); at once, 2-4. `paid`: it ran a good part of a slice on its
    // thief (still runnable after a slice, or STEAL_PAYS_REDUCTIONS before it waited), which
    // resets the backoff. Woken on the thief's scheduler after little work changes nothing:
    // what woke it there had followed it (a gen_server woken by its stolen client), so the
    // group only moved between cores, and one core still ran it all. Counting that as paid
    // reset the backoff at each such move: svc_genserver_ets at +S 2 then stole 80-110
    // times a run, its whole group of processes changing cores 280-450 times; judged as
    // neutral, 20-26 steals and 80-100 moves.
    void note_after_steal(Process* p, int target, bool paid = false);
    // Queues p, just marked QUEUED, where a woken process goes: the waker's scheduler (at
    // `prio`, -1 for its own priority).
    void queue_woken(Process* p, int prio = -1);
    static constexpr int MAX_SHARE_BACKOFF = 10;  // +swt's limit times 1024
    // A back-off step lasts this many reductions of the backed-off scheduler's own work (about
    // 20 ms of a gen_server's calls), so a phase of independent work that follows one of
    // clients and servers is shared again soon enough.
    static constexpr int64_t BACKOFF_DECAY_REDUCTIONS = 2'000'000;
    static constexpr int64_t STEAL_PAYS_REDUCTIONS = 2000;  // half a slice
    // After a run: the process stops (idle) unless signals arrived meanwhile. True if it
    // must be looked at again.
    bool go_idle(Process* p);

    VM* vm_;
    std::vector<std::unique_ptr<Scheduler>> scheds_;
    std::atomic<bool> halting_{false};
    std::atomic<int> halt_status_{0};
    std::atomic<size_t> live_user_{0};
    std::atomic<int> sleepers_{0};
    std::atomic<int64_t> last_poll_ns_{0};
    std::atomic<int> spinners_{0};  // schedulers spinning in next(): they find queued work unwoken
    std::atomic<int> online_{0};
    std::atomic<SchedulerPollset*> pollset_{nullptr};
    std::mutex done_mutex_;
    std::condition_variable done_cv_;
    bool joining_ = false;  // run_until_done is about to join the threads (under done_mutex_)
    // Last: destroyed first, its threads give their processes back to the schedulers above.
    std::unique_ptr<DirtySchedulers> dirty_;
    std::atomic<int64_t> blocked_until_ns_{0};
};

}  // namespace beam

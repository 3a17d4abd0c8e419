#include <algorithm>
#include "scheduler/scheduler.hpp"

#include <cstdio>

#include "scheduler/busy_wait.hpp"
#include "scheduler/run_queue.hpp"
#include "scheduler/signals.hpp"
#include "scheduler/slice_output.hpp"
#include "vm/clocks.hpp"
#include "vm/interp.hpp"
#include "vm/trace.hpp"
#include "vm/vm.hpp"

namespace beam {

using namespace run_state;

namespace {
thread_local int tls_index = -1;
// system_profile scheduler: this scheduler has reported itself inactive and not yet active again.
thread_local bool tls_profiled_inactive = false;
// How long this scheduler spins before it sleeps (Schedulers::spin), adapted to how often
// spinning has found work; -1 until the thread first spins.
thread_local int64_t tls_spin_budget_ns = -1;
}

void set_scheduler_busy_wait(VM& vm, BusyWait level) {
    // erts counts its thresholds in spin rounds; these are times of about the same order on
    // current hardware, medium being the 50 us beamvm has always used.
    static constexpr int64_t NS[] = {0, 5'000, 20'000, 50'000, 200'000, 1'000'000};
    vm.emu_options.busy_wait_ns = NS[int(level)];
}

namespace {
// erts' wakeup_other (erl_process.c, +swt medium): a busy scheduler wakes a sleeping one only
// after its run queue has held a backlog for a while, measured in reductions run while
// others waited: after each slice, (processes queued - 1) x the slice's reductions, plus a
// fixed step, is added; a slice with at most one process waiting takes its reductions off.
// Waking a sleeper as soon as two processes were queued made a gen_server under eight
// clients (bench/real/svc_genserver_ets.erl, +S 2) wake the other scheduler for nearly every
// reply: the woken scheduler stole one client, ran it for a few hundred reductions, found
// nothing else and slept again, 15,000 futex wake-ups and 30,000 context switches a run.
// The limit is +swt's (EmulatorOptions::wakeup_other_limit, medium by default).
constexpr int64_t WAKEUP_OTHER_STEP = 4000 / 10;   // ERTS_WAKEUP_OTHER_FIXED_INC

// After a slice of `reds` reductions on `s` (its own thread): true when a sleeper should come.
template <class Sched>
bool count_backlog(Sched& s, int64_t reds, int64_t limit) {
    if (reds <= 0) return false;
    int64_t waiting = int64_t(s.queued.load(std::memory_order_relaxed)) - 1;
    int64_t v = s.wakeup_other.load(std::memory_order_relaxed);
    v = waiting < 1 ? std::max<int64_t>(0, v - reds) : v + waiting * reds + WAKEUP_OTHER_STEP;
    s.wakeup_other.store(v, std::memory_order_relaxed);
    return v > limit;
}

// The backlog above which `s` shares its queue: +swt's limit, doubled share_backoff times.
template <class Sched>
int64_t share_limit(const Sched& s, int64_t limit) {
    return limit << s.share_backoff.load(std::memory_order_relaxed);
}

// Wakes one sleeping online scheduler other than `s` to steal from it, unless a spinning one
// will find the work by itself. (A template so that it can take the private Scheduler type.)
template <class Sched>
void wake_other(std::vector<std::unique_ptr<Sched>>& scheds, Sched& s, int online, std::atomic<int>& sleepers,
                std::atomic<int>& spinners) {
    if (sleepers.load(std::memory_order_acquire) == 0 || spinners.load(std::memory_order_acquire) > 0) return;
    s.wakeup_other.store(0, std::memory_order_relaxed);
    for (auto& other : scheds) {
        if (other.get() == &s || other->index >= online) continue;
        bool asleep;
        {
            std::lock_guard lock(other->mutex);
            asleep = other->sleeping && !other->steal_hint;
            if (asleep) {
                other->steal_hint = true;
                other->bump_locked();
            }
        }
        if (asleep) {
            other->wake_sleeper();
            return;
        }
    }
}
}  // namespace

int Schedulers::current_index() { return tls_index; }

Schedulers::Schedulers(VM* vm, int count) : vm_(vm) {
    for (int i = 0; i < count; ++i) {
        auto s = std::make_unique<Scheduler>();
        s->index = i;
        scheds_.push_back(std::move(s));
    }
    online_.store(count, std::memory_order_release);
    vm->procs.quiescence().prepare(count);
    dirty_ = std::make_unique<DirtySchedulers>(*this, vm->dirty_cpu_schedulers > 0 ? vm->dirty_cpu_schedulers : count,
                                               vm->dirty_io_schedulers);
}

int Schedulers::set_online(int n) {
    int old = online_.exchange(n, std::memory_order_acq_rel);
    // Every scheduler looks again: the ones going offline hand their queues over, the ones
    // coming online start stealing.
    for (auto& s : scheds_) {
        {
            std::lock_guard lock(s->mutex);
            s->rebalance = true;
            s->bump_locked();
        }
        s->wake_sleeper();
    }
    return old;
}

Schedulers::MultiState Schedulers::MultiBlock::state_locked() const {
    MultiState st = MultiState::Enabled;
    for (auto& [pid, normal] : blockers) {
        if (!normal) return MultiState::Blocked;
        st = MultiState::BlockedNormal;
    }
    return st;
}

Schedulers::MultiState Schedulers::block_multi_scheduling(Term pid, bool normal) {
    std::lock_guard lock(multi_block_.mutex);
    if (multi_block_.blockers.empty()) multi_block_.saved_online = set_online(1);
    multi_block_.blockers.push_back({pid, normal});
    multi_block_.any.store(true, std::memory_order_release);
    return multi_block_.state_locked();
}

Schedulers::MultiState Schedulers::unblock_multi_scheduling(Term pid, bool normal) {
    std::lock_guard lock(multi_block_.mutex);
    auto& b = multi_block_.blockers;
    auto it = std::find(b.begin(), b.end(), std::pair<Term, bool>{pid, normal});
    if (it != b.end()) {
        b.erase(it);
        if (b.empty()) {
            set_online(multi_block_.saved_online);
            multi_block_.any.store(false, std::memory_order_release);
        }
    }
    return multi_block_.state_locked();
}

void Schedulers::release_multi_scheduling(Term pid) {
    if (!multi_block_.any.load(std::memory_order_acquire)) return;
    std::lock_guard lock(multi_block_.mutex);
    auto& b = multi_block_.blockers;
    size_t before = b.size();
    b.erase(std::remove_if(b.begin(), b.end(), [&](const auto& e) { return e.first == pid; }), b.end());
    if (before && b.empty()) {
        set_online(multi_block_.saved_online);
        multi_block_.any.store(false, std::memory_order_release);
    }
}

std::vector<int64_t> Schedulers::busy_now(int64_t now) {
    std::vector<int64_t> busy;
    for (auto& s : scheds_) busy.push_back(s->busy.busy_ns(now));
    dirty_->busy_ns(now, true, busy);
    return busy;
}

bool Schedulers::set_wall_time(Term pid, bool on) {
    return wall_switch_.set(pid, on, monotonic_ns(), [this](int64_t now) { return busy_now(now); });
}

std::optional<Schedulers::WallTimes> Schedulers::wall_times(bool with_io) {
    auto start = wall_switch_.start();
    if (!start) return std::nullopt;
    int64_t now = monotonic_ns();
    std::vector<int64_t> busy = busy_now(now);
    if (!with_io) busy.resize(size_t(count() + dirty_->cpu_count()));
    for (size_t i = 0; i < busy.size(); ++i) busy[i] -= start->busy[i];
    return WallTimes{now - start->at, std::move(busy)};
}

Schedulers::MultiState Schedulers::multi_scheduling_state() {
    if (!multi_block_.any.load(std::memory_order_acquire)) return MultiState::Enabled;
    std::lock_guard lock(multi_block_.mutex);
    return multi_block_.state_locked();
}

std::vector<Term> Schedulers::multi_scheduling_blockers(bool normal) {
    std::lock_guard lock(multi_block_.mutex);
    std::vector<Term> out;
    for (auto& [t, n] : multi_block_.blockers)
        if (n == normal && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    return out;
}

int Schedulers::reported_online() {
    std::lock_guard lock(multi_block_.mutex);
    return multi_block_.blockers.empty() ? online() : multi_block_.saved_online;
}

int Schedulers::set_reported_online(int n) {
    std::lock_guard lock(multi_block_.mutex);
    if (multi_block_.blockers.empty()) return set_online(n);
    int old = multi_block_.saved_online;
    multi_block_.saved_online = n;
    return old;
}

void Schedulers::hand_over(Scheduler& s) {
    std::vector<std::pair<Process*, int>> moved;
    {
        std::lock_guard lock(s.mutex);
        for (int q = 0; q < 4; ++q) {
            auto& dq = s.queues[q];
            for (auto it = dq.begin(); it != dq.end();) {
                if ((*it)->sched.bound_scheduler.load(std::memory_order_relaxed) != 0) {
                    ++it;
                    continue;
                }
                moved.emplace_back(*it, q);
                it = dq.erase(it);
                s.count_queued(-1);
            }
        }
    }
    for (auto [p, q] : moved) enqueue(s, p, q);  // enqueue sends them to an online scheduler
}

Schedulers::~Schedulers() { stop(); }

void Schedulers::stop() {
    halt(halt_status_.load());
    for (auto& s : scheds_)
        if (s->thread.joinable()) s->thread.join();
}

void Schedulers::start() {
    for (auto& s : scheds_) {
        Scheduler* sp = s.get();
        s->thread = std::thread([this, sp] { loop(*sp); });
    }
}

void Schedulers::halt(int status) {
    bool expected = false;
    if (halting_.compare_exchange_strong(expected, true)) halt_status_.store(status);
    for (auto& s : scheds_) {
        {
            std::lock_guard lock(s->mutex);
            s->bump_locked();
        }
        s->wake_sleeper();
    }
    std::lock_guard lock(done_mutex_);
    done_cv_.notify_all();
}

void Schedulers::user_process_ended() {
    if (live_user_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard lock(done_mutex_);
        done_cv_.notify_all();
    }
}

int Schedulers::wait_until_done() {
    std::unique_lock lock(done_mutex_);
    done_cv_.wait(lock, [this] { return halting() || live_user_.load(std::memory_order_acquire) == 0; });
    return halting() ? halt_status_.load() : 0;
}

int Schedulers::run_until_done() {
    halt(wait_until_done());
    {
        std::lock_guard lock(done_mutex_);
        joining_ = true;
    }
    done_cv_.notify_all();
    for (auto& s : scheds_)
        if (s->thread.joinable()) s->thread.join();
    return halt_status_.load();
}

void Schedulers::activate(Process* p) {
    std::atomic<uint32_t>& st = p->sched.state;
    uint32_t f = st.load(std::memory_order_seq_cst);  // see SignalQueue::take
    for (;;) {
        if (f & EXITED) return;
        if (f & RUNNING) {
            // Its scheduler looks at the signals again before letting it idle.
            if (f & PENDING) return;
            if (st.compare_exchange_weak(f, f | PENDING, std::memory_order_acq_rel)) return;
            continue;
        }
        if (f & QUEUED) return;
        if (st.compare_exchange_weak(f, f | QUEUED, std::memory_order_acq_rel)) break;
    }
    // Like OTP, a process made runnable by another joins the waker's scheduler: message
    // passing stays on one core, and an idle scheduler only steals once work piles up.
    queue_woken(p);
}

void Schedulers::queue_woken(Process* p, int prio) {
    int target = current_index() >= 0 ? current_index() : p->sched.home;
    if (target < 0 || target >= count()) target = 0;
    if (p->sched.stolen_from.load(std::memory_order_relaxed) >= 0) [[unlikely]] note_after_steal(p, target);
    enqueue(*scheds_[size_t(target)], p, prio);
}

void Schedulers::give_back_runnable(Process* p) {
    std::atomic<uint32_t>& st = p->sched.state;
    uint32_t f = st.load(std::memory_order_relaxed);
    uint32_t to;
    do {
        to = f & ~(RUNNING | PENDING);
        if (!(f & (QUEUED | EXITED))) to |= QUEUED;
    } while (!st.compare_exchange_weak(f, to, std::memory_order_acq_rel));
    if ((to & QUEUED) && !(f & QUEUED)) queue_woken(p);
}

void Schedulers::note_after_steal(Process* p, int target, bool paid) {
    int from = p->sched.stolen_from.exchange(-1, std::memory_order_relaxed);
    if (from < 0 || from >= count()) return;
    Scheduler& victim = *scheds_[size_t(from)];
    if (target == from) {
        victim.share_backoff.store(MAX_SHARE_BACKOFF, std::memory_order_relaxed);
        victim.backoff_decay_at.store(victim.reductions.load(std::memory_order_relaxed) + BACKOFF_DECAY_REDUCTIONS,
                                      std::memory_order_relaxed);
    } else if (paid && victim.share_backoff.load(std::memory_order_relaxed)) {
        victim.share_backoff.store(0, std::memory_order_relaxed);
    }
}

void Schedulers::activate_for(Process* p, int prio) {
    ProcessSched& ps = p->sched;
    if (prio >= ps.prio) return activate(p);
    int seen = ps.signal_prio.load(std::memory_order_acquire);
    while (prio < seen && !ps.signal_prio.compare_exchange_weak(seen, prio, std::memory_order_acq_rel)) {
    }
    std::atomic<uint32_t>& st = ps.state;
    uint32_t f = st.load(std::memory_order_seq_cst);  // see SignalQueue::take
    for (;;) {
        if (f & EXITED) return;
        if (f & RUNNING) {  // its scheduler takes the signal in before the process idles
            if (f & PENDING) return;
            if (st.compare_exchange_weak(f, f | PENDING, std::memory_order_acq_rel)) return;
            continue;
        }
        if (f & QUEUED) {
            requeue(p, prio);
            return;
        }
        if (st.compare_exchange_weak(f, f | QUEUED, std::memory_order_acq_rel)) break;
    }
    queue_woken(p, prio);
}

bool Schedulers::requeue(Process* p, int prio) {
    for (auto& s : scheds_) {
        std::lock_guard lock(s->mutex);
        for (int q = prio + 1; q < 4; ++q) {
            auto& dq = s->queues[q];
            for (auto it = dq.begin(); it != dq.end(); ++it) {
                if (*it != p) continue;
                dq.erase(it);
                s->queues[prio].push_back(p);
                return true;
            }
        }
    }
    return false;
}

void Schedulers::enqueue(Scheduler& target, Process* p, int prio) {
    // A process bound with process_flag(scheduler, N) only ever queues on scheduler N.
    int bound = p->sched.bound_scheduler.load(std::memory_order_relaxed);
    Scheduler* sp = &target;
    if (bound > 0 && bound <= count()) sp = scheds_[size_t(bound - 1)].get();
    else if (int on = online(); target.index >= on) sp = scheds_[size_t(target.index % on)].get();
    Scheduler& s = *sp;
    bool share, wake;
    {
        std::lock_guard lock(s.mutex);
        s.queues[prio >= 0 ? prio : p->sched.prio].push_back(p);
        s.count_queued(1);
        share = !s.sleeping && s.queued.load(std::memory_order_relaxed) > 1;
        // One futex wake per sleep: later pushes find the wake already sent.
        wake = s.sleeping && !s.wake_sent;
        if (wake) {
            s.wake_sent = true;
            s.bump_locked();
        }
    }
    if (wake) s.wake_sleeper();
    // The target is busy, has more queued than it takes next, and has had a backlog for a
    // while (wakeup_other, counted in loop()): let a sleeper come and steal, unless a spinning
    // scheduler is about to find the work by itself.
    if (share && s.wakeup_other.load(std::memory_order_relaxed) > share_limit(s, vm_->emu_options.wakeup_other_limit))
        wake_other(scheds_, s, online(), sleepers_, spinners_);
}

Process* Schedulers::pop_local(Scheduler& s) {
    // Max and high run first. Low shares with normal: one low process per 8 normal ones.
    for (int q = 0; q < 2; ++q)
        if (!s.queues[q].empty()) {
            Process* p = s.queues[q].front();
            s.queues[q].pop_front();
            s.count_queued(-1);
            return p;
        }
    bool take_low = !s.queues[3].empty() && (s.queues[2].empty() || ++s.low_credit % 8 == 0);
    int q = take_low ? 3 : 2;
    if (s.queues[q].empty()) return nullptr;
    Process* p = s.queues[q].front();
    s.queues[q].pop_front();
    s.count_queued(-1);
    return p;
}

Process* Schedulers::steal(Scheduler& thief, bool busy_only) {
    for (auto& other : scheds_) {
        if (other.get() == &thief) continue;
        if (other->queued.load(std::memory_order_acquire) == 0) continue;
        // A victim that is not running anything takes its own queue next: stealing from it
        // would only move its process from one core to the other.
        if (busy_only && !other->running.load(std::memory_order_relaxed)) continue;
        // A busy victim's only queued process is left to it, as erl leaves a process just
        // spawned or woken on its parent's scheduler: the parent goes on first (a spawn
        // followed by monitor/2 finds the child alive, as on erl) and runs it when it waits.
        if (busy_only && other->queued.load(std::memory_order_relaxed) < 2) continue;
        // Nor, while spinning, before the victim's backlog is one that would wake a sleeper
        // (count_backlog): stealing a process the moment a second one was queued split a
        // gen_server from its clients, and every call then crossed cores.
        if (busy_only &&
            other->wakeup_other.load(std::memory_order_relaxed) <= share_limit(*other, vm_->emu_options.wakeup_other_limit))
            continue;
        std::unique_lock lock(other->mutex, std::try_to_lock);
        if (!lock.owns_lock() || other->queued == 0) continue;
        // As OTP's try_steal_task_from_victim: the highest priority first, and in it the
        // process that has waited longest (not bound to `other`). Taking the newest instead
        // let a process just spawned or woken overtake older ones that were already queued
        // on a busy scheduler, an order erl never shows (EUnit's progress reports, relayed
        // by one process while a newer one reports directly, came out of order).
        for (int q = 0; q < 4; ++q) {
            auto& dq = other->queues[q];
            for (auto it = dq.begin(); it != dq.end(); ++it) {
                Process* p = *it;
                if (p->sched.bound_scheduler.load(std::memory_order_relaxed) != 0) continue;
                dq.erase(it);
                other->count_queued(-1);
                // The backlog is shared: the victim counts it again from nothing.
                other->wakeup_other.store(0, std::memory_order_relaxed);
                p->sched.stolen_from.store(int16_t(other->index), std::memory_order_relaxed);
                return p;
            }
        }
    }
    return nullptr;
}

Process* Schedulers::next(Scheduler& s) {
    Quiescence& quiescence = vm_->procs.quiescence();
    for (;;) {
        quiescence.quiescent(s.index);  // between two processes: no process found unretained is held
        if (int64_t until = blocked_until_ns_.load(std::memory_order_acquire)) [[unlikely]] {
            // erts_debug:set_internal_state(block, Ms): no process runs until it ends.
            int64_t now = monotonic_ns();
            if (now < until) {
                std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<int64_t>(until - now, 1'000'000)));
                continue;
            }
        }
        // Offline (system_flag(schedulers_online, N) with N <= index): only bound processes
        // stay here, and nothing is stolen.
        bool offline = s.index >= online();
        if (offline) hand_over(s);
        poll_io(s, false);
        {
            std::lock_guard lock(s.mutex);
            if (halting()) return nullptr;
            s.rebalance = false;
            if (Process* p = pop_local(s)) return p;
        }
        if (s.busy.is_busy()) s.busy.idle(monotonic_ns());  // nothing queued here
        if (!offline) {
            if (Process* p = steal(s, true)) return p;
            if (Process* p = spin(s)) return p;
        }
        std::unique_lock lock(s.mutex);
        if (halting()) return nullptr;
        if (s.queued > 0 || s.rebalance) continue;
        if (!tls_profiled_inactive && (vm_->sysprof.flags.load(std::memory_order_relaxed) & profile_flag::SCHEDULER))
            [[unlikely]] {
            // system_profile scheduler: told without the lock (the message may queue the
            // profiler here), then look for work again before sleeping.
            lock.unlock();
            tls_profiled_inactive = true;
            profile_scheduler(*vm_, s.index + 1, false);
            continue;
        }
        s.sleeping = true;
        // The last one asleep: the I/O thread takes over the scheduler pollset (an event
        // that came since this scheduler's last poll fires there at once).
        if (sleepers_.fetch_add(1, std::memory_order_acq_rel) + 1 == count())
            if (SchedulerPollset* ps = pollset_.load(std::memory_order_acquire)) ps->hand_to_io_thread();
        while (!(s.queued > 0 || s.steal_hint || s.rebalance || halting())) {
            // Woken, but what woke it was taken meanwhile (another scheduler stole the
            // process just queued here): the wake is spent, and the next enqueue must send
            // one again. Left set, it muted every later enqueue and this scheduler slept on
            // with processes in its queue (tests/dist/hostile_peer.sh: 3 runs in 11 under load;
            // 0 in 12 after).
            s.wake_sent = false;
            uint32_t seen = s.wake_seq.load(std::memory_order_acquire);
            lock.unlock();
            quiescence.offline(s.index);
            s.sleep_until_bumped(seen);
            quiescence.online(s.index);
            lock.lock();
        }
        sleepers_.fetch_sub(1, std::memory_order_acq_rel);
        s.sleeping = false;
        s.wake_sent = false;
        s.steal_hint = false;
        if (s.rebalance) continue;
        // Woken for work elsewhere: try stealing before our own queue is empty-checked again.
        if (s.queued == 0 && !offline) {
            lock.unlock();
            if (Process* p = steal(s)) return p;
        }
    }
}

Process* Schedulers::spin(Scheduler& s) {
    // At most about as long as a futex wake-up and the context switch after it take, a few
    // times over: a process that sends and then waits for the reply is answered well within
    // it. But a spin that ends with nothing found only burnt a core, and on a loaded machine
    // that core was another thread's (the port system's I/O thread, which would have brought
    // the work): spinning 50 us on every idle moment cost udp_rtt (bench/net_run.sh) 1.8x its
    // CPU time and half its rate at load 15. So the budget adapts, as glibc's adaptive mutex
    // does: halved after a spin that found nothing, doubled after one that found work.
    const int64_t SPIN_MAX_NS = vm_->emu_options.busy_wait_ns;  // set before the schedulers start
    constexpr int64_t SPIN_MIN_NS = 1'000;
    if (SPIN_MAX_NS == 0) return nullptr;  // +sbwt none
    if (tls_spin_budget_ns < 0) tls_spin_budget_ns = SPIN_MAX_NS;
    s.spinning.store(true, std::memory_order_relaxed);
    spinners_.fetch_add(1, std::memory_order_acq_rel);
    bool found_work = false;
    Process* found = nullptr;
    int64_t until = monotonic_ns() + tls_spin_budget_ns;
    for (unsigned i = 1;; ++i) {
        if (s.queued.load(std::memory_order_acquire) > 0 || halting()) {
            found_work = true;
            break;
        }
        if ((found = steal(s, true))) break;  // looks at each queue without its lock first
        if (i % 32 == 0) {
            if (monotonic_ns() > until) break;
            poll_io(s, true);  // a packet for a process here is work found
        }
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    spinners_.fetch_sub(1, std::memory_order_acq_rel);
    s.spinning.store(false, std::memory_order_relaxed);
    tls_spin_budget_ns = found_work || found ? std::min(tls_spin_budget_ns * 2, SPIN_MAX_NS)
                                             : std::min(std::max(tls_spin_budget_ns / 2, SPIN_MIN_NS), SPIN_MAX_NS);
    return found;
}

void Schedulers::poll_io(Scheduler& s, bool now) {
    SchedulerPollset* ps = pollset_.load(std::memory_order_acquire);
    if (!ps) return;
    if (!now) {
        int64_t reds = s.reductions.load(std::memory_order_relaxed);
        if (reds - s.poll_check_reds < POLL_CHECK_REDUCTIONS && ++s.poll_check_calls < POLL_CHECK_CALLS) return;
        s.poll_check_reds = reds;
        s.poll_check_calls = 0;
    }
    int64_t t = monotonic_ns();
    if (!now && t - s.polled_ns < POLL_EVERY_NS) return;
    s.polled_ns = t;
    last_poll_ns_.store(t, std::memory_order_relaxed);
    ps->poll_now();
}

void Schedulers::loop(Scheduler& s) {
    tls_index = s.index;
    Quiescence::Member member(vm_->procs.quiescence(), s.index);
    ThreadNodeScope node_scope(vm_->node);  // term order and printing of ids (vm/node_identity.hpp)
    s.busy.busy(monotonic_ns());
    while (Process* p = next(s)) {
        if (!s.busy.is_busy()) s.busy.busy(monotonic_ns());
        if (tls_profiled_inactive) [[unlikely]] {
            tls_profiled_inactive = false;
            profile_scheduler(*vm_, s.index + 1, true);
        }
        // QUEUED -> RUNNING; a borrower (process_info) may hold RUNNING for a moment.
        std::atomic<uint32_t>& st = p->sched.state;
        uint32_t f = st.load(std::memory_order_acquire);
        for (;;) {
            if (f & RUNNING) {
                std::this_thread::yield();
                f = st.load(std::memory_order_acquire);
                continue;
            }
            if (st.compare_exchange_weak(f, (f & ~QUEUED) | RUNNING, std::memory_order_seq_cst)) break;
        }
        int64_t reds_before = s.reductions.load(std::memory_order_relaxed);
        if (int b = s.share_backoff.load(std::memory_order_relaxed);
            b > 0 && reds_before >= s.backoff_decay_at.load(std::memory_order_relaxed)) [[unlikely]] {
            s.share_backoff.store(b - 1, std::memory_order_relaxed);
            s.backoff_decay_at.store(reds_before + BACKOFF_DECAY_REDUCTIONS, std::memory_order_relaxed);
        }
        {
            TimeSlice slice;  // output held during the slice goes out when it ends
            run_one(s, p);
        }
        if (count_backlog(s, s.reductions.load(std::memory_order_relaxed) - reds_before,
                          share_limit(s, vm_->emu_options.wakeup_other_limit)))
            wake_other(scheds_, s, online(), sleepers_, spinners_);
    }
    if (vm_->exit_process_when_done) {
        // The OS process is about to end (vm/runner.cpp), unless run_until_done joins the
        // threads after all: waiting for either lets the exit stop this thread, where ending
        // it ran its allocator heap's clean-up, millions of instructions after loading code.
        std::unique_lock lock(done_mutex_);
        done_cv_.wait(lock, [this] { return joining_; });
    }
}

bool Schedulers::borrow(Process* p) {
    std::atomic<uint32_t>& st = p->sched.state;
    for (int tries = 0; tries < 200000; ++tries) {
        uint32_t f = st.load(std::memory_order_acquire);
        if (f & EXITED) return false;
        if (!(f & RUNNING) && st.compare_exchange_weak(f, f | RUNNING, std::memory_order_seq_cst)) return true;
        std::this_thread::yield();
    }
    return false;
}

void Schedulers::exit_borrowed(Process* p, Term reason) {
    if (p->sched.state.load(std::memory_order_acquire) & QUEUED) {
        p->sched.exit_pending = true;
        p->sched.exit_reason = reason;
        give_back(p, false);
        return;
    }
    exit_process(*vm_, p, reason);
}

void Schedulers::give_back(Process* p, bool woken) {
    if (woken) p->sched.waiting = false;
    std::atomic<uint32_t>& st = p->sched.state;
    uint32_t f = st.load(std::memory_order_acquire);
    while (!st.compare_exchange_weak(f, f & ~(RUNNING | PENDING), std::memory_order_acq_rel)) {
    }
    if ((f & (QUEUED | EXITED)) == 0 && (woken || (f & PENDING))) activate(p);
}

bool Schedulers::go_idle(Process* p) {
    std::atomic<uint32_t>& st = p->sched.state;
    uint32_t f = st.load(std::memory_order_acquire);
    for (;;) {
        if (f & PENDING) {
            if (st.compare_exchange_weak(f, f & ~PENDING, std::memory_order_acq_rel)) return true;
            continue;
        }
        if (st.compare_exchange_weak(f, f & ~RUNNING, std::memory_order_acq_rel)) return false;
    }
}

std::vector<size_t> Schedulers::queue_lengths(bool with_running) {
    std::vector<size_t> out;
    for (auto& s : scheds_) {
        std::lock_guard lock(s->mutex);
        out.push_back(s->queued + (with_running && s->running.load(std::memory_order_relaxed) ? 1 : 0));
    }
    return out;
}

int64_t Schedulers::total_reductions() const {
    int64_t sum = 0;
    for (auto& s : scheds_) sum += s->reductions.load(std::memory_order_relaxed);
    return sum;
}

uint64_t Schedulers::total_slices() const {
    uint64_t sum = 0;
    for (auto& s : scheds_) sum += s->slices.load(std::memory_order_relaxed);
    return sum;
}

void Schedulers::await_running_slices() {
    int self = current_index();
    std::vector<std::pair<Scheduler*, uint64_t>> busy;
    for (auto& sc : scheds_)
        if (sc->index != self && sc->running.load(std::memory_order_acquire))
            busy.push_back({sc.get(), sc->slices.load(std::memory_order_acquire)});
    if (busy.empty()) return;
    Scheduler* me = self >= 0 && size_t(self) < scheds_.size() ? scheds_[size_t(self)].get() : nullptr;
    if (me) me->in_barrier.store(true, std::memory_order_release);
    // Two schedulers waiting for each other's slice would wait forever: one that waits here
    // counts as past its slice.
    for (auto& [sc, seen] : busy)
        while (sc->slices.load(std::memory_order_acquire) == seen && sc->running.load(std::memory_order_acquire) &&
               !sc->in_barrier.load(std::memory_order_acquire))
            std::this_thread::yield();
    if (me) me->in_barrier.store(false, std::memory_order_release);
}

void Schedulers::run_one(Scheduler& s, Process* p) {
    struct Running {
        Scheduler& s;
        explicit Running(Scheduler& sc) : s(sc) { s.running.store(true, std::memory_order_relaxed); }
        ~Running() {
            s.running.store(false, std::memory_order_relaxed);
            s.slices.fetch_add(1, std::memory_order_release);
        }
    } running(s);
    p->sched.home = s.index;
    for (;;) {
        // Clear PENDING before looking at the inbox: a signal pushed after this is seen by
        // go_idle, one pushed before it is in the batch.
        if (p->sched.state.load(std::memory_order_acquire) & PENDING)
            p->sched.state.fetch_and(~PENDING, std::memory_order_acq_rel);
        if (p->sched.exit_pending) {  // ended by a borrower while queued (exit_borrowed)
            exit_process(*vm_, p, p->sched.exit_reason);
            return;
        }
        int signal_prio = p->sched.signal_prio.load(std::memory_order_acquire);
        if (signal_prio != ProcessSched::NO_SIGNAL_PRIO)
            signal_prio = p->sched.signal_prio.exchange(ProcessSched::NO_SIGNAL_PRIO, std::memory_order_acq_rel);
        SignalResult sr = handle_signals(*vm_, p);
        if (sr.exit) {
            // erl schedules a process in to exit (an `in` event at the function it waited in).
            if (trace_flags_of(p) & (trace_flag::RUNNING | trace_flag::RUNNING_PROCS)) trace_sched(p, "in");
            exit_process(*vm_, p, sr.reason);
            return;
        }
        run_system_tasks(*vm_, p);
        if (p->sched.suspend_count.load(std::memory_order_acquire) > 0) {
            // Suspended (scheduler/suspend.hpp): no code runs; a wake-up is kept for the resume,
            // which activates it again.
            if (sr.new_messages > 0 || p->timed_out) p->sched.waiting = false;
            if (!go_idle(p)) return;
            continue;
        }
        bool runnable = !p->sched.waiting || sr.new_messages > 0 || p->timed_out;
        if (runnable && signal_prio < p->sched.prio) {
            // Run at a borrowed priority for the signals only: the code runs at its own.
            std::atomic<uint32_t>& st = p->sched.state;
            uint32_t f = st.load(std::memory_order_acquire);
            while (!st.compare_exchange_weak(f, (f & ~(RUNNING | PENDING)) | QUEUED, std::memory_order_acq_rel)) {
            }
            enqueue(s, p);
            return;
        }
        if (runnable && !halting()) {
            if (vm_->sysprof.flags.load(std::memory_order_relaxed) & profile_flag::RUNNABLE_PROCS) [[unlikely]]
                profile_process(p, true, p->sched.waiting);
            p->sched.waiting = false;
            bool timed = vm_->sysmon.flags.load(std::memory_order_relaxed) & sysmon_flag::LONG_SCHEDULE;
            const Word* in_pc = p->pc;
            constexpr uint32_t SCHED = trace_flag::RUNNING | trace_flag::RUNNING_PROCS;
            if (trace_flags_of(p) & SCHED) trace_sched(p, "in");
            int64_t slice_start = timed ? monotonic_ns() : 0;
            int64_t reds_before = p->reductions;
            RunStatus rs = execute(p);
            s.reductions.store(s.reductions.load(std::memory_order_relaxed) + (p->reductions - reds_before),
                               std::memory_order_relaxed);
            if (timed) [[unlikely]] sysmon_after_slice(p, monotonic_ns() - slice_start, in_pc, p->pc);
            if ((rs == RunStatus::Yielded || rs == RunStatus::Waiting) && (trace_flags_of(p) & SCHED))
                trace_sched(p, "out");
            switch (rs) {
            case RunStatus::Yielded: {
                // Still runnable after its slice: it stays queued here.
                if (p->sched.stolen_from.load(std::memory_order_relaxed) >= 0) note_after_steal(p, s.index, true);
                std::atomic<uint32_t>& st = p->sched.state;
                uint32_t f = st.load(std::memory_order_acquire);
                while (!st.compare_exchange_weak(f, (f & ~(RUNNING | PENDING)) | QUEUED, std::memory_order_acq_rel)) {
                }
                enqueue(s, p);
                return;
            }
            case RunStatus::Waiting:
                // A stolen process that did a good part of a slice's work here was worth the
                // move, whoever wakes it next; one that did little is judged by where its next
                // wake-up puts it.
                if (p->sched.stolen_from.load(std::memory_order_relaxed) >= 0 &&
                    p->reductions - reds_before >= STEAL_PAYS_REDUCTIONS)
                    note_after_steal(p, s.index, true);
                run_system_tasks(*vm_, p);  // taken in by the receive that now waits
                p->sched.waiting = true;
                p->waited_since_gc = true;  // not "hot" for the young-heap sizing (vm/gc.cpp)
                break;
            case RunStatus::Exited:
                exit_process(*vm_, p, am::normal);
                return;
            case RunStatus::Crashed:
                exit_process(*vm_, p, crash_reason(p));
                return;
            case RunStatus::Killed:
                exit_process(*vm_, p, p->sched.exit_reason);
                return;
            case RunStatus::Dirty:
                // Still RUNNING: no normal scheduler takes it until its dirty step returns.
                if (trace_flags_of(p) & SCHED) trace_sched(p, "out");
                dirty_->submit(p, p->rare().nif.dirty);
                return;
            case RunStatus::Halted:
                halt(p->halt_status);
                p->sched.state.fetch_and(~RUNNING, std::memory_order_acq_rel);
                return;
            }
        }
        if (p->sched.waiting && (vm_->sysprof.flags.load(std::memory_order_relaxed) & profile_flag::RUNNABLE_PROCS))
            [[unlikely]] profile_process(p, false);
        if (!go_idle(p)) return;
    }
}

}  // namespace beam

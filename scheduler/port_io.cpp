// The I/O thread of the port system: one epoll set per VM with every port's pipes, every
// child's pidfd and an eventfd to wake it. Event driven throughout: it sleeps in epoll_wait
// until a pipe is readable or writable, a child exits, a grace period ends (the timeout is
// the nearest deadline) or a flow-controlled owner has caught up.
//
// Fairness: one read of at most READ_CHUNK bytes per port per wake-up, so a child that floods
// its output shares the thread with the others; flow control (FlowCredit) stops reading a
// port whose owner has more than FlowCredit::HIGH bytes not yet taken in, and the pipe's own
// limit then stops the child. The schedulers never wait on a child.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "bifs/bif_util.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/signals.hpp"
#include "vm/binary.hpp"
#include "vm/clocks.hpp"
#include "vm/vm.hpp"

namespace beam {


namespace {

constexpr size_t READ_CHUNK = 64 * 1024;
// An owner with this many messages in its mailbox (taken in but not received) stops its
// ports' reading until it is down to MAILBOX_LOW: the receive that gets it there writes this
// thread's eventfd (Process::ports_waiting, vm/process.hpp).
constexpr size_t MAILBOX_HIGH = 64;
constexpr size_t MAILBOX_LOW = Process::PORTS_RESUME_AT;

// How often the I/O thread looks whether a child held by its pid alone has ended.
constexpr int PIDLESS_POLL_MS = 5;

int send_signal(const Child& c, int sig) {
    if (c.pidfd < 0) return ::kill(c.os_pid, sig);  // not reaped yet, so still our child's pid
    return static_cast<int>(syscall(SYS_pidfd_send_signal, c.pidfd, sig, nullptr, 0));
}

}  // namespace

PortSystem::PortSystem(VM& v) : vm(v) {}

PortSystem::~PortSystem() {
    if (vm.scheds) vm.scheds->set_pollset(nullptr);
    if (thread_.joinable()) {
        stop_ = true;
        wake();
        thread_.join();
    }
    for (int fd : {epoll_, sched_epoll_, wake_fd_})
        if (fd >= 0) ::close(fd);
}

void PortSystem::start_io() {
    if (epoll_ >= 0) return;
    // A child that closes its stdin must make our write fail with EPIPE, not kill the VM.
    struct sigaction old {};
    sigaction(SIGPIPE, nullptr, &old);
    if (old.sa_handler == SIG_DFL) std::signal(SIGPIPE, SIG_IGN);
    epoll_ = epoll_create1(EPOLL_CLOEXEC);
    wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    watch(wake_fd_, KEY_WAKE, EPOLLIN);
    // Armed from the start: the schedulers may all be asleep already (a NIF thread's
    // enif_select or a dirty scheduler can start the poller).
    sched_epoll_ = epoll_create1(EPOLL_CLOEXEC);
    watch(sched_epoll_, KEY_SCHED, EPOLLIN | EPOLLONESHOT);
    if (vm.scheds) vm.scheds->set_pollset(this);
    thread_ = std::thread([this] { run(); });
    io_started_.store(true, std::memory_order_release);
}

void PortSystem::watch(int fd, uint64_t key, uint32_t events, bool sched) {
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = key;
    if (epoll_ctl(sched ? sched_epoll_ : epoll_, EPOLL_CTL_ADD, fd, &ev) != 0) {
        if (errno == EPERM) {
            always_ready_[fd] = {key, events};
            wake();  // the I/O thread may be asleep in epoll_wait with no deadline
        }
        return;
    }
    if (sched) {
        sched_fds_.insert(fd);
        // The first descriptor in the set: the I/O thread looks again (as register_watcher).
        if (sched_watchers_.fetch_add(1, std::memory_order_relaxed) == 0) wake();
    }
}

void PortSystem::rewatch(int fd, uint64_t key, uint32_t events) {
    epoll_event ev{};
    ev.events = events;
    ev.data.u64 = key;
    if (auto it = always_ready_.find(fd); it != always_ready_.end()) {
        it->second = {key, events};
        if (events) wake();
        return;
    }
    epoll_ctl(sched_fds_.count(fd) ? sched_epoll_ : epoll_, EPOLL_CTL_MOD, fd, &ev);
}

void PortSystem::unwatch(int fd) {
    if (always_ready_.erase(fd)) return;
    bool sched = sched_fds_.erase(fd) != 0;
    epoll_ctl(sched ? sched_epoll_ : epoll_, EPOLL_CTL_DEL, fd, nullptr);
    if (sched) sched_watchers_.fetch_sub(1, std::memory_order_relaxed);
}

IoHandle PortSystem::register_watcher(int fd, std::shared_ptr<IoWatcher> w, bool level, bool sched) {
    if (!io_started_.load(std::memory_order_acquire)) {  // `mu` is not held here (at most a port's lock)
        std::lock_guard lock(mu);
        start_io();
    }
    sched = sched || level;
    IoHandle h;
    {
        std::lock_guard lock(watch_mu_);
        h = next_watch_++;
        watchers_.emplace(h, Watched{fd, std::move(w), level, sched});
    }
    epoll_event ev{};
    ev.events = EPOLLONESHOT;
    ev.data.u64 = h;
    // The first descriptor in the scheduler pollset: the I/O thread, which may be asleep
    // without its watchdog while the set was empty (run()), looks again.
    bool first_sched = sched && sched_watchers_.fetch_add(1, std::memory_order_relaxed) == 0;
    epoll_ctl(sched ? sched_epoll_ : epoll_, EPOLL_CTL_ADD, fd, &ev);
    if (first_sched) wake();
    return h;
}

// The epoll_ctl calls are made after the table's lock: schedulers polling at once met on it
// (a 1 KiB TCP echo's most frequent futex calls). A handle's arm and forget never run at
// once (its owner calls them under its own lock: a port's, a socket's, a select state's).
void PortSystem::arm_watcher(IoHandle h, uint32_t events) {
    Watched found;
    {
        std::lock_guard lock(watch_mu_);
        auto it = watchers_.find(h);
        if (it == watchers_.end()) return;
        found = Watched{it->second.fd, nullptr, it->second.level, it->second.sched};
    }
    epoll_event ev{};
    // A level watcher with nothing wanted is parked as a fired one-shot: a hung-up socket
    // reports EPOLLHUP whatever the mask, once then, not at every wait.
    ev.events = events && found.level ? events : (events | EPOLLONESHOT);
    ev.data.u64 = h;
    epoll_ctl(found.sched ? sched_epoll_ : epoll_, EPOLL_CTL_MOD, found.fd, &ev);
}

void PortSystem::forget_watcher(IoHandle h) {
    Watched gone;
    {
        std::lock_guard lock(watch_mu_);
        auto it = watchers_.find(h);
        if (it == watchers_.end()) return;
        gone = std::move(it->second);
        watchers_.erase(it);
    }
    epoll_ctl(gone.sched ? sched_epoll_ : epoll_, EPOLL_CTL_DEL, gone.fd, nullptr);
    if (gone.sched) sched_watchers_.fetch_sub(1, std::memory_order_relaxed);
}

// Watchers' events, before the port system's lock is taken: a watcher may take it itself.
void PortSystem::dispatch_watchers(const epoll_event* evs, int n) {
    for (int i = 0; i < n; ++i) {
        uint64_t key = evs[i].data.u64;
        if (key == KEY_WAKE || key_kind(key) != 0) continue;
        std::shared_ptr<IoWatcher> w;
        {
            std::lock_guard lock(watch_mu_);
            auto it = watchers_.find(key);
            if (it == watchers_.end()) continue;
            w = it->second.w;
        }
        w->on_io(evs[i].events);
    }
}

void PortSystem::poll_now() {
    // Nothing in the set (no socket open anywhere): no system call. Schedulers poll every
    // 100 us between processes; on bench/real/svc_genserver_ets, which opens no socket,
    // those empty epoll_waits were 1.5% of the run (perf). A descriptor's readiness stays
    // pending in the set (level-triggered) until a poll that follows its registration.
    if (sched_watchers_.load(std::memory_order_relaxed) == 0) return;
    epoll_event evs[64];
    int n = epoll_wait(sched_epoll_, evs, 64, 0);
    if (n > 0) {
        dispatch_watchers(evs, n);
        read_polled_ports(evs, n);
    }
}

void PortSystem::read_polled_ports(const epoll_event* evs, int n) {
    for (int i = 0; i < n; ++i) {
        uint64_t key = evs[i].data.u64;
        if (key_kind(key) != 1) continue;
        LockedPort p = lock_port_number(key_id(key));
        std::lock_guard lock(mu);
        // Level-triggered, so two pollers may both be told: the second read finds nothing.
        if (p) on_readable(p.get());
    }
}

void PortSystem::hand_to_io_thread() {
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLONESHOT;
    ev.data.u64 = KEY_SCHED;
    epoll_ctl(epoll_, EPOLL_CTL_MOD, sched_epoll_, &ev);
}

IoHandle io_register(VM& vm, int fd, std::shared_ptr<IoWatcher> w, bool scheduler_polled) {
    return ports_of(vm).register_watcher(fd, std::move(w), false, scheduler_polled);
}
void io_arm(VM& vm, IoHandle h, uint32_t events) { ports_of(vm).arm_watcher(h, events); }
void io_forget(VM& vm, IoHandle h) { ports_of(vm).forget_watcher(h); }

void PortSystem::wake() {
    uint64_t one = 1;
    [[maybe_unused]] ssize_t w = ::write(wake_fd_, &one, sizeof one);
}

void PortSystem::try_write(Port* p) {
    while (!p->pending.empty()) {
        ssize_t w = ::write(p->to_child, p->pending.data(), p->pending.size());
        if (w > 0) {
            p->pending.erase(0, static_cast<size_t>(w));
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) {
            if (!p->write_watched) watch(p->to_child, key_write(p->number), EPOLLOUT);
            p->write_watched = true;
            return;
        }
        p->pending.clear();  // the child closed its stdin: what it will not read is dropped
    }
    if (p->write_watched) unwatch(p->to_child);
    p->write_watched = false;
}

// After each wait: the events that are not watchers' (pipes, pidfds, the eventfd), then
// timers and the termination policy, then the next timeout. Watchers' events (every socket)
// went to their ports before, each under its port's lock only.
void PortSystem::run() {
    epoll_event evs[64];
    int n = 0;
    while (!stop_) {
        handle_port_events(evs, n);
        const bool pidless = poll_pidless_children();
        int timeout;
        {
            std::lock_guard lock(mu);
            timeout = next_timeout_ms();
            for (auto& [fd, want] : always_ready_)
                if (want.second != 0) timeout = 0;
            if (pidless && (timeout < 0 || timeout > PIDLESS_POLL_MS)) timeout = PIDLESS_POLL_MS;
            poll_until = timeout < 0 ? std::chrono::steady_clock::time_point::max()
                                     : std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout);
        }
        // While the schedulers own the pollset and it holds a descriptor, this thread looks
        // every WATCHDOG_MS whether any of them has polled it lately, and polls it itself if
        // none has. An empty set needs no watchdog: compiling OTP modules (no socket open)
        // woke this thread 1,000 times a second for nothing.
        const bool watchdog =
            vm.scheds && !vm.scheds->all_asleep() && sched_watchers_.load(std::memory_order_relaxed) > 0;
        if (watchdog && (timeout < 0 || timeout > WATCHDOG_MS)) timeout = WATCHDOG_MS;
        n = epoll_wait(epoll_, evs, 64, timeout);
        if (n < 0 && errno != EINTR) break;
        if (n < 0) n = 0;
        dispatch_watchers(evs, n);
        if (watchdog && !vm.scheds->all_asleep() &&
            monotonic_ns() - vm.scheds->last_poll_ns() > WATCHDOG_MS * 1'000'000)
            poll_now();
    }
}

// With no lock held: each pipe event under its port's lock and then `mu`.
void PortSystem::handle_port_events(const epoll_event* evs, int n) {
    std::vector<epoll_event> ready(evs, evs + n);
    {
        std::lock_guard lock(mu);
        for (auto& [fd, want] : always_ready_) {
            if (want.second == 0) continue;
            epoll_event ev{};
            ev.events = want.second;
            ev.data.u64 = want.first;
            ready.push_back(ev);
        }
    }
    for (const epoll_event& ev : ready) {
        uint64_t key = ev.data.u64;
        uint64_t kind = key_kind(key), id = key_id(key);
        if (key == KEY_SCHED) {
            // The schedulers were all asleep: this thread serves the set until one is awake
            // (the messages posted here wake one), then it is theirs again.
            poll_now();
            if (!vm.scheds || vm.scheds->all_asleep()) hand_to_io_thread();
        } else if (key == KEY_WAKE) {
            uint64_t count;
            [[maybe_unused]] ssize_t r = ::read(wake_fd_, &count, sizeof count);
        } else if (kind == 1 || kind == 2) {
            LockedPort p = lock_port_number(id);
            std::lock_guard lock(mu);
            if (!p) {
                if (kind == 2 && drains.count(id)) drain_step(id);
                continue;
            }
            if (kind == 1) on_readable(p.get());
            else try_write(p.get());
        } else if (kind == 3) {
            child_exited(static_cast<int>(id));
        }  // kind 0: a watcher's, dispatched already
    }
    auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mu);
        advance_policy(now);
    }
    fire_driver_timers(now);
    resume_readers();
}

void PortSystem::on_readable(Port* p) {
    if (p->from_child < 0 || p->read_paused) return;
    char buf[READ_CHUNK];
    ssize_t r = ::read(p->from_child, buf, sizeof buf);
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (r <= 0) {
        input_ended(p);  // may terminate the port
        return;
    }
    p->bytes_in += static_cast<uint64_t>(r);
    deliver_input(p, buf, static_cast<size_t>(r));
    if (owner_mailbox_len(p) > MAILBOX_HIGH && pause_for_mailbox(p)) {
        rewatch(p->from_child, key_read(p->number), 0);
        p->read_paused = true;
        paused_readers_.insert(p->number);
        p->paused_for_mailbox = true;
        return;
    }
    FlowCredit& fc = *p->credit;
    if (fc.outstanding.load() > FlowCredit::HIGH) {
        fc.paused = true;
        if (fc.outstanding.load() <= FlowCredit::LOW && fc.paused.exchange(false)) return;  // caught up meanwhile
        rewatch(p->from_child, key_read(p->number), 0);
        p->read_paused = true;
        paused_readers_.insert(p->number);
    }
}

// Asks the owner to wake this thread when its mailbox is short again; false when it already
// is (the receive happened meanwhile), so reading goes on.
bool PortSystem::pause_for_mailbox(Port* p) {
    Process* owner = vm.procs.lookup(p->owner);
    if (!owner) return false;
    owner->ports_wake_fd.store(wake_fd_, std::memory_order_release);
    owner->ports_waiting.store(true, std::memory_order_seq_cst);
    bool paused = owner->mailbox_len.load(std::memory_order_seq_cst) > MAILBOX_LOW;
    ProcessTable::release(owner);
    return paused;
}

size_t PortSystem::owner_mailbox_len(Port* p) {
    Process* owner = vm.procs.lookup(p->owner);
    if (!owner) return 0;
    size_t n = owner->mailbox_len.load(std::memory_order_relaxed);
    ProcessTable::release(owner);
    return n;
}

// Only the paused ports are visited: the loop runs at every wake-up of the I/O thread, which
// may carry thousands of sockets. With no lock held.
void PortSystem::resume_readers() {
    std::vector<uint64_t> paused;
    {
        std::lock_guard lock(mu);
        if (paused_readers_.empty()) return;
        paused.assign(paused_readers_.begin(), paused_readers_.end());
    }
    for (uint64_t n : paused) {
        LockedPort p = lock_port_number(n);
        std::lock_guard lock(mu);
        if (!p || !p->read_paused) {
            paused_readers_.erase(n);
            continue;
        }
        if (p->credit->paused.load()) continue;
        if (p->paused_for_mailbox && owner_mailbox_len(p.get()) > MAILBOX_LOW) continue;
        p->paused_for_mailbox = false;
        p->read_paused = false;
        paused_readers_.erase(n);
        rewatch(p->from_child, key_read(n), READ_EVENTS);
    }
}

// {Port, {data, D}} in the port's framing: a chunk as read (stream), one packet after its
// 1/2/4-byte big-endian length ({packet, N}), or a line ({eol, L} / {noeol, Part}).
void PortSystem::deliver_input(Port* p, const char* bytes, size_t n) {
    const PortSettings& s = p->settings;
    auto data_of = [&](TermAllocator& a, const char* b, size_t len) {
        return s.binary ? make_binary(a, reinterpret_cast<const uint8_t*>(b), len)
                        : make_byte_list(a, reinterpret_cast<const uint8_t*>(b), len);
    };
    auto send = [&](Term payload, size_t len) {
        LiteralArea scratch;
        post_data(p, make_tuple(scratch, {p->id, make_tuple(scratch, {atom("data"), payload})}), len);
    };
    if (s.packet == 0 && s.line == 0) {
        LiteralArea scratch;
        send(data_of(scratch, bytes, n), n);
        return;
    }
    p->partial.append(bytes, n);
    size_t at = 0;
    std::string& b = p->partial;
    if (s.packet) {
        while (b.size() - at >= static_cast<size_t>(s.packet)) {
            size_t len = 0;
            for (int i = 0; i < s.packet; ++i) len = (len << 8) | static_cast<uint8_t>(b[at + i]);
            if (b.size() - at - s.packet < len) break;
            LiteralArea scratch;
            send(data_of(scratch, b.data() + at + s.packet, len), len);
            at += s.packet + len;
        }
    } else {
        while (at < b.size()) {
            size_t nl = b.find('\n', at);
            size_t len = (nl == std::string::npos ? b.size() : nl) - at;
            LiteralArea scratch;
            if (len > s.line) {
                send(make_tuple(scratch, {atom("noeol"), data_of(scratch, b.data() + at, s.line)}), s.line);
                at += s.line;
            } else if (nl != std::string::npos) {
                send(make_tuple(scratch, {atom("eol"), data_of(scratch, b.data() + at, len)}), len);
                at = nl + 1;
            } else {
                break;
            }
        }
    }
    b.erase(0, at);
}

// With `eof`, the port stays open at the end of output and reports {Port, eof}; with
// exit_status too, the status comes first (as erl reports them), so eof waits for the reaping.
void PortSystem::report_eof(Port* p) {
    if (p->eof_reported || (p->settings.exit_status && !p->reaped)) return;
    p->eof_reported = true;
    LiteralArea scratch;
    if (p->settings.exit_status)
        post_message(vm, p->owner,
                     make_tuple(scratch, {p->id, make_tuple(scratch, {atom("exit_status"), make_small(p->exit_status)})}));
    post_message(vm, p->owner, make_tuple(scratch, {p->id, atom("eof")}));
}

void PortSystem::input_ended(Port* p) {
    if (p->settings.line && !p->partial.empty()) {
        LiteralArea scratch;
        const std::string& b = p->partial;
        Term part = p->settings.binary ? make_binary(scratch, b) : make_string(scratch, b);
        post_data(p, make_tuple(scratch, {p->id, make_tuple(scratch, {atom("data"), make_tuple(scratch, {atom("noeol"), part})})}),
                  b.size());
    }
    p->partial.clear();
    unwatch(p->from_child);
    if (p->own_fds) ::close(p->from_child);
    p->from_child = -1;
    p->saw_eof = true;
    if (p->settings.eof) {
        report_eof(p);
        return;
    }
    maybe_finish(p);
}

// Without `eof`, the port closes once its output has ended and, with exit_status, the child
// has been reaped: the status comes after the last data, as in OTP.
void PortSystem::maybe_finish(Port* p) {
    if (!p->saw_eof || (p->settings.exit_status && !p->reaped)) return;
    if (p->settings.exit_status) {
        LiteralArea scratch;
        post_message(vm, p->owner,
                     make_tuple(scratch, {p->id, make_tuple(scratch, {atom("exit_status"), make_small(p->exit_status)})}));
    }
    terminate(p, am::normal, true);
}

bool PortSystem::poll_pidless_children() {
    std::vector<pid_t> pids;
    {
        std::lock_guard lock(mu);
        for (auto& c : children)
            if (c->pidfd < 0) pids.push_back(c->os_pid);
    }
    for (pid_t pid : pids) {
        siginfo_t info{};
        // WNOWAIT: on_child_exit reaps it, under the locks.
        if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid != 0)
            child_exited(-1, pid);
    }
    return !pids.empty();
}

// A child's pidfd is readable, or a child held by its pid has ended. Its port (while it runs)
// is locked before `mu`: the child is looked up once to learn the port, then again under both
// locks.
void PortSystem::child_exited(int pidfd, pid_t os_pid) {
    auto find_child = [&]() -> Child* {
        auto it = std::find_if(children.begin(), children.end(), [&](const auto& c) {
            return pidfd >= 0 ? c->pidfd == pidfd : c->pidfd < 0 && c->os_pid == os_pid;
        });
        return it == children.end() ? nullptr : it->get();
    };
    uint64_t port = 0;
    bool running;
    {
        std::lock_guard lock(mu);
        Child* c = find_child();
        if (!c) return;
        running = c->state == ChildState::Running;
        port = c->port;
    }
    LockedPort p;
    if (running) p = lock_port_number(port);
    std::lock_guard lock(mu);
    Child* c = find_child();
    if (!c) return;
    // Its port is closing on another thread (out of the table, its terminate not yet at the
    // child): the pidfd stays readable, so the next wake-up comes back here.
    if (c->state == ChildState::Running && !p) return;
    on_child_exit(c, c->state == ChildState::Running ? p.get() : nullptr);
}

void PortSystem::on_child_exit(Child* c, Port* p) {
    siginfo_t info{};
    bool by_pidfd = c->pidfd >= 0;
    if (waitid(by_pidfd ? static_cast<idtype_t>(P_PIDFD) : P_PID, static_cast<id_t>(by_pidfd ? c->pidfd : c->os_pid),
               &info, WEXITED | WNOHANG) != 0 ||
        info.si_pid == 0)
        return;
    int status = info.si_code == CLD_EXITED ? info.si_status : 128 + info.si_status;
    if (by_pidfd) {
        unwatch(c->pidfd);
        ::close(c->pidfd);
    }
    reaped++;
    for (auto& [n, d] : drains)
        if (d.child == c) d.child = nullptr;
    std::erase_if(children, [&](const auto& x) { return x.get() == c; });
    if (!p) return;
    p->child = nullptr;
    p->reaped = true;
    p->exit_status = status;
    if (p->from_child < 0) p->saw_eof = true;  // an `out` port has no output to wait for
    if (p->settings.eof) {
        if (p->saw_eof) report_eof(p);
        return;
    }
    maybe_finish(p);
}

void PortSystem::drain_step(uint64_t port) {
    Drain& d = drains[port];
    while (!d.pending.empty()) {
        ssize_t w = ::write(d.fd, d.pending.data(), d.pending.size());
        if (w > 0) {
            d.pending.erase(0, static_cast<size_t>(w));
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) return;
        break;  // the child closed its stdin
    }
    end_drain(port);
}

// The child's stdin closes; its grace period before SIGTERM starts now.
void PortSystem::end_drain(uint64_t port) {
    auto it = drains.find(port);
    if (it == drains.end()) return;
    unwatch(it->second.fd);
    ::close(it->second.fd);
    if (Child* c = it->second.child) {
        c->state = ChildState::StdinClosed;
        c->deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(c->grace_ms);
    }
    drains.erase(it);
}

void PortSystem::advance_policy(std::chrono::steady_clock::time_point now) {
    for (auto& c : children) {
        if (c->state == ChildState::Running || c->state == ChildState::KillSent || c->deadline > now) continue;
        if (c->state == ChildState::Draining) {
            for (auto& [n, d] : drains)
                if (d.child == c.get()) {
                    end_drain(n);  // the child took too long: what is left is dropped
                    break;
                }
        } else if (c->state == ChildState::StdinClosed) {
            send_signal(*c, SIGTERM);
            term_sent++;
            c->state = ChildState::TermSent;
            c->deadline = now + std::chrono::milliseconds(c->grace_ms);
        } else {
            send_signal(*c, SIGKILL);
            kill_sent++;
            c->state = ChildState::KillSent;
        }
    }
}

int PortSystem::next_timeout_ms() {
    auto now = std::chrono::steady_clock::now();
    int64_t best = -1;
    for (auto& c : children) {
        if (c->state == ChildState::Running || c->state == ChildState::KillSent) continue;
        auto ms = std::chrono::ceil<std::chrono::milliseconds>(c->deadline - now).count();
        ms = std::max<int64_t>(ms, 0);
        if (best < 0 || ms < best) best = ms;
    }
    if (!driver_timers.empty()) {
        auto ms = std::chrono::ceil<std::chrono::milliseconds>(driver_timers.begin()->first - now).count();
        ms = std::max<int64_t>(ms, 0);
        if (best < 0 || ms < best) best = ms;
    }
    return static_cast<int>(std::min<int64_t>(best, 1 << 30));
}

}  // namespace beam

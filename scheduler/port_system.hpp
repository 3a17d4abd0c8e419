// Inside the port system: the port and child records, the table, the I/O thread. Only
// scheduler/port*.cpp include this; the rest of the VM uses scheduler/ports.hpp.
#pragma once

#include <unordered_map>

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/poller.hpp"
#include "scheduler/port_driver.hpp"
#include "scheduler/process_sched.hpp"
#include "scheduler/scheduler.hpp"
#include "scheduler/word_lock.hpp"
#include "scheduler/ports.hpp"
#include "vm/trace.hpp"
#include "vm/atom_table.hpp"
#include "vm/heap.hpp"

namespace beam {

// What a child goes through (docs/ports.md). Running while its port is open; the others
// after the port closed, each with a deadline one grace period after it began. Draining: the
// port closed with commands not yet written; its stdin stays open until they are.
enum class ChildState : uint8_t { Running, Draining, StdinClosed, TermSent, KillSent };

struct Child {
    pid_t os_pid = 0;
    int pidfd = -1;  // -1: held by os_pid alone (scheduler/port_spawn.cpp)
    ChildState state = ChildState::Running;
    std::chrono::steady_clock::time_point deadline{};
    int64_t grace_ms = 0;
    uint64_t port = 0;  // the port's number while Running
};

// Messages a port has posted to its owner and the owner has not taken in yet, counted in
// bytes (plus a fixed cost per message). Reading stops above HIGH and resumes once the owner
// has brought the count down to LOW: a child that floods its output waits on its pipe.
struct FlowCredit {
    static constexpr int64_t HIGH = 1 << 20;
    static constexpr int64_t LOW = 256 << 10;
    static constexpr int64_t PER_MESSAGE = 64;
    std::atomic<int64_t> outstanding{0};
    std::atomic<bool> paused{false};
    int wake_fd = -1;  // the I/O thread's eventfd
    void give_back(int64_t n);
};

// Every field of a Port is guarded by its own `lock` (locking order: a port's lock, then the
// port system's `mu`, then its leaf locks; never a port's lock while `mu` is held). Pipe
// fields that the I/O thread's epoll registrations follow (the descriptors, read pausing,
// `child`) are changed with both held. A Port lives as long as a shared_ptr to it: an
// operation that found it in the table may still hold it after it closed, so every operation
// checks `closed` under the lock (PortSystem::lock_port does).
struct Port : std::enable_shared_from_this<Port> {
    WordLock lock;
    bool closed = false;
    uint64_t number = 0;
    Term id = NIL;
    Term owner = NIL;
    std::vector<Term> links;
    std::vector<MonitorEntry> monitored_by;
    std::string name;
    PortSettings settings;
    int from_child = -1;  // we read: the child's stdout (or fd 4)
    int to_child = -1;    // we write: the child's stdin (or fd 3)
    bool own_fds = true;  // false for {fd, In, Out} on the VM's own descriptors 0..2
    Child* child = nullptr;
    std::string pending;  // command bytes not yet written
    std::string partial;  // packet/line framing: bytes of an incomplete unit
    uint64_t bytes_in = 0, bytes_out = 0;
    bool saw_eof = false;
    bool eof_reported = false;
    bool read_paused = false;
    bool paused_for_mailbox = false;
    bool write_watched = false;
    bool reaped = false;
    int exit_status = 0;
    std::shared_ptr<FlowCredit> credit = std::make_shared<FlowCredit>();
    // erlang:trace/3 on the port (vm/trace.hpp flags), guarded by the port system's mutex.
    uint32_t trace_flags = 0;
    TracerRef tracer;
    // A driver port ({spawn_driver, Name}): the driver, its timer (driver_set_timer) and the
    // busy state it set.
    std::unique_ptr<PortDriver> driver;
    // The driver after the port closed: a driver may end its own port (DriverPort::exit) deep
    // in one of its methods, so it is freed with the Port, when no call can be under way.
    std::unique_ptr<PortDriver> retired_driver;
    std::optional<DriverPort> driver_port;
    std::optional<std::chrono::steady_clock::time_point> driver_deadline;
    bool busy = false;
    // Commands that came while the port was busy, handed to the driver once it is not.
    struct WaitingCommand {
        Term from;
        std::string data;
        std::unique_ptr<LiteralArea> ref_area;  // the reply's reference, or none
        Term ref = NIL;
    };
    std::deque<WaitingCommand> waiting_commands;
    // Set by erlang:setnode/3: the port carries a connection to another node.
    std::shared_ptr<DistChannel> dist;
};

// A closed port's commands still being written to its child's stdin.
struct Drain {
    int fd = -1;
    std::string pending;
    Child* child = nullptr;  // nullptr once reaped
};

// A port found in the table and locked; empty when there is no such open port. Unlocks
// before it lets go of the Port.
struct LockedPort {
    std::shared_ptr<Port> port;
    std::unique_lock<WordLock> guard;
    explicit operator bool() const { return port != nullptr; }
    Port* operator->() const { return port.get(); }
    Port* get() const { return port.get(); }
};

class PortSystem final : public SchedulerPollset {
public:
    explicit PortSystem(VM& vm);
    ~PortSystem() override;

    // The scheduler pollset (scheduler/scheduler.hpp): driver ports' sockets, level-triggered,
    // in an epoll set of their own that awake schedulers poll; the I/O thread's set holds it
    // as one descriptor, armed one-shot while every scheduler sleeps.
    void poll_now() override;
    void hand_to_io_thread() override;

    VM& vm;
    // Guards the table, the children, drains, driver timers and the pipes' epoll state below
    // (not the ports themselves: each has its own lock, taken before this one).
    std::mutex mu;
    // The open ports by number: changed with `mu` and table_mu held, read with either.
    // Lookups (every port_command and port_control) take only table_mu, a leaf lock.
    WordLock table_mu;
    std::map<uint64_t, std::shared_ptr<Port>> table;
    std::vector<std::unique_ptr<Child>> children;  // not yet reaped
    std::map<uint64_t, Drain> drains;              // by the closed port's number
    uint64_t next_number = 0;
    uint64_t term_sent = 0, kill_sent = 0, reaped = 0;
    std::set<std::pair<std::chrono::steady_clock::time_point, uint64_t>> driver_timers;  // {deadline, port}
    // When the I/O thread's last epoll_wait ends by itself: only a timer due before that
    // wakes the thread (a passive recv with a timeout sets one per call). A timer set while
    // the thread is awake needs no wake-up: it reads the timers again before it sleeps.
    std::chrono::steady_clock::time_point poll_until = std::chrono::steady_clock::time_point::min();
    // After every call into a driver, with the port's lock held: commands that waited while
    // the port was busy go to the driver once it is not (each may make it busy again).
    void finish_driver_call(Port* p);

    // The open port `port` (a port id or a number), locked; takes and lets go of `mu`.
    LockedPort lock_port(Term port);
    LockedPort lock_port_number(uint64_t number);
    std::vector<std::shared_ptr<Port>> all_ports();  // a snapshot of the table

    // erlang:port_set_data/2's term (a copy in an area of its own), per open port, under a
    // lock of its own: prim_inet reads it on every gen_tcp/gen_udp call, and under `mu` that
    // read waited for the I/O thread's socket reads (a third of the futex calls of a UDP
    // round-trip benchmark). Entries come and go with `table`'s, with `mu` held; data_mu is
    // taken after `mu` when both are.
    struct PortData {
        std::unique_ptr<LiteralArea> area;
        Term term = am::undefined;
    };
    WordLock data_mu;
    std::unordered_map<uint64_t, PortData> port_data;
    void add_port(std::shared_ptr<Port> port);  // into `table` (with `mu` held), with its data entry
    // The port is gone for Erlang: removed from the table, links and monitors told with
    // `reason`, descriptors closed, its child handed to the termination policy. With the
    // port's lock held; `mu_held` says whether `mu` is held too (the I/O thread's pipe paths),
    // else it is taken where needed. A driver port is never terminated with `mu` held: its
    // driver's stop() may set timers.
    void terminate(Port* p, Term reason, bool mu_held = false);
    // Posts child output to the owner, counted against the port's flow credit.
    void post_data(Port* p, Term msg, size_t bytes);

    // I/O thread side (port_io.cpp), all with `mu` held (and the port's lock for a port's).
    void start_io();
    // `sched`: in the scheduler pollset, whose pollers (schedulers, or this thread while they
    // all sleep) take its events in poll_now: the output pipes of OS-process ports.
    void watch(int fd, uint64_t key, uint32_t events, bool sched = false);
    void rewatch(int fd, uint64_t key, uint32_t events);
    void unwatch(int fd);
    void try_write(Port* p);
    void wake();
    // Driver ports (port_drivers.cpp): a new port around `d`, owned and linked by `owner`.
    // Takes `mu` itself: called with no lock, or with the listening port's lock (accept).
    Term open_driver_port(Term owner, std::unique_ptr<PortDriver> d, std::string name);
    // With no lock held: each due timer's driver under its port's lock.
    void fire_driver_timers(std::chrono::steady_clock::time_point now);

    // Watchers of the VM's poller (io/poller.hpp). Their table has a lock of its own
    // (watch_mu_, never held while calling a watcher), so on_io may take `mu`.
    // `level`: the interest stays armed after an event (level-triggered) until arm_watcher
    // changes it; else one-shot, as io/poller.hpp's. `sched` (implied by `level`): in the
    // scheduler pollset.
    IoHandle register_watcher(int fd, std::shared_ptr<IoWatcher> w, bool level = false, bool sched = false);
    void arm_watcher(IoHandle h, uint32_t events);
    void forget_watcher(IoHandle h);

    int wake_fd() const { return wake_fd_; }
    static constexpr uint32_t READ_EVENTS = 0x001;   // EPOLLIN
    static constexpr uint32_t WRITE_EVENTS = 0x004;  // EPOLLOUT
    static constexpr uint64_t KEY_WAKE = 0;  // kind 0 with another id: a watcher's handle
    static constexpr uint64_t KEY_SCHED = ~0ull;  // the scheduler pollset's descriptor
    // How long the scheduler pollset may go unpolled while schedulers own it before this
    // thread polls it (run()): a bound on the delay of a packet for a node whose schedulers
    // are all busy, at a cost of 1,000 wake-ups a second while any scheduler is awake and
    // the pollset holds a descriptor.
    static constexpr int WATCHDOG_MS = 1;
    static uint64_t key_read(uint64_t n) { return (1ull << 62) | n; }
    static uint64_t key_write(uint64_t n) { return (2ull << 62) | n; }
    static uint64_t key_child(int pidfd) { return (3ull << 62) | static_cast<uint64_t>(pidfd); }
    // A key's kind (0 a watcher's or KEY_WAKE, 1 read, 2 write, 3 child) and its number.
    static uint64_t key_kind(uint64_t key) { return key >> 62; }
    static uint64_t key_id(uint64_t key) { return key & ((1ull << 62) - 1); }

private:
    void run();
    void handle_port_events(const struct epoll_event* evs, int n);
    // A child ended: the one with this pidfd, or with pidfd -1, the one with this os_pid.
    void child_exited(int pidfd, pid_t os_pid = 0);
    // Children held by their pid alone: each that has ended goes to child_exited. True if there
    // were any (the I/O thread then wakes every PIDLESS_POLL_MS to look again).
    bool poll_pidless_children();
    void on_readable(Port* p);
    void on_child_exit(Child* c, Port* p);  // p: its port while the child runs, locked
    void deliver_input(Port* p, const char* bytes, size_t n);
    void input_ended(Port* p);
    void report_eof(Port* p);
    void maybe_finish(Port* p);
    void drain_step(uint64_t port);
    void end_drain(uint64_t port);
    void advance_policy(std::chrono::steady_clock::time_point now);
    void resume_readers();
    size_t owner_mailbox_len(Port* p);
    bool pause_for_mailbox(Port* p);
    int next_timeout_ms();
    void dispatch_watchers(const struct epoll_event* evs, int n);
    struct Watched {
        int fd = -1;
        std::shared_ptr<IoWatcher> w;
        bool level = false;
        bool sched = false;  // in the scheduler pollset
    };
    WordLock watch_mu_;  // a leaf lock: held for a map lookup, never across a syscall
    std::unordered_map<uint64_t, Watched> watchers_;
    uint64_t next_watch_ = 1;
    int epoll_ = -1;
    int sched_epoll_ = -1;  // the scheduler pollset
    // Descriptors in the scheduler pollset (register_watcher with `sched`, until
    // forget_watcher; watch with `sched`, until unwatch): poll_now makes no system call while
    // there are none.
    std::atomic<long> sched_watchers_{0};
    std::set<int> sched_fds_;  // those of watch's, with `mu`
    // The scheduler pollset's events that are a port's output (key_read), on whichever
    // thread polled: each under its port's lock and `mu`, as handle_port_events does.
    void read_polled_ports(const struct epoll_event* evs, int n);
    int wake_fd_ = -1;
    // Descriptors epoll refuses (regular files, /dev/null: EPERM) are always ready: fd ->
    // {key, events}; run() polls instead of sleeping while one of them is wanted.
    std::unordered_map<int, std::pair<uint64_t, uint32_t>> always_ready_;
    std::set<uint64_t> paused_readers_;  // ports whose reading flow control stopped
    std::atomic<bool> stop_{false};
    std::atomic<bool> io_started_{false};
    std::thread thread_;
};

// Port tracing (port_trace.cpp), with the mutex held: one event when the port has `flag`, and
// what a new port takes from trace(new_ports, ...) with its open and getting_linked events.
void port_trace_event(PortSystem& ps, Port* p, uint32_t flag, Term what, std::initializer_list<Term> extra);
void port_trace_opened(PortSystem& ps, Port* p);

// Spawns the child of `s` (port_spawn.cpp): on success fills the port's pipes and child.
// Returns 0 or an errno.
int spawn_child(const PortSettings& s, Port& port, Child& child);

}  // namespace beam

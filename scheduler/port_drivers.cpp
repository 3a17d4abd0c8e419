// Driver ports (scheduler/port_driver.hpp): what a linked-in driver may do to its port, the
// watcher that brings its descriptors' events to it under its port's lock, and its timers,
// which the I/O thread fires.
#include <sys/epoll.h>
#include <sys/ioctl.h>

#include <algorithm>

#include "bifs/bif_util.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// Events for a descriptor of a driver port: the port is looked up by number, so an event
// that arrives after the port closed finds nothing and is dropped. Only this port's lock is
// held during the driver's call: other ports' calls go on meanwhile.
//
// Level-triggered (the scheduler pollset): two schedulers polling at once both see a socket
// that is ready, so one whose port is busy leaves it; the event is still there at the next
// poll if nobody took it (a TLS echo read EAGAIN a third of the time without this).
class DriverWatcher final : public IoWatcher {
public:
    DriverWatcher(PortSystem& ps, std::weak_ptr<Port> port) : ps_(ps), port_(std::move(port)) {}
    IoHandle handle = 0;
    void on_io(uint32_t events) override {
        std::shared_ptr<Port> p = port_.lock();
        if (!p) return;
        std::unique_lock<WordLock> guard(p->lock, std::try_to_lock);
        if (!guard.owns_lock()) return;
        if (p->closed || !p->driver) return;
        p->driver->on_io(handle, events);
        ps_.finish_driver_call(p.get());
    }

private:
    PortSystem& ps_;
    std::weak_ptr<Port> port_;
};

}  // namespace

VM& DriverPort::vm() const { return ps_.vm; }
Term DriverPort::id() const { return port_.id; }
DistChannel* DriverPort::dist() const { return port_.dist.get(); }

void PortDriver::output_gather(std::span<const std::span<const uint8_t>> pieces, size_t size) {
    std::string joined;
    joined.reserve(size);
    for (auto piece : pieces) joined.append(reinterpret_cast<const char*>(piece.data()), piece.size());
    output(NIL, joined);
}
Term DriverPort::owner() const { return port_.owner; }

void DriverPort::send(Term to, Term msg) const {
    // Checked here so that an untraced send does not look the atom up (a global lock).
    if (port_.trace_flags & trace_flag::SEND) port_trace_event(ps_, &port_, trace_flag::SEND, atom("send"), {msg, to});
    post_message(ps_.vm, to, msg);
}

// As erts' driver_exit: the connected process is unlinked first, so only the port's other
// links get the exit signal (a socket's owner learns of a failure from tcp_error/tcp_closed,
// it is not killed by it).
void DriverPort::exit(Term reason) const {
    if (std::erase(port_.links, port_.owner)) {
        auto* s = new Signal{SignalKind::Unlink};
        s->from = port_.id;
        if (!deliver_signal(ps_.vm, port_.owner, s)) delete s;
    }
    ps_.terminate(&port_, reason);
}

Term DriverPort::open_sibling(Term owner, std::unique_ptr<PortDriver> d, std::string name) const {
    return ps_.open_driver_port(owner, std::move(d), std::move(name));
}

void DriverPort::set_timer(int64_t ms) const {
    auto at = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max<int64_t>(ms, 0));
    std::lock_guard lock(ps_.mu);
    if (port_.driver_deadline) ps_.driver_timers.erase({*port_.driver_deadline, port_.number});
    port_.driver_deadline = at;
    ps_.driver_timers.emplace(at, port_.number);
    if (at < ps_.poll_until) ps_.wake();  // the I/O thread would sleep past this deadline
}

void DriverPort::cancel_timer() const {
    if (!port_.driver_deadline) return;
    std::lock_guard lock(ps_.mu);
    ps_.driver_timers.erase({*port_.driver_deadline, port_.number});
    port_.driver_deadline.reset();
}

IoHandle DriverPort::watch(int fd) const {
    auto w = std::make_shared<DriverWatcher>(ps_, port_.weak_from_this());
    // register_watcher may take `mu` to start the I/O thread: we hold only the port's lock.
    IoHandle h = ps_.register_watcher(fd, w, /*level=*/true);
    w->handle = h;
    return h;
}

void DriverPort::arm(IoHandle h, uint32_t events) const { ps_.arm_watcher(h, events); }
void DriverPort::forget(IoHandle h) const { ps_.forget_watcher(h); }
void DriverPort::set_busy(bool busy) const { port_.busy = busy; }

void PortSystem::finish_driver_call(Port* p) {
    while (p->driver && !p->busy && !p->waiting_commands.empty()) {
        Port::WaitingCommand c = std::move(p->waiting_commands.front());
        p->waiting_commands.pop_front();
        p->bytes_out += c.data.size();
        p->driver->output(c.from, c.data);
        if (c.ref != NIL) {
            LiteralArea scratch;
            post_message(vm, c.from, make_tuple(scratch, {c.ref, am::true_}));
        }
    }
}

// With no lock, or with the lock of the listening port that accepted the connection. The new
// port is locked before it enters the table, so nobody sees it before its driver is attached.
Term PortSystem::open_driver_port(Term owner, std::unique_ptr<PortDriver> d, std::string name) {
    auto port = std::make_shared<Port>();
    std::unique_lock<WordLock> port_lock(port->lock);
    port->owner = owner;
    port->links.push_back(owner);
    port->name = std::move(name);
    port->driver = std::move(d);
    Port* p = port.get();
    {
        std::lock_guard lock(mu);
        start_io();
        port->number = next_number++;
        port->id = make_local_port(port->number);
        port->credit->wake_fd = wake_fd();
        add_port(port);
    }
    p->driver_port.emplace(*this, *p);
    p->driver->attach(*p->driver_port);
    port_trace_opened(*this, p);
    Process* op = vm.procs.lookup(owner);
    Term id = p->id;
    if (!op) {  // the owner died meanwhile: its port goes with it
        terminate(p, am::noproc);
        return id;
    }
    {
        std::lock_guard l(op->sched.info_mutex);
        op->sched.links.push_back(p->id);
    }
    ProcessTable::release(op);
    return id;
}

void PortSystem::fire_driver_timers(std::chrono::steady_clock::time_point now) {
    std::vector<std::pair<std::chrono::steady_clock::time_point, uint64_t>> due;
    {
        std::lock_guard lock(mu);
        while (!driver_timers.empty() && driver_timers.begin()->first <= now) {
            due.push_back(*driver_timers.begin());
            driver_timers.erase(driver_timers.begin());
        }
    }
    for (auto& [at, n] : due) {
        LockedPort p = lock_port_number(n);
        // Set again or cancelled since it was taken: not this timer any more.
        if (!p || !p->driver || p->driver_deadline != at) continue;
        p->driver_deadline.reset();
        p->driver->on_timeout();
        finish_driver_call(p.get());
    }
}

// An {fd, In, Out} port answers one control, as erts' fd driver: the window size of its
// output's terminal, else its input's (OTP's `user` asks it for io:columns/0 and io:rows/0).
static std::optional<std::string> fd_port_control(const Port& p, unsigned op) {
    constexpr unsigned FD_GET_WINSIZE = 0x018b0900 + 100;
    if (op != FD_GET_WINSIZE) return std::nullopt;
    for (int fd : {p.to_child, p.from_child}) {
        struct winsize ws {};
        if (fd < 0 || ::ioctl(fd, TIOCGWINSZ, &ws) != 0) continue;
        uint32_t wh[2] = {ws.ws_col, ws.ws_row};  // native byte order, as user.erl reads it
        return std::string(reinterpret_cast<const char*>(wh), sizeof wh);
    }
    return std::nullopt;
}

std::optional<std::string> port_control(VM& vm, Term port, Term caller, unsigned op, std::string_view data) {
    PortSystem& ps = ports_of(vm);
    LockedPort p = ps.lock_port(port);
    if (p && !p->driver && p->settings.kind == PortSettings::Kind::Fd) return fd_port_control(*p.get(), op);
    if (!p || !p->driver) return std::nullopt;
    auto reply = p->driver->control(caller, op, data);
    ps.finish_driver_call(p.get());
    return reply;
}

}  // namespace beam

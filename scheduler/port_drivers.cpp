// Driver ports (scheduler/port_driver.hpp): what a linked-in driver may do to its port, the
// watcher that brings its descriptors' events to it under the port system's lock, and its
// timers, which the I/O thread fires.
#include <sys/epoll.h>

#include <algorithm>

#include "bifs/bif_util.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// Events for a descriptor of a driver port: the port is looked up by number under the lock,
// so an event that arrives after the port closed finds nothing and is dropped.
class DriverWatcher final : public IoWatcher {
public:
    DriverWatcher(PortSystem& ps, uint64_t port) : ps_(ps), port_(port) {}
    IoHandle handle = 0;
    void on_io(uint32_t events) override {
        std::lock_guard lock(ps_.mu);
        auto it = ps_.table.find(port_);
        if (it == ps_.table.end() || !it->second->driver) return;
        it->second->driver->on_io(handle, events);
        ps_.after_driver_call();
    }

private:
    PortSystem& ps_;
    uint64_t port_;
};

}  // namespace

VM& DriverPort::vm() const { return ps_.vm; }
Term DriverPort::id() const { return port_.id; }
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
    cancel_timer();
    auto at = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max<int64_t>(ms, 0));
    port_.driver_deadline = at;
    ps_.driver_timers.emplace(at, port_.number);
    if (at < ps_.poll_until) ps_.wake();  // the I/O thread would sleep past this deadline
}

void DriverPort::cancel_timer() const {
    if (!port_.driver_deadline) return;
    ps_.driver_timers.erase({*port_.driver_deadline, port_.number});
    port_.driver_deadline.reset();
}

IoHandle DriverPort::watch(int fd) const {
    auto w = std::make_shared<DriverWatcher>(ps_, port_.number);
    // register_watcher takes the lock we hold to start the I/O thread: it is started already
    // (open_driver_port and port_open start it).
    IoHandle h = ps_.register_watcher(fd, w);
    w->handle = h;
    return h;
}

void DriverPort::arm(IoHandle h, uint32_t events) const { ps_.arm_watcher(h, events); }
void DriverPort::forget(IoHandle h) const { ps_.forget_watcher(h); }
void DriverPort::set_busy(bool busy) const {
    port_.busy = busy;
    if (!busy && !port_.waiting_commands.empty()) ps_.unbusied.push_back(port_.number);
}

void PortSystem::after_driver_call() {
    while (!unbusied.empty()) {
        uint64_t n = unbusied.back();
        unbusied.pop_back();
        auto it = table.find(n);
        if (it == table.end()) continue;
        Port* p = it->second.get();
        while (p->driver && !p->busy && !p->waiting_commands.empty()) {
            Port::WaitingCommand c = std::move(p->waiting_commands.front());
            p->waiting_commands.pop_front();
            p->bytes_out += c.data.size();
            p->driver->output(c.from, c.data);
            if (c.ref != NIL) {
                LiteralArea scratch;
                post_message(vm, c.from, make_tuple(scratch, {c.ref, am::true_}));
            }
            if (table.find(n) == table.end()) break;  // the driver ended its port
        }
    }
    retired_drivers.clear();
}

Term PortSystem::open_driver_port(Term owner, std::unique_ptr<PortDriver> d, std::string name) {
    start_io();
    auto port = std::make_unique<Port>();
    port->owner = owner;
    port->links.push_back(owner);
    port->name = std::move(name);
    port->number = next_number++;
    port->id = make_local_port(port->number);
    port->credit->wake_fd = wake_fd();
    port->driver = std::move(d);
    Port* p = port.get();
    add_port(std::move(port));
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
    while (!driver_timers.empty() && driver_timers.begin()->first <= now) {
        uint64_t n = driver_timers.begin()->second;
        driver_timers.erase(driver_timers.begin());
        auto it = table.find(n);
        if (it == table.end() || !it->second->driver) continue;
        it->second->driver_deadline.reset();
        it->second->driver->on_timeout();
    }
    after_driver_call();
}

std::optional<std::string> port_control(VM& vm, Term port, Term caller, unsigned op, std::string_view data) {
    PortSystem& ps = ports_of(vm);
    std::lock_guard lock(ps.mu);
    Port* p = ps.find(port);
    if (!p || !p->driver) return std::nullopt;
    auto reply = p->driver->control(caller, op, data);
    ps.after_driver_call();
    return reply;
}

}  // namespace beam

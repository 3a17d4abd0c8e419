// The Erlang side of ports: the table, opening, commands, close, connect, links, monitors and
// exit signals. Each operation runs in the calling process's BIF under the port's own lock,
// so a port acts on one sender's signals in the order they were sent, and every message a
// port sends (data from the I/O thread, replies, exit signals) leaves under the same lock, in
// one order. Different ports never wait for each other (they did under one lock for all: a
// socket's read waited behind every other socket's send).
#include "scheduler/ports.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>

#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/signals.hpp"
#include "vm/binary.hpp"
#include "vm/copy_term.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

std::atomic<int64_t> g_default_grace_ms{5000};

Term ref_of(TermAllocator& a, const Word w[3]) { return make_ref_from_number(a, w[0] | (w[1] << 18) | (w[2] << 50)); }

}  // namespace

void set_default_port_grace_ms(int64_t ms) { g_default_grace_ms = ms; }
int64_t default_port_grace_ms() { return g_default_grace_ms; }

PortSystem& ports_of(VM& vm) {
    std::call_once(vm.ports_once, [&] {
        vm.ports_started.store(true, std::memory_order_release);  // before it exists (vm/runner.cpp)
        vm.ports = std::make_unique<PortSystem>(vm);
    });
    return *vm.ports;
}

LockedPort PortSystem::lock_port_number(uint64_t number) {
    LockedPort lp;
    {
        std::lock_guard lock(table_mu);
        auto it = table.find(number);
        if (it == table.end()) return lp;
        lp.port = it->second;
    }
    lp.guard = std::unique_lock<WordLock>(lp.port->lock);
    if (lp.port->closed) {  // closed between the lookup and the lock
        lp.guard.unlock();
        lp.port.reset();
    }
    return lp;
}

LockedPort PortSystem::lock_port(Term port) {
    if (!is_local_port(port)) return {};
    return lock_port_number(local_port_number(port));
}

std::vector<std::shared_ptr<Port>> PortSystem::all_ports() {
    std::lock_guard lock(table_mu);
    std::vector<std::shared_ptr<Port>> v;
    v.reserve(table.size());
    for (auto& [n, p] : table) v.push_back(p);
    return v;
}

void PortSystem::add_port(std::shared_ptr<Port> port) {
    uint64_t n = port->number;
    {
        std::lock_guard lock(table_mu);
        table.emplace(n, std::move(port));
    }
    std::lock_guard data_lock(data_mu);
    port_data.try_emplace(n);
}

void return_flow_credit(FlowCredit& c, int64_t units) { c.give_back(units); }

void FlowCredit::give_back(int64_t n) {
    int64_t left = outstanding.fetch_sub(n, std::memory_order_acq_rel) - n;
    if (left <= LOW && paused.exchange(false)) {
        uint64_t one = 1;
        [[maybe_unused]] ssize_t w = ::write(wake_fd, &one, sizeof one);
    }
}

void PortSystem::post_data(Port* p, Term msg, size_t bytes) {
    if (p->trace_flags & trace_flag::SEND) port_trace_event(*this, p, trace_flag::SEND, atom("send"), {msg, p->owner});
    auto* s = new Signal{SignalKind::Message};
    s->data = copy_to_buffer(msg);
    s->credit = p->credit;
    s->credit_units = FlowCredit::PER_MESSAGE + static_cast<int64_t>(bytes);
    p->credit->outstanding.fetch_add(s->credit_units, std::memory_order_acq_rel);
    if (!deliver_signal(vm, p->owner, s)) release_signal(s);
}

void PortSystem::terminate(Port* p, Term reason, bool mu_held) {
    p->closed = true;
    vm.procs.port_closed(p->id);  // under the port's lock, as port_register
    std::unique_lock<std::mutex> m(mu, std::defer_lock);
    if (!mu_held) m.lock();
    {
        std::lock_guard lock(table_mu);
        table.erase(p->number);  // the caller holds the Port
    }
    decltype(port_data)::node_type data;  // freed after the locks (its area may be large)
    {
        std::lock_guard data_lock(data_mu);
        data = port_data.extract(p->number);
    }
    if (p->driver_deadline) {
        driver_timers.erase({*p->driver_deadline, p->number});
        p->driver_deadline.reset();
    }
    if (!mu_held) m.unlock();
    port_trace_event(*this, p, trace_flag::PORTS, atom("closed"), {reason});
    if (p->dist) {  // a connection to another node ends with its carrier
        std::shared_ptr<DistChannel> d = std::move(p->dist);
        d->port_closed(reason);
    }
    if (p->driver) {
        p->driver->stop();
        p->retired_driver = std::move(p->driver);
        for (auto& c : p->waiting_commands) {  // as a command to a closed port: badarg
            LiteralArea reply;
            if (c.ref != NIL) post_message(vm, c.from, make_tuple(reply, {c.ref, am::badarg}));
        }
        p->waiting_commands.clear();
    }
    LiteralArea scratch;
    for (Term linked : p->links) send_exit_signal(vm, p->id, linked, reason, true);
    for (const MonitorEntry& mon : p->monitored_by) {
        auto* s = new Signal{SignalKind::Down};
        s->from = p->id;
        std::copy(mon.ref, mon.ref + 3, s->ref);
        Term who = mon.name != NIL ? make_tuple(scratch, {mon.name, vm.node.name()}) : p->id;
        s->data = copy_to_buffer(make_tuple(scratch, {am::DOWN, ref_of(scratch, mon.ref), atom("port"), who, reason}));
        if (!deliver_signal(vm, mon.pid, s)) release_signal(s);
    }
    if (p->from_child < 0 && p->to_child < 0 && !p->child) return;  // a driver port
    if (!mu_held) m.lock();
    // Commands the child has not taken yet are still written (OTP flushes a closing port's
    // queue too), for one grace period at most; then its stdin closes.
    bool drain = p->to_child >= 0 && p->own_fds && !p->pending.empty();
    for (int* fd : {&p->from_child, &p->to_child}) {
        if (*fd < 0 || (drain && fd == &p->to_child)) continue;
        unwatch(*fd);
        if (p->own_fds) ::close(*fd);
        *fd = -1;
    }
    if (drain) {
        if (!p->write_watched) watch(p->to_child, key_write(p->number), WRITE_EVENTS);
        drains[p->number] = Drain{p->to_child, std::move(p->pending), p->child};
    }
    if (Child* c = p->child) {
        c->port = 0;
        c->state = drain ? ChildState::Draining : ChildState::StdinClosed;
        c->deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(c->grace_ms);
        wake();  // its deadline may be the nearest
    }
}

std::optional<Term> port_open(VM& vm, Process* owner, const PortSettings& s, int* posix_error) {
    PortSystem& ps = ports_of(vm);
    if (s.kind == PortSettings::Kind::Driver) {
        auto d = s.driver(s.command);
        if (!d) {
            *posix_error = EINVAL;
            return std::nullopt;
        }
        d->configure(s);
        return ps.open_driver_port(owner->pid, std::move(d), s.command);
    }
    auto port = std::make_shared<Port>();
    std::lock_guard port_lock(port->lock);  // before `mu`, as always
    std::lock_guard lock(ps.mu);
    ps.start_io();
    port->settings = s;
    port->owner = owner->pid;
    port->links.push_back(owner->pid);
    if (s.kind == PortSettings::Kind::Fd) {
        port->name = "0/1";
        port->own_fds = false;
        if (s.in && s.fd_in >= 0) port->from_child = s.fd_in;
        if (s.out && s.fd_out >= 0) port->to_child = s.fd_out;
        port->name = std::to_string(s.fd_in) + "/" + std::to_string(s.fd_out);
    } else {
        auto child = std::make_unique<Child>();
        child->grace_ms = s.kill_timeout_ms >= 0 ? s.kill_timeout_ms : default_port_grace_ms();
        if (int err = spawn_child(s, *port, *child)) {
            *posix_error = err;
            return std::nullopt;
        }
        port->name = s.command;
        port->child = child.get();
        if (child->pidfd >= 0) ps.watch(child->pidfd, PortSystem::key_child(child->pidfd), PortSystem::READ_EVENTS);
        else ps.wake();  // held by its pid: the I/O thread must start polling for its exit
        ps.children.push_back(std::move(child));
    }
    port->number = ps.next_number++;
    port->id = make_local_port(port->number);
    if (port->child) port->child->port = port->number;
    port->credit->wake_fd = ps.wake_fd();
    // A child's output is read by whichever scheduler polls next, as erts' schedulers poll:
    // a reply to a command the owner just sent is found by the owner's own scheduler, with no
    // wake-up of the I/O thread and of the scheduler after it. (bench/port_cat.erl, every VM
    // pinned to one CPU with cat: 31,000 round trips a second through the I/O thread, OTP's
    // interpreter 106,000.) Ports on descriptors (fd ports) stay with the I/O thread.
    if (port->from_child >= 0)
        ps.watch(port->from_child, PortSystem::key_read(port->number), PortSystem::READ_EVENTS, port->child != nullptr);
    Term id = port->id;
    Port* opened = port.get();
    ps.add_port(std::move(port));
    port_trace_opened(ps, opened);
    {
        std::lock_guard l(owner->sched.info_mutex);
        owner->sched.links.push_back(id);
    }
    return id;
}

PortOpResult port_command(VM& vm, Term port, const uint8_t* data, size_t n, Term from, bool nosuspend, Term reply_ref) {
    PortSystem& ps = ports_of(vm);
    LockedPort locked = ps.lock_port(port);
    Port* p = locked.get();
    if (!p) return PortOpResult::NoPort;
    if (p->driver) {
        if (p->busy || !p->waiting_commands.empty()) {
            if (nosuspend) return PortOpResult::Busy;
            Port::WaitingCommand c{from, std::string(reinterpret_cast<const char*>(data), n), nullptr, NIL};
            if (reply_ref != NIL) {
                c.ref_area = std::make_unique<LiteralArea>();
                c.ref = copy_term(reply_ref, *c.ref_area);
            }
            p->waiting_commands.push_back(std::move(c));
            return reply_ref != NIL ? PortOpResult::Queued : PortOpResult::Ok;
        }
        p->bytes_out += n;
        p->driver->output(from, std::string_view(reinterpret_cast<const char*>(data), n));
        ps.finish_driver_call(p);
        return PortOpResult::Ok;
    }
    if (p->to_child < 0) return PortOpResult::Badarg;  // opened with `in` only
    if ((p->trace_flags & trace_flag::RECEIVE) && from != NIL) {
        LiteralArea scratch;
        Term cmd = make_tuple(scratch, {atom("command"), make_binary(scratch, data, n)});
        port_trace_event(ps, p, trace_flag::RECEIVE, atom("receive"), {make_tuple(scratch, {from, cmd})});
    }
    int hdr = p->settings.packet;
    if (hdr) {
        if (hdr < 4 && n >= (size_t{1} << (8 * hdr))) {  // as OTP: accepted, then the port dies
            ps.terminate(p, atom("einval"));
            return PortOpResult::Ok;
        }
        for (int i = hdr - 1; i >= 0; --i) p->pending.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    }
    p->pending.append(reinterpret_cast<const char*>(data), n);
    p->bytes_out += n;
    std::lock_guard pipes(ps.mu);
    ps.try_write(p);
    return PortOpResult::Ok;
}

PortOpResult port_close(VM& vm, Term port, Term reply_to, Term from) {
    PortSystem& ps = ports_of(vm);
    LockedPort p = ps.lock_port(port);
    if (!p) return PortOpResult::NoPort;
    Term id = p->id;
    if (from == NIL) from = reply_to;
    if (from != NIL && (p->trace_flags & trace_flag::RECEIVE)) {
        LiteralArea scratch;
        port_trace_event(ps, p.get(), trace_flag::RECEIVE, atom("receive"), {make_tuple(scratch, {from, atom("close")})});
    }
    ps.terminate(p.get(), am::normal);
    if (reply_to != NIL) {
        LiteralArea scratch;
        post_message(vm, reply_to, make_tuple(scratch, {id, atom("closed")}));
    }
    return PortOpResult::Ok;
}

PortOpResult port_connect(VM& vm, Term port, Term new_owner, Term reply_to, bool link) {
    PortSystem& ps = ports_of(vm);
    LockedPort p = ps.lock_port(port);
    if (!p) return PortOpResult::NoPort;
    Process* np = vm.procs.lookup(new_owner);
    if (!np) return PortOpResult::Badarg;
    if (reply_to != NIL && (p->trace_flags & trace_flag::RECEIVE)) {
        LiteralArea scratch;
        Term what = make_tuple(scratch, {atom("connect"), new_owner});
        port_trace_event(ps, p.get(), trace_flag::RECEIVE, atom("receive"), {make_tuple(scratch, {reply_to, what})});
    }
    bool linked = std::find(p->links.begin(), p->links.end(), new_owner) != p->links.end();
    if (link && !linked) {
        auto* s = new Signal{SignalKind::Link};
        s->from = p->id;
        p->links.push_back(new_owner);
        if (!deliver_signal(vm, new_owner, s)) delete s;
    }
    ProcessTable::release(np);
    p->owner = new_owner;
    if (reply_to != NIL) {
        LiteralArea scratch;
        Term reply = make_tuple(scratch, {p->id, atom("connected")});
        port_trace_event(ps, p.get(), trace_flag::SEND, atom("send"), {reply, reply_to});
        post_message(vm, reply_to, reply);
    }
    return PortOpResult::Ok;
}

// Port ! Msg: {Pid, {command, Data}}, {Pid, close} and {Pid, {connect, New}} from the owner;
// anything else, or Pid not the owner, makes the port send the owner an exit signal badsig
// (OTP's io.c badsig_received). A message to a closed port is dropped.
void port_send(VM& vm, Process* sender, Term port, Term msg) {
    (void)sender;
    Term owner;
    {
        PortSystem& ps = ports_of(vm);
        LockedPort p = ps.lock_port(port);
        if (!p) return;
        owner = p->owner;
    }
    bool ok = is_tuple(msg) && tuple_arity(msg) == 2 && tuple_elem(msg, 0) == owner;
    if (ok) {
        Term what = tuple_elem(msg, 1);
        if (what == atom("close")) {
            port_close(vm, port, owner);
            return;
        }
        if (is_tuple(what) && tuple_arity(what) == 2 && tuple_elem(what, 0) == atom("command")) {
            std::vector<uint8_t> bytes;
            if (iolist_to_bytes(tuple_elem(what, 1), bytes)) {
                if (port_command(vm, port, bytes.data(), bytes.size(), owner) == PortOpResult::Ok) return;
            }
        } else if (is_tuple(what) && tuple_arity(what) == 2 && tuple_elem(what, 0) == atom("connect") &&
                   is_local_pid(tuple_elem(what, 1))) {
            if (port_connect(vm, port, tuple_elem(what, 1), owner, false) == PortOpResult::Ok) return;
        }
    }
    send_exit_signal(vm, port, owner, atom("badsig"), false);
}

void port_exit_signal(VM& vm, Term from, Term port, Term reason, bool linked) {
    PortSystem& ps = ports_of(vm);
    LockedPort p = ps.lock_port(port);
    if (!p) return;
    if (linked) {
        auto it = std::find(p->links.begin(), p->links.end(), from);
        if (it == p->links.end()) return;
        p->links.erase(it);
        port_trace_event(ps, p.get(), trace_flag::PORTS, atom("getting_unlinked"), {from});
    }
    // The owner's death closes the port whatever the reason; others' normal exits do not.
    if (from == p->owner || reason != am::normal) ps.terminate(p.get(), reason == am::kill && !linked ? am::killed : reason);
}

bool port_link(VM& vm, Term port, Term pid) {
    PortSystem& ps = ports_of(vm);
    LockedPort p = ps.lock_port(port);
    if (!p) return false;
    if (std::find(p->links.begin(), p->links.end(), pid) == p->links.end()) {
        p->links.push_back(pid);
        port_trace_event(ps, p.get(), trace_flag::PORTS, atom("getting_linked"), {pid});
    }
    return true;
}

void port_unlink(VM& vm, Term port, Term pid) {
    PortSystem& ps = ports_of(vm);
    if (LockedPort p = ps.lock_port(port))
        if (std::erase(p->links, pid)) port_trace_event(ps, p.get(), trace_flag::PORTS, atom("getting_unlinked"), {pid});
}

bool port_monitor(VM& vm, Term port, Term pid, const Word ref[3], Term name) {
    PortSystem& ps = ports_of(vm);
    LockedPort p = ps.lock_port(port);
    if (!p) return false;
    MonitorEntry m{};
    std::copy(ref, ref + 3, m.ref);
    m.pid = pid;
    m.name = name;
    p->monitored_by.push_back(m);
    return true;
}

void port_demonitor(VM& vm, Term port, const Word ref[3]) {
    PortSystem& ps = ports_of(vm);
    if (LockedPort p = ps.lock_port(port))
        std::erase_if(p->monitored_by, [&](const MonitorEntry& m) { return std::equal(ref, ref + 3, m.ref); });
}

std::optional<Term> port_info_item(VM& vm, Process* proc, Term port, Term item) {
    PortSystem& ps = ports_of(vm);
    LockedPort p = ps.lock_port(port);
    if (!p) return std::nullopt;
    Term v;
    if (item == atom("name")) v = make_string(*proc, p->name);
    else if (item == atom("links")) v = make_list_from(*proc, p->links.data(), p->links.size());
    else if (item == atom("id")) v = make_small(static_cast<SWord>(p->number));
    else if (item == atom("connected")) v = p->owner;
    else if (item == atom("input")) v = make_small(static_cast<SWord>(p->bytes_in));
    else if (item == atom("output")) v = make_small(static_cast<SWord>(p->bytes_out));
    else if (item == atom("os_pid")) v = p->child ? make_small(p->child->os_pid) : am::undefined;
    else if (item == atom("queue_size"))
        v = make_small(static_cast<SWord>(p->driver ? p->driver->queue_size() : p->pending.size()));
    else if (item == atom("memory")) v = make_small(static_cast<SWord>(sizeof(Port) + p->pending.size() + p->partial.size()));
    else if (item == atom("parallelism")) v = am::false_;
    else if (item == atom("locking")) v = atom("port_level");
    else if (item == atom("registered_name")) {
        // An unregistered port's answer is [] (not {registered_name, []}), as erts.
        v = vm.procs.port_name(port);
        if (v == NIL) return NIL;
    }
    else if (item == atom("monitors")) v = NIL;
    else if (item == atom("monitored_by")) {
        std::vector<Term> pids;
        for (const auto& m : p->monitored_by) pids.push_back(m.pid);
        v = make_list_from(*proc, pids.data(), pids.size());
    } else return NON_VALUE;
    return make_tuple(*proc, {item, v});
}

Term port_list(VM& vm, Process* proc) {
    PortSystem& ps = ports_of(vm);
    std::vector<Term> ids;
    {
        std::lock_guard lock(ps.table_mu);
        for (auto& [n, p] : ps.table) ids.push_back(p->id);
    }
    return make_list_from(*proc, ids.data(), ids.size());
}

size_t port_count(VM& vm) {
    PortSystem& ps = ports_of(vm);
    std::lock_guard lock(ps.table_mu);
    return ps.table.size();
}

Term port_children(VM& vm, Process* proc) {
    PortSystem& ps = ports_of(vm);
    std::lock_guard lock(ps.mu);
    static constexpr const char* names[] = {"running", "draining", "stdin_closed", "term_sent", "kill_sent"};
    std::vector<Term> items;
    for (auto& c : ps.children)
        items.push_back(make_tuple(*proc, {make_small(c->os_pid), atom(names[static_cast<int>(c->state)])}));
    return make_list_from(*proc, items.data(), items.size());
}

Term port_policy_counts(VM& vm, Process* proc) {
    PortSystem& ps = ports_of(vm);
    std::lock_guard lock(ps.mu);
    return make_tuple(*proc, {make_small(static_cast<SWord>(ps.term_sent)), make_small(static_cast<SWord>(ps.kill_sent)),
                              make_small(static_cast<SWord>(ps.reaped))});
}

bool port_set_data(VM& vm, Term port, Term data) {
    PortSystem& ps = ports_of(vm);
    if (!is_local_port(port)) return false;
    auto area = std::make_unique<LiteralArea>();
    Term copy = copy_term(data, *area);
    std::lock_guard lock(ps.data_mu);
    auto it = ps.port_data.find(local_port_number(port));
    if (it == ps.port_data.end()) return false;
    std::swap(it->second.area, area);  // the previous copy goes with its area, after the lock
    it->second.term = copy;
    return true;
}

bool port_is_open(VM& vm, Term port) {
    PortSystem& ps = ports_of(vm);
    return static_cast<bool>(ps.lock_port(port));
}

bool port_register(VM& vm, const Namespace* ns, Term name, Term port) {
    // Under the port's lock, which its close (terminate) holds when it drops the name.
    LockedPort p = ports_of(vm).lock_port(port);
    return p && vm.procs.register_port(ns, name, port);
}

std::optional<Term> port_get_data(VM& vm, Process* proc, Term port) {
    PortSystem& ps = ports_of(vm);
    if (!is_local_port(port)) return std::nullopt;
    std::lock_guard lock(ps.data_mu);
    auto it = ps.port_data.find(local_port_number(port));
    if (it == ps.port_data.end()) return std::nullopt;
    return copy_term(it->second.term, *proc);
}

}  // namespace beam

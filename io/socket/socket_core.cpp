// A socket's life and the select protocol (see socket.hpp): creation and the registry's
// add/del messages, the global counts, arming the poller for a waiting process and telling
// it when the descriptor is ready, the queues of waiting readers, writers and acceptors,
// and what close and an owner's death do to them (OTP: esock_do_stop, esock_down).
#include "io/socket/socket.hpp"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/signals.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

#include <netinet/in.h>

namespace beam::esock {

namespace {

// nif_info/0's counters: open sockets by type, domain and protocol (OTP's data.num*).
struct Globals {
    std::atomic<uint64_t> sockets{0}, dgram{0}, stream{0}, seqpacket{0}, local{0}, inet{0}, inet6{0}, ip{0},
        tcp{0}, udp{0}, sctp{0};
    std::atomic<bool> use_registry{true}, debug{false}, socket_debug{false};
};
Globals& globals() {
    static Globals g;
    return g;
}

void count(int domain, int type, int protocol, int delta) {
    Globals& g = globals();
    auto add = [delta](std::atomic<uint64_t>& c) { c.fetch_add(uint64_t(int64_t(delta)), std::memory_order_relaxed); };
    add(g.sockets);
    if (type == SOCK_DGRAM) add(g.dgram);
    else if (type == SOCK_STREAM) add(g.stream);
    else if (type == SOCK_SEQPACKET) add(g.seqpacket);
    if (domain == AF_LOCAL) add(g.local);
    else if (domain == AF_INET) add(g.inet);
    else if (domain == AF_INET6) add(g.inet6);
    if (protocol == IPPROTO_IP) add(g.ip);
    else if (protocol == IPPROTO_TCP) add(g.tcp);
    else if (protocol == IPPROTO_UDP) add(g.udp);
    else if (protocol == IPPROTO_SCTP) add(g.sctp);
}

Term socket_term(TermAllocator& a, Term sockref) { return make_tuple(a, {atom("$socket"), sockref}); }

}  // namespace

void registry_msg(Socket& s, Term sockref, const char* tag) {
    if (s.registry == NIL) return;
    LiteralArea scratch;
    post_message(s.vm, s.registry, make_tuple(scratch, {atom("$socket"), atom(tag), socket_term(scratch, sockref)}));
}

namespace {

void rearm(Socket& s) {
    if (s.io == 0) return;
    io_arm(s.vm, s.io, (s.rsel.armed ? uint32_t(EPOLLIN | EPOLLRDHUP) : 0u) | (s.wsel.armed ? uint32_t(EPOLLOUT) : 0u));
}

// What a process's death means to the socket (OTP's esock_down).
void socket_down(Socket& s, Term sockref, Term pid, uint64_t id) {
    if (s.closer == pid && (id == s.closer_mon || id == s.owner_mon)) {
        // The closer died before finalize_close: close without it.
        if (id == s.owner_mon) s.owner_mon = 0, s.owner = NIL;
        s.closer = NIL, s.closer_mon = 0;
        if (s.fd >= 0) close_descriptor(s, sockref);
        return;
    }
    if (id == s.owner_mon) {
        s.owner_mon = 0;
        s.owner = NIL;
        if (is_open(s.rstate)) {
            s.rstate |= ST_CLOSING;
            s.wstate |= ST_CLOSING;
            stop_socket(s, sockref);
            close_descriptor(s, sockref);
        }
        return;
    }
    if (s.connector && s.connector->mon == id) {
        s.connector.reset();
        s.wstate &= ~ST_CONNECTING;
        if (s.wsel.armed) select_cancel(s, true);
        return;
    }
    if (!is_open(s.rstate) && (s.rstate & ST_CLOSED)) return;
    auto down_in = [&](std::optional<Requestor>& cur, std::deque<Requestor>& q, bool write) {
        if (!cur) return;
        if (cur->mon == id) {
            cur->mon = 0;
            Select& sel = write ? s.wsel : s.rsel;
            if (sel.armed && sel.pid == pid) select_cancel(s, write);
            if (!activate_next(s, sockref, cur, q, write)) cur.reset();
        } else {
            unqueue(s, q, pid, nullptr);
        }
    };
    down_in(s.reader, s.readers, false);
    down_in(s.acceptor, s.acceptors, false);
    if (!s.acceptor) s.rstate &= ~ST_ACCEPTING;
    down_in(s.writer, s.writers, true);
}

}  // namespace

Socket::Socket(VM& vm, int fd, int domain, int type, int protocol)
    : vm(vm), fd(fd), domain(domain), type(type), protocol(protocol) {}

Socket::~Socket() {
    // Unreferenced while still open: no one can use it any more.
    if (io != 0) io_forget(vm, io);
    if (fd >= 0) {
        if (close_on_close) ::close(fd);
        count(domain, type, protocol, -1);
    }
    if (owner_mon) native_demonitor(vm, owner, owner_mon);
    if (closer_mon) native_demonitor(vm, closer, closer_mon);
}

Socket* socket_of(Term sockref) { return magic_cast<Socket>(sockref); }

GlobalCounts global_counts() {
    Globals& g = globals();
    auto v = [](std::atomic<uint64_t>& c) { return c.load(std::memory_order_relaxed); };
    return {v(g.sockets), v(g.dgram), v(g.stream), v(g.seqpacket), v(g.local), v(g.inet),
            v(g.inet6),   v(g.ip),    v(g.tcp),    v(g.udp),       v(g.sctp)};
}
bool global_use_registry() { return globals().use_registry.load(); }
void set_global_use_registry(bool on) { globals().use_registry.store(on); }
bool global_debug() { return globals().debug.load(); }
void set_global_debug(bool on) { globals().debug.store(on); }
bool global_socket_debug() { return globals().socket_debug.load(); }
void set_global_socket_debug(bool on) { globals().socket_debug.store(on); }
bool global_iow() { return false; }

Term new_socket(Process* p, int fd, int domain, int type, int protocol, bool use_registry) {
    auto* s = new Socket(*p->vm, fd, domain, type, protocol);
    Term sockref = make_magic_ref(*p, s);
    s->link = std::make_shared<SocketLink>(*p->vm, s->ref_number());
    count(domain, type, protocol, 1);
    std::lock_guard lock(s->mu);
    s->owner = p->pid;
    s->owner_mon = native_monitor(*p->vm, p->pid, s->link);
    if (use_registry) {
        Term reg = p->vm->procs.whereis(p->ns, atom("socket_registry"));
        if (is_pid(reg)) s->registry = reg;
    }
    registry_msg(*s, sockref, "add");
    return sockref;
}

// ---- the select protocol ----

bool select_arm(Socket& s, Term sockref, bool write, Term pid, Term ref) {
    (void)sockref;
    if (s.fd < 0) return false;
    if (s.io == 0) s.io = io_register(s.vm, s.fd, s.link, /*scheduler_polled=*/true);
    Select& sel = write ? s.wsel : s.rsel;
    sel.armed = true;
    sel.pid = pid;
    sel.ref = HeldTerm(ref);
    (write ? s.wstate : s.rstate) |= ST_SELECTED;
    rearm(s);
    return true;
}

bool select_cancel(Socket& s, bool write) {
    Select& sel = write ? s.wsel : s.rsel;
    if (!sel.armed) return false;
    sel.armed = false;
    sel.ref.reset();
    rearm(s);
    return true;
}

void SocketLink::on_io(uint32_t events) {
    LiteralArea scratch;
    Term sockref = revive_magic_ref(scratch, ref_number_);
    Socket* s = is_value(sockref) ? socket_of(sockref) : nullptr;
    if (!s) return;
    std::lock_guard lock(s->mu);
    if (s->fd < 0) return;
    bool readable = events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR);
    bool writable = events & (EPOLLOUT | EPOLLHUP | EPOLLERR);
    for (bool write : {false, true}) {
        Select& sel = write ? s->wsel : s->rsel;
        if (!sel.armed || !(write ? writable : readable)) continue;
        sel.armed = false;
        send_socket_msg(vm_, sel.pid, sockref, atom("select"), sel.ref.term());
        sel.ref.reset();
    }
    rearm(*s);
}

void SocketLink::on_exit(Term pid, uint64_t id) {
    LiteralArea scratch;
    Term sockref = revive_magic_ref(scratch, ref_number_);
    Socket* s = is_value(sockref) ? socket_of(sockref) : nullptr;
    if (!s) return;
    std::lock_guard lock(s->mu);
    socket_down(*s, sockref, pid, id);
}

void send_socket_msg(VM& vm, Term pid, Term sockref, Term tag, Term info) {
    LiteralArea scratch;
    post_message(vm, pid, make_tuple(scratch, {atom("$socket"), socket_term(scratch, sockref), tag, info}));
}

void send_abort(VM& vm, Term sockref, const Requestor& r, Term reason) {
    LiteralArea scratch;
    send_socket_msg(vm, r.pid, sockref, atom("abort"), make_tuple(scratch, {r.ref.term(), reason}));
}

// ---- waiting processes ----

Requestor make_requestor(Socket& s, Process* p, Term ref) {
    Requestor r;
    r.pid = p->pid;
    r.ref = HeldTerm(ref);
    r.mon = native_monitor(s.vm, p->pid, s.link);
    return r;
}

void release_requestor(Socket& s, Requestor& r) {
    if (r.mon) native_demonitor(s.vm, r.pid, r.mon);
    r.mon = 0;
}

bool queued_pid(const std::deque<Requestor>& q, Term pid) {
    for (const Requestor& r : q)
        if (r.pid == pid) return true;
    return false;
}

bool unqueue(Socket& s, std::deque<Requestor>& q, Term pid, const Term* ref) {
    for (auto it = q.begin(); it != q.end(); ++it) {
        if (it->pid != pid || (ref && !eq_exact(*ref, it->ref.term()))) continue;
        release_requestor(s, *it);
        q.erase(it);
        return true;
    }
    return false;
}

bool activate_next(Socket& s, Term sockref, std::optional<Requestor>& current, std::deque<Requestor>& q,
                   bool write) {
    if (current) release_requestor(s, *current);
    while (!q.empty()) {
        Requestor next = std::move(q.front());
        q.pop_front();
        if (select_arm(s, sockref, write, next.pid, next.ref.term())) {
            current = std::move(next);
            return true;
        }
        LiteralArea scratch;
        send_abort(s.vm, sockref, next, make_tuple(scratch, {atom("select_failed"), make_small(EBADF)}));
        release_requestor(s, next);
    }
    current.reset();
    return false;
}

void fail_waiting(Socket& s, Term sockref, std::optional<Requestor>& current, std::deque<Requestor>& q,
                  Term reason) {
    if (!current) return;
    release_requestor(s, *current);
    current.reset();
    for (Requestor& r : q) {
        send_abort(s.vm, sockref, r, reason);
        release_requestor(s, r);
    }
    q.clear();
}

void stop_socket(Socket& s, Term sockref) {
    bool rcancelled = select_cancel(s, false);
    bool wcancelled = select_cancel(s, true);
    Term closed = atom("closed");
    auto stop_current = [&](std::optional<Requestor>& cur, bool cancelled) {
        if (!cur) return;
        release_requestor(s, *cur);
        // A select message already sent tells the process to try again (and find it closed).
        if (cancelled) send_abort(s.vm, sockref, *cur, closed);
    };
    auto stop_queue = [&](std::deque<Requestor>& q) {
        for (Requestor& r : q) {
            send_abort(s.vm, sockref, r, closed);
            release_requestor(s, r);
        }
        q.clear();
    };
    if (s.writer) {
        stop_current(s.writer, wcancelled);
        stop_queue(s.writers);
        s.writer.reset();
    }
    if (s.connector) {
        stop_current(s.connector, wcancelled);
        s.connector.reset();
    }
    if (s.reader) {
        stop_current(s.reader, rcancelled);
        stop_queue(s.readers);
        s.reader.reset();
    }
    if (s.acceptor) {
        stop_current(s.acceptor, rcancelled);
        stop_queue(s.acceptors);
        s.acceptor.reset();
    }
    if (s.io != 0) {
        io_forget(s.vm, s.io);
        s.io = 0;
    }
}

int close_descriptor(Socket& s, Term sockref) {
    int err = 0;
    int fd = s.fd;
    s.fd = -1;
    s.rstate |= ST_CLOSED;
    s.wstate |= ST_CLOSED;
    if (s.io != 0) {
        io_forget(s.vm, s.io);
        s.io = 0;
    }
    count(s.domain, s.type, s.protocol, -1);
    s.meta.reset();
    if (s.close_on_close && ::close(fd) != 0) err = errno;
    if (s.owner_mon) native_demonitor(s.vm, s.owner, s.owner_mon);
    s.owner_mon = 0;
    registry_msg(s, sockref, "del");
    return err;
}

// ---- helpers ----

Term error_tuple(Process* p, Term reason) { return make_tuple(*p, {am::error, reason}); }
Term errno_tuple(Process* p, int err) { return posix_error_tuple(p, err); }
Term invalid_tuple(Process* p, Term what) { return make_tuple(*p, {atom("invalid"), what}); }
Term error_invalid(Process* p, Term what) { return error_tuple(p, invalid_tuple(p, what)); }
Term raise_invalid(Process* p, Term what) { return p->error(invalid_tuple(p, what)); }
Term integer_range(Process* p, Term i) { return invalid_tuple(p, make_tuple(*p, {atom("integer_range"), i})); }

bool get_int(Term t, int& out) {
    if (!is_small(t)) return false;
    int64_t v = small_value(t);
    if (v < INT32_MIN || v > INT32_MAX) return false;
    out = int(v);
    return true;
}

bool get_uint64(Term t, uint64_t& out) {
    if (is_small(t)) {
        if (small_value(t) < 0) return false;
        out = uint64_t(small_value(t));
        return true;
    }
    if (is_big(t) && !big_is_negative(t) && big_limb_count(t) == 1) {
        out = big_limbs(t)[0];
        return true;
    }
    return false;
}

Term make_atom_map(Process* p, std::initializer_list<std::pair<const char*, Term>> kvs) {
    std::vector<std::pair<Term, Term>> pairs;
    pairs.reserve(kvs.size());
    for (auto& [k, v] : kvs) pairs.emplace_back(atom(k), v);
    return map_from_pairs(*p, std::move(pairs));
}

Term encode_domain(Process* p, int domain) {
    switch (domain) {
    case AF_INET: return atom("inet");
    case AF_INET6: return atom("inet6");
    case AF_LOCAL: return atom("local");
    case AF_UNSPEC: return atom("unspec");
    default: return make_integer(*p, domain);
    }
}

Term encode_type(Process* p, int type) {
    switch (type) {
    case SOCK_STREAM: return atom("stream");
    case SOCK_DGRAM: return atom("dgram");
    case SOCK_RAW: return atom("raw");
    case SOCK_RDM: return atom("rdm");
    case SOCK_SEQPACKET: return atom("seqpacket");
    default: return make_integer(*p, type);
    }
}

}  // namespace beam::esock

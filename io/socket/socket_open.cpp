// prim_socket's natives for a socket's connection life: nif_open/2 (from a descriptor),
// nif_open/4, nif_bind/2, nif_connect/1,3, nif_listen/2, nif_accept/2, nif_sockname/1,
// nif_peername/1, nif_shutdown/2, nif_close/1 and nif_finalize_close/1. Answers and their
// order of checks follow prim_socket_nif.c (esock_open4, esock_connect, esock_accept, ...).
// (nif_bind/3, SCTP's bindx, is not a NIF in OTP 25 either: its stub raises notsup.)
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "bifs/sandbox_checks.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "vm/map.hpp"
#include "vm/vm.hpp"

namespace beam::esock {

namespace {

bool map_bool(Term map, const char* key, bool dflt) {
    const Term* v = map_get(map, atom(key));
    if (!v) return dflt;
    return *v == am::true_ ? true : *v == am::false_ ? false : dflt;
}

int sockopt_int(int fd, int level, int opt, int& out) {
    socklen_t len = sizeof out;
    return ::getsockopt(fd, level, opt, &out, &len);
}

Term ok_sockref(Process* p, int fd, int domain, int type, int protocol, Term opts) {
    Term ref = new_socket(p, fd, domain, type, protocol, map_bool(opts, "use_registry", global_use_registry()));
    Socket* s = socket_of(ref);
    std::lock_guard lock(s->mu);
    s->debug = map_bool(opts, "debug", global_socket_debug());
    return make_tuple(*p, {am::ok, ref});
}

// nif_open(FD, Opts): a socket for a descriptor someone else opened (socket:open/1,2).
Term nif_open_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::Network)) [[unlikely]] return capability_denied(p, Capability::Network);
    int fd;
    if (!get_int(a[0], fd)) {
        if (is_integer(a[0])) return integer_range(p, a[0]);
        return p->badarg();
    }
    if (!is_map(a[1])) return p->badarg();
    int domain, type, protocol;
    if (sockopt_int(fd, SOL_SOCKET, SO_DOMAIN, domain) != 0) {
        const Term* d = map_get(a[1], atom("domain"));
        if (!d || decode_domain(*d, domain) == 0) return invalid_tuple(p, atom("domain"));
    }
    if (sockopt_int(fd, SOL_SOCKET, SO_TYPE, type) != 0) {
        const Term* t = map_get(a[1], atom("type"));
        if (!t || !decode_type(*t, type)) return invalid_tuple(p, atom("type"));
    }
    if (sockopt_int(fd, SOL_SOCKET, SO_PROTOCOL, protocol) != 0) {
        const Term* pr = map_get(a[1], atom("protocol"));
        if (!pr || !get_int(*pr, protocol)) protocol = 0;
    }
    bool dup = map_bool(a[1], "dup", true);
    int sock = fd;
    if (dup) {
        sock = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
        if (sock < 0) return errno_tuple(p, errno);
    }
    ::fcntl(sock, F_SETFL, ::fcntl(sock, F_GETFL) | O_NONBLOCK);
    Term result = ok_sockref(p, sock, domain, type, protocol, a[1]);
    Socket* s = socket_of(tuple_elems(result)[1]);
    std::lock_guard lock(s->mu);
    s->close_on_close = dup;
    s->orig_fd = fd;
    SockAddr peer;
    socklen_t len = sizeof peer;
    if (::getpeername(sock, &peer.sa, &len) == 0) s->wstate |= ST_CONNECTED;
    return result;
}

// nif_open(Domain, Type, Protocol, Opts).
Term nif_open_4(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::Network)) [[unlikely]] return capability_denied(p, Capability::Network);
    int protocol;
    if (!get_int(a[2], protocol)) {
        if (is_integer(a[2])) return integer_range(p, a[2]);
        return p->badarg();
    }
    if (!is_map(a[3])) return p->badarg();
    int domain, type;
    if (decode_domain(a[0], domain) == 0) return invalid_tuple(p, atom("domain"));
    if (!decode_type(a[1], type)) return invalid_tuple(p, atom("type"));
    if (map_get(a[3], atom("netns")))
        return error_tuple(p, atom("enotsup"));  // network namespaces: not in beamvm (setns)
    int fd = ::socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, protocol);
    if (fd < 0) return errno_tuple(p, errno);
    if (protocol == 0) sockopt_int(fd, SOL_SOCKET, SO_PROTOCOL, protocol);
    return ok_sockref(p, fd, domain, type, protocol, a[3]);
}

Term nif_bind_2(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    SockAddr addr;
    socklen_t len;
    if (!decode_sockaddr(a[1], addr, len)) return invalid_tuple(p, atom("sockaddr"));
    std::lock_guard lock(s->mu);
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    if (::bind(s->fd, &addr.sa, len) < 0) return errno_tuple(p, errno);
    s->rstate |= ST_BOUND;
    return am::ok;
}

// Connect: the first call starts it; after the select message the same process calls
// nif_connect/1 to learn how it ended.
Term connect(Process* p, Term sockref, Term conn_ref, const SockAddr* addr, socklen_t len) {
    Socket* s = socket_of(sockref);
    std::lock_guard lock(s->mu);
    if (!is_open(s->wstate)) return error_tuple(p, atom("closed"));
    if (s->writer) return error_invalid(p, atom("state"));
    if (s->connector) {
        if (s->connector->pid != p->pid) {
            if (addr) return error_tuple(p, atom("already"));
            return raise_invalid(p, atom("state"));
        }
        release_requestor(*s, *s->connector);
        s->connector.reset();
        s->wstate &= ~ST_CONNECTING;
        int err = 0;
        socklen_t elen = sizeof err;
        if (::getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &elen) != 0) err = errno;
        if (err != 0) return errno_tuple(p, err);
        s->wstate |= ST_CONNECTED;
        return am::ok;
    }
    if (!addr) return raise_invalid(p, atom("state"));
    int r;
    do r = ::connect(s->fd, &addr->sa, len);
    while (r < 0 && errno == EINTR);
    if (r == 0) {
        s->wstate |= ST_CONNECTED;
        return am::ok;
    }
    int err = errno;
    if (err != EINPROGRESS && err != EAGAIN) return errno_tuple(p, err);
    if (!select_arm(*s, sockref, true, p->pid, conn_ref)) return errno_tuple(p, EBADF);
    s->connector = make_requestor(*s, p, conn_ref);
    s->wstate |= ST_CONNECTING | ST_SELECTED;
    return atom("select");
}

Term nif_connect_1(Process* p, const Term* a) {
    if (!socket_of(a[0])) return p->badarg();
    return connect(p, a[0], am::undefined, nullptr, 0);
}

Term nif_connect_3(Process* p, const Term* a) {
    if (!socket_of(a[0]) || !is_ref(a[1])) return p->badarg();
    SockAddr addr;
    socklen_t len;
    if (!decode_sockaddr(a[2], addr, len)) return invalid_tuple(p, atom("sockaddr"));
    return connect(p, a[0], a[1], &addr, len);
}

Term nif_listen_2(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    int backlog;
    if (!get_int(a[1], backlog)) {
        if (is_integer(a[1])) return integer_range(p, a[1]);
        return p->badarg();
    }
    std::lock_guard lock(s->mu);
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    if (::listen(s->fd, backlog) < 0) return errno_tuple(p, errno);
    s->rstate |= ST_LISTENING;
    return am::ok;
}

// The accepted connection's socket, owned by the acceptor; it inherits the listener's
// buffer settings and registry use (esock_accept_accepted).
Term accepted(Process* p, Socket& ls, int fd) {
    ls.cnt.acc_success++;
    Term ref = new_socket(p, fd, ls.domain, ls.type, ls.protocol, ls.registry != NIL);
    Socket* s = socket_of(ref);
    {
        std::lock_guard lock(s->mu);
        s->rbuf_size = ls.rbuf_size;
        s->rnum = ls.rnum;
        s->rctrl_size = ls.rctrl_size;
        s->wctrl_size = ls.wctrl_size;
        s->iow = ls.iow;
        s->debug = ls.debug;
    }
    // OTP marks the listening socket connected here, not the new one (esock_accept_accepted):
    // info/1 shows it so.
    ls.wstate |= ST_CONNECTED;
    return make_tuple(*p, {am::ok, ref});
}

int do_accept(Socket& s) {
    int fd;
    do fd = ::accept4(s.fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    s.cnt.acc_tries++;
    return fd;
}

Term nif_accept_2(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    Term sockref = a[0], ref = a[1];
    std::lock_guard lock(s->mu);
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    if (s->reader) return error_invalid(p, atom("state"));
    if (s->acceptor && s->acceptor->pid != p->pid) {
        if (queued_pid(s->acceptors, p->pid)) return raise_invalid(p, atom("state"));
        s->acceptors.push_back(make_requestor(*s, p, ref));
        s->cnt.acc_waits++;
        return atom("select");
    }
    int fd = do_accept(*s);
    if (fd >= 0) {
        if (s->acceptor) {
            release_requestor(*s, *s->acceptor);
            if (!activate_next(*s, sockref, s->acceptor, s->acceptors, false)) {
                s->acceptor.reset();
                s->rstate &= ~ST_ACCEPTING;
            }
        }
        return accepted(p, *s, fd);
    }
    int err = errno;
    if (err == EAGAIN || err == EWOULDBLOCK) {
        if (!s->acceptor) s->acceptor = make_requestor(*s, p, ref);
        else s->acceptor->ref = HeldTerm(ref);
        select_arm(*s, sockref, false, p->pid, ref);
        s->rstate |= ST_ACCEPTING | ST_SELECTED;
        s->cnt.acc_waits++;
        return atom("select");
    }
    s->cnt.acc_fails++;
    Term reason = posix_error_atom(err);
    if (s->acceptor) {
        // The current acceptor's error ends every wait (esock_accept_accepting_current_error).
        fail_waiting(*s, sockref, s->acceptor, s->acceptors, reason);
        s->rstate &= ~ST_ACCEPTING;
    }
    return error_tuple(p, reason);
}

Term name_of(Process* p, const Term* a, bool peer) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    std::lock_guard lock(s->mu);
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    SockAddr addr{};
    socklen_t len = sizeof addr;
    int r = peer ? ::getpeername(s->fd, &addr.sa, &len) : ::getsockname(s->fd, &addr.sa, &len);
    if (r < 0) return errno_tuple(p, errno);
    return make_tuple(*p, {am::ok, encode_sockaddr(p, addr, len)});
}

Term nif_sockname_1(Process* p, const Term* a) { return name_of(p, a, false); }
Term nif_peername_1(Process* p, const Term* a) { return name_of(p, a, true); }

Term nif_shutdown_2(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    int how;
    if (a[1] == atom("read")) how = SHUT_RD;
    else if (a[1] == atom("write")) how = SHUT_WR;
    else if (a[1] == atom("read_write")) how = SHUT_RDWR;
    else return raise_invalid(p, make_tuple(*p, {atom("how"), a[1]}));
    std::lock_guard lock(s->mu);
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    if (::shutdown(s->fd, how) < 0) return errno_tuple(p, errno);
    return am::ok;
}

// Close, first step: every waiting process is told and the descriptor leaves the poller at
// once, so the answer is always `ok` (never OTP's {ok, CloseRef}, which waits for a stop
// callback the poller would run later): socket.erl then calls finalize_close.
Term nif_close_1(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    std::lock_guard lock(s->mu);
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    s->closer = p->pid;
    if (p->pid != s->owner) s->closer_mon = native_monitor(*p->vm, p->pid, s->link);
    s->rstate |= ST_CLOSING;
    s->wstate |= ST_CLOSING;
    stop_socket(*s, a[0]);
    return am::ok;
}

// Close, second step: the descriptor itself, blocking (a linger option may hold it while
// the kernel sends what is buffered; OTP runs this on a dirty I/O scheduler).
Term nif_finalize_close_1(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    if (!s) return p->badarg();
    std::lock_guard lock(s->mu);
    if (s->rstate & ST_CLOSED) return error_tuple(p, atom("closed"));
    if (!(s->rstate & ST_CLOSING) || s->closer != p->pid) return raise_invalid(p, atom("state"));
    if (s->closer_mon) native_demonitor(*p->vm, s->closer, s->closer_mon);
    s->closer = NIL;
    s->closer_mon = 0;
    ::fcntl(s->fd, F_SETFL, ::fcntl(s->fd, F_GETFL) & ~O_NONBLOCK);
    int err = close_descriptor(*s, a[0]);
    if (err == EAGAIN || err == EWOULDBLOCK) return error_tuple(p, atom("timeout"));
    if (err != 0) return errno_tuple(p, err);
    return am::ok;
}

constexpr BifSpec table[] = {
    {"prim_socket", "nif_open", 2, &nif_open_2},
    {"prim_socket", "nif_open", 4, &nif_open_4},
    {"prim_socket", "nif_bind", 2, &nif_bind_2},
    {"prim_socket", "nif_connect", 1, &nif_connect_1},
    {"prim_socket", "nif_connect", 3, &nif_connect_3},
    {"prim_socket", "nif_listen", 2, &nif_listen_2},
    {"prim_socket", "nif_accept", 2, &nif_accept_2},
    {"prim_socket", "nif_sockname", 1, &nif_sockname_1},
    {"prim_socket", "nif_peername", 1, &nif_peername_1},
    {"prim_socket", "nif_shutdown", 2, &nif_shutdown_2},
    {"prim_socket", "nif_close", 1, &nif_close_1},
    {"prim_socket", "nif_finalize_close", 1, &nif_finalize_close_1},
};

}  // namespace

}  // namespace beam::esock

namespace beam {
std::span<const BifSpec> prim_socket_open_bifs() { return esock::table; }
}  // namespace beam

// The requests every inet port answers (OTP: inet_drv.c's inet_ctl and the address codec).
#include "io/inet/inet_desc.hpp"

#include <fcntl.h>
#include <sched.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "io/inet/inet_atoms.hpp"
#include "bifs/posix_errors.hpp"
#include "vm/heap.hpp"
#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"

namespace beam::inet {

void Stats::received(size_t n) {
    recv_cnt++;
    recv_oct += n;
    recv_max = std::max<uint64_t>(recv_max, n);
    // Running average, and the running mean of (length - new average), as inet_drv keeps them.
    double cnt = static_cast<double>(recv_cnt);
    recv_avg += (static_cast<double>(n) - recv_avg) / cnt;
    recv_dvi += ((static_cast<double>(n) - recv_avg) - recv_dvi) / cnt;
}

void Stats::sent(size_t n) {
    send_cnt++;
    send_oct += n;
    send_max = std::max<uint64_t>(send_max, n);
    send_avg += (static_cast<double>(n) - send_avg) / static_cast<double>(send_cnt);
}

std::string reply_ok(std::string_view data) {
    std::string r(1, static_cast<char>(INET_REP_OK));
    r.append(data);
    return r;
}

std::string reply_error_atom(std::string_view name) {
    std::string r(1, static_cast<char>(INET_REP_ERROR));
    r.append(name);
    return r;
}

std::string reply_error(int err) { return reply_error_atom(atom_name(posix_error_atom(err))); }

void put_u16(std::string& out, uint16_t v) {
    out.push_back(static_cast<char>(v >> 8));
    out.push_back(static_cast<char>(v));
}

void put_u32(std::string& out, uint32_t v) {
    put_u16(out, static_cast<uint16_t>(v >> 16));
    put_u16(out, static_cast<uint16_t>(v));
}

void put_u64(std::string& out, uint64_t v) {
    put_u32(out, static_cast<uint32_t>(v >> 32));
    put_u32(out, static_cast<uint32_t>(v));
}

bool get_u16(std::string_view& in, uint16_t& v) {
    if (in.size() < 2) return false;
    v = static_cast<uint16_t>((static_cast<uint8_t>(in[0]) << 8) | static_cast<uint8_t>(in[1]));
    in.remove_prefix(2);
    return true;
}

bool get_u32(std::string_view& in, uint32_t& v) {
    uint16_t hi, lo;
    if (in.size() < 4) return false;
    get_u16(in, hi);
    get_u16(in, lo);
    v = (static_cast<uint32_t>(hi) << 16) | lo;
    return true;
}

bool decode_address(std::string_view& in, int family, sockaddr_storage& sa, socklen_t& len) {
    std::memset(&sa, 0, sizeof sa);
    if (in.empty()) return false;
    unsigned tag = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    uint16_t port;
    if (tag == INET_AF_ANY || tag == INET_AF_LOOPBACK) {
        if (!get_u16(in, port)) return false;
        if (family == AF_INET) {
            auto* a = reinterpret_cast<sockaddr_in*>(&sa);
            a->sin_family = AF_INET;
            a->sin_port = htons(port);
            a->sin_addr.s_addr = htonl(tag == INET_AF_ANY ? INADDR_ANY : INADDR_LOOPBACK);
            len = sizeof(sockaddr_in);
            return true;
        }
        if (family == AF_INET6) {
            auto* a = reinterpret_cast<sockaddr_in6*>(&sa);
            a->sin6_family = AF_INET6;
            a->sin6_port = htons(port);
            a->sin6_addr = tag == INET_AF_ANY ? in6addr_any : in6addr_loopback;
            len = sizeof(sockaddr_in6);
            return true;
        }
        return false;
    }
    if (tag == INET_AF_INET) {
        if (in.size() < 6) return false;
        auto* a = reinterpret_cast<sockaddr_in*>(&sa);
        get_u16(in, port);
        a->sin_family = AF_INET;
        a->sin_port = htons(port);
        std::memcpy(&a->sin_addr, in.data(), 4);
        in.remove_prefix(4);
        len = sizeof(sockaddr_in);
        return true;
    }
    if (tag == INET_AF_INET6) {
        if (in.size() < 18) return false;
        auto* a = reinterpret_cast<sockaddr_in6*>(&sa);
        get_u16(in, port);
        a->sin6_family = AF_INET6;
        a->sin6_port = htons(port);
        std::memcpy(&a->sin6_addr, in.data(), 16);
        in.remove_prefix(16);
        uint32_t flow = 0, scope = 0;
        if (in.size() >= 8) {  // prim_inet sends flowinfo and scope id after the address
            get_u32(in, flow);
            get_u32(in, scope);
        }
        a->sin6_flowinfo = htonl(flow);
        a->sin6_scope_id = scope;
        len = sizeof(sockaddr_in6);
        return true;
    }
    if (tag == INET_AF_LOCAL) {
        if (in.empty()) return false;
        size_t n = static_cast<uint8_t>(in[0]);
        if (in.size() < 1 + n) return false;
        auto* a = reinterpret_cast<sockaddr_un*>(&sa);
        // A path needs room for its terminating zero; Linux's abstract names (a leading zero
        // byte) do not.
        bool abstract = n > 0 && in[1] == '\0';
        if (n + (abstract ? 0 : 1) > sizeof a->sun_path) return false;
        a->sun_family = AF_UNIX;
        std::memcpy(a->sun_path, in.data() + 1, n);
        in.remove_prefix(1 + n);
        len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + n);
        return true;
    }
    return false;
}

void encode_address(std::string& out, const sockaddr* sa, socklen_t len) {
    if (sa->sa_family == AF_INET && len >= sizeof(sockaddr_in)) {
        auto* a = reinterpret_cast<const sockaddr_in*>(sa);
        out.push_back(static_cast<char>(INET_AF_INET));
        put_u16(out, ntohs(a->sin_port));
        out.append(reinterpret_cast<const char*>(&a->sin_addr), 4);
    } else if (sa->sa_family == AF_INET6 && len >= sizeof(sockaddr_in6)) {
        auto* a = reinterpret_cast<const sockaddr_in6*>(sa);
        out.push_back(static_cast<char>(INET_AF_INET6));
        put_u16(out, ntohs(a->sin6_port));
        out.append(reinterpret_cast<const char*>(&a->sin6_addr), 16);
    } else if (sa->sa_family == AF_UNIX) {
        auto* a = reinterpret_cast<const sockaddr_un*>(sa);
        size_t n = len > offsetof(sockaddr_un, sun_path) ? len - offsetof(sockaddr_un, sun_path) : 0;
        n = std::min<size_t>(n, 255);
        size_t m = strnlen(a->sun_path, n);
        if (m == 0) m = n;  // an abstract name: the reported length
        out.push_back(static_cast<char>(INET_AF_LOCAL));
        out.push_back(static_cast<char>(m));
        out.append(a->sun_path, m);
    } else if (sa->sa_family == AF_UNSPEC) {
        out.push_back(static_cast<char>(INET_AF_UNSPEC));
    } else {
        out.push_back(static_cast<char>(INET_AF_UNDEFINED));
    }
}

namespace {

int family_of(uint8_t code) {
    switch (code) {
    case INET_AF_INET: return AF_INET;
    case INET_AF_INET6: return AF_INET6;
    case INET_AF_LOCAL: return AF_UNIX;
    default: return -1;
    }
}

int type_of(uint8_t code) {
    switch (code) {
    case INET_TYPE_STREAM: return SOCK_STREAM;
    case INET_TYPE_DGRAM: return SOCK_DGRAM;
    case INET_TYPE_SEQPACKET: return SOCK_SEQPACKET;
    default: return -1;
    }
}

// A socket in the network namespace `netns` names (a path such as /var/run/netns/x), as
// inet_drv makes it: the calling thread enters the namespace for the socket() call and goes
// back. -1 with errno set on failure.
int make_socket(int fam, int ty, const std::optional<std::string>& netns) {
    if (!netns || netns->empty()) return ::socket(fam, ty | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int here = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (here < 0) return -1;
    int there = ::open(netns->c_str(), O_RDONLY | O_CLOEXEC);
    if (there < 0 || ::setns(there, CLONE_NEWNET) != 0) {
        int err = errno;
        if (there >= 0) ::close(there);
        ::close(here);
        errno = err;
        return -1;
    }
    int s = ::socket(fam, ty | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int err = errno;
    ::setns(here, CLONE_NEWNET);
    ::close(there);
    ::close(here);
    errno = err;
    return s;
}

}  // namespace

InetDesc::~InetDesc() = default;

std::optional<std::string> InetDesc::open_socket(uint8_t family_code, uint8_t type_code) {
    if (state != INET_STATE_CLOSED) return reply_error_atom("ebadf");
    int fam = family_of(family_code), ty = type_of(type_code);
    if (fam < 0) return reply_error(EAFNOSUPPORT);
    if (ty < 0 || ty != type) return reply_error(EINVAL);
    int s = make_socket(fam, ty, opt.netns);
    if (s < 0) return reply_error(errno);
    adopt(s, fam, INET_STATE_OPEN);
    opened();
    return reply_ok();
}

std::optional<std::string> InetDesc::fdopen_socket(uint8_t family_code, uint8_t type_code, int given, bool bound) {
    if (state != INET_STATE_CLOSED) return reply_error_atom("ebadf");
    int fam = family_of(family_code);
    if (fam < 0) return reply_error(EAFNOSUPPORT);
    (void)type_code;
    if (bound) {  // as inet_drv: a bound socket of the family asked for
        sockaddr_storage name{};
        socklen_t len = sizeof name;
        if (getsockname(given, reinterpret_cast<sockaddr*>(&name), &len) != 0) return reply_error(errno);
        if (name.ss_family != fam) return reply_error(EINVAL);
    }
    int flags = fcntl(given, F_GETFL);
    if (flags < 0) return reply_error(errno);
    fcntl(given, F_SETFL, flags | O_NONBLOCK);
    uint32_t st = INET_STATE_OPEN;
    sockaddr_storage peer;
    socklen_t plen = sizeof peer;
    if (type == SOCK_STREAM && getpeername(given, reinterpret_cast<sockaddr*>(&peer), &plen) == 0)
        st = INET_STATE_CONNECTED;
    // The descriptor came from outside (a wrapper program, another socket): closing the port
    // leaves it open, as inet_drv's prebound descriptors.
    prebound = true;
    adopt(given, fam, st);
    opened();
    return reply_ok();
}

void InetDesc::adopt(int s, int fam, uint32_t state_flags) {
    fd = s;
    family = fam;
    state = state_flags;
    io = port->watch(fd);
}

void InetDesc::want(uint32_t events) {
    if (io == 0) return;
    armed = events;
    if (events == polled_) return;
    // Interest dropped outside an event stays with the poller until the next event (then
    // EventScope drops it): a passive socket's next recv usually comes before its next data
    // and would only arm the same again, an epoll_ctl each way per recv.
    if (!in_event_ && (events & ~polled_) == 0) return;
    polled_ = events;
    port->arm(io, events);
}

InetDesc::EventScope::~EventScope() {
    d.in_event_ = false;
    if (d.io != 0 && d.polled_ != d.armed) {
        d.polled_ = d.armed;
        d.port->arm(d.io, d.armed);
    }
}

void InetDesc::reply_async(uint16_t ref, Term to, Term result) {
    LiteralArea scratch;
    port->send(to, make_tuple(scratch, {atoms::inet_async(), port->id(), make_small(ref), result}));
}

void InetDesc::reply_async_error(uint16_t ref, Term to, Term reason) {
    LiteralArea scratch;
    reply_async(ref, to, make_tuple(scratch, {am::error, reason}));
}

void InetDesc::inet_reply(Term to, Term status) {
    if (to == NIL) return;
    LiteralArea scratch;
    port->send(to, make_tuple(scratch, {atoms::inet_reply(), port->id(), status}));
}

void InetDesc::inet_reply_error(Term to, Term reason) {
    LiteralArea scratch;
    inet_reply(to, make_tuple(scratch, {am::error, reason}));
}

void InetDesc::send_to_owner(std::initializer_list<Term> elems) {
    LiteralArea scratch;
    port->send(port->owner(), make_tuple_from(scratch, elems.begin(), elems.size()));
}

void InetDesc::count_active_delivery() {
    if (opt.active == INET_ONCE) {
        opt.active = INET_PASSIVE;
    } else if (opt.active == INET_MULTI && --opt.active_n <= 0) {
        opt.active = INET_PASSIVE;
        opt.active_n = 0;
        passive_reached();
    }
}

void InetDesc::stop() {
    if (io) port->forget(io);
    io = 0;
    armed = polled_ = 0;
    if (fd >= 0 && !prebound) ::close(fd);
    fd = -1;
    state = INET_STATE_CLOSED;
}

std::string get_statistics(InetDesc& d, std::string_view data) {
    std::string r(1, static_cast<char>(INET_REP_OK));
    for (char c : data) {
        unsigned op = static_cast<uint8_t>(c);
        r.push_back(c);
        uint64_t v;
        switch (op) {
        case INET_STAT_RECV_CNT: v = d.stats.recv_cnt; break;
        case INET_STAT_RECV_MAX: v = d.stats.recv_max; break;
        case INET_STAT_RECV_AVG: v = static_cast<uint64_t>(d.stats.recv_avg); break;
        case INET_STAT_RECV_DVI: v = static_cast<uint64_t>(std::fabs(d.stats.recv_dvi)); break;
        case INET_STAT_SEND_CNT: v = d.stats.send_cnt; break;
        case INET_STAT_SEND_MAX: v = d.stats.send_max; break;
        case INET_STAT_SEND_AVG: v = static_cast<uint64_t>(d.stats.send_avg); break;
        case INET_STAT_SEND_PEND: v = d.output_queued(); break;
        case INET_STAT_RECV_OCT: put_u64(r, d.stats.recv_oct); continue;
        case INET_STAT_SEND_OCT: put_u64(r, d.stats.send_oct); continue;
        default: return reply_error(EINVAL);
        }
        put_u32(r, static_cast<uint32_t>(v));
    }
    return r;
}

std::optional<std::string> InetDesc::control(Term who, unsigned op, std::string_view data) {
    op -= INET_DRV_CONTROL_MAGIC;  // unsigned: a code without it wraps to no request
    switch (op) {
    case INET_REQ_OPEN:
        if (data.size() != 2) return reply_error(EINVAL);
        return open_socket(static_cast<uint8_t>(data[0]), static_cast<uint8_t>(data[1]));
    case INET_REQ_FDOPEN: {  // Family, Type, Fd:32 [, Bound:32] (bound when absent)
        if (data.size() != 6 && data.size() != 10) return reply_error(EINVAL);
        std::string_view rest = data.substr(2);
        uint32_t given, bound = 1;
        get_u32(rest, given);
        if (!rest.empty()) get_u32(rest, bound);
        return fdopen_socket(static_cast<uint8_t>(data[0]), static_cast<uint8_t>(data[1]), static_cast<int>(given),
                             bound != 0);
    }
    case INET_REQ_CLOSE:
        stop();
        return reply_ok();
    case INET_REQ_BIND: {
        if (!(state & INET_F_OPEN)) return reply_error_atom("einval");
        if (state & INET_F_LISTEN) return reply_error(EINVAL);
        sockaddr_storage sa;
        socklen_t len;
        std::string_view in = data;
        if (!decode_address(in, family, sa, len)) return reply_error(EINVAL);
        if (::bind(fd, reinterpret_cast<sockaddr*>(&sa), len) != 0) return reply_error(errno);
        // No INET_F_BOUND: OTP 25's inet_drv no longer keeps that flag, so inet:info/1 of a
        // bound socket says [open] (udp sockets are always bound) and inet:i/0 shows no B.
        sockaddr_storage bound;
        socklen_t blen = sizeof bound;
        uint16_t port_no = 0;
        if (getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &blen) == 0) {
            if (bound.ss_family == AF_INET) port_no = ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
            if (bound.ss_family == AF_INET6) port_no = ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
        }
        std::string r;
        put_u16(r, port_no);
        return reply_ok(r);
    }
    case INET_REQ_NAME: {
        if (!(state & INET_F_OPEN)) return reply_error(EINVAL);
        if (fake_name) return reply_ok(*fake_name);
        sockaddr_storage sa;
        socklen_t len = sizeof sa;
        if (getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0) return reply_error(errno);
        std::string r;
        encode_address(r, reinterpret_cast<sockaddr*>(&sa), len);
        return reply_ok(r);
    }
    case INET_REQ_PEER: {
        if (!(state & INET_F_ACTIVE)) return reply_error(ENOTCONN);
        if (fake_peer) return reply_ok(*fake_peer);
        sockaddr_storage sa;
        socklen_t len = sizeof sa;
        if (getpeername(fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0) return reply_error(errno);
        std::string r;
        encode_address(r, reinterpret_cast<sockaddr*>(&sa), len);
        return reply_ok(r);
    }
    case INET_REQ_SETNAME:
    case INET_REQ_SETPEER: {
        std::optional<std::string>& fake = op == INET_REQ_SETNAME ? fake_name : fake_peer;
        if (data.empty()) {
            fake.reset();
            return reply_ok();
        }
        sockaddr_storage sa;
        socklen_t len;
        std::string_view in = data;
        if (!decode_address(in, family, sa, len)) return reply_error(EINVAL);
        std::string enc;
        encode_address(enc, reinterpret_cast<sockaddr*>(&sa), len);
        fake = enc;
        return reply_ok();
    }
    case INET_REQ_GETSTATUS: {
        refresh_state();
        std::string r;
        put_u32(r, state);
        return reply_ok(r);
    }
    case INET_REQ_GETTYPE: {
        std::string r;
        unsigned f = family == AF_INET ? INET_AF_INET : family == AF_INET6 ? INET_AF_INET6 : family == AF_UNIX ? INET_AF_LOCAL : 0;
        unsigned t = type == SOCK_STREAM ? INET_TYPE_STREAM : type == SOCK_DGRAM ? INET_TYPE_DGRAM : INET_TYPE_SEQPACKET;
        if (!f) return reply_error(EINVAL);
        put_u32(r, f);
        put_u32(r, t);
        return reply_ok(r);
    }
    case INET_REQ_GETFD: {
        if (!(state & INET_F_OPEN)) return reply_error(EINVAL);
        std::string r;
        put_u32(r, static_cast<uint32_t>(fd));
        return reply_ok(r);
    }
    case INET_REQ_IGNOREFD:  // the descriptor stays ours; erl then stops selecting on it
        return reply_ok();
    case INET_REQ_GETIX: {
        std::string r;
        put_u32(r, static_cast<uint32_t>(local_port_number(port->id())));
        return reply_ok(r);
    }
    case INET_REQ_GETSTAT:
        return get_statistics(*this, data);
    case INET_REQ_SETOPTS:
        return set_options(*this, data);
    case INET_REQ_GETOPTS:
        return get_options(*this, data);
    case INET_REQ_SUBSCRIBE: {
        std::string r(1, static_cast<char>(INET_REP_OK));
        for (char c : data) {
            if (static_cast<uint8_t>(c) != INET_SUBS_EMPTY_OUT_Q) return reply_error(EINVAL);
            r.push_back(c);
            size_t q = output_queued();
            if (q > 0) empty_out_q_subscriber = who;
            put_u32(r, static_cast<uint32_t>(q));
        }
        return r;
    }
    case INET_REQ_GETLADDRS:
    case INET_REQ_GETPADDRS: {  // the addresses one after another; one here (no SCTP)
        if (!(state & INET_F_OPEN)) return reply_error_atom("exbadport");
        sockaddr_storage sa;
        socklen_t len = sizeof sa;
        int rc = op == INET_REQ_GETLADDRS ? getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len)
                                          : getpeername(fd, reinterpret_cast<sockaddr*>(&sa), &len);
        if (rc != 0) return reply_error(errno);
        std::string r;
        encode_address(r, reinterpret_cast<sockaddr*>(&sa), len);
        return reply_ok(r);
    }
    default:
        if (auto r = interface_request(*this, op, data)) return r;
        return control_proto(who, op, data);
    }
}

}  // namespace beam::inet

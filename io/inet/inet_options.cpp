// inet:setopts/2 and inet:getopts/2 as the inet drivers take them (INET_REQ_SETOPTS/GETOPTS).
// prim_inet encodes each option as Code:8 followed by Value:32 (with a few longer forms:
// active N adds Count:16, linger adds Seconds:32, raw, bind_to_device, netns and the multicast
// memberships carry their own bytes). Driver-level options (INET_LOPT_*) live in
// DriverOptions; the others are socket options set on the descriptor.
//
// As inet_drv: a failing setsockopt is ignored except for the options whose failure erl
// reports (priority, tos, tclass, ttl, the recv* options, ipv6_v6only, bind_to_device); a
// getsockopt that fails leaves the option out of the reply.
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "io/inet/inet_desc.hpp"

namespace beam::inet {

namespace {

// inet_drv's bounds for the message-queue watermarks (ERL_DRV_BUSY_MSGQ_LIM_MIN/MAX).
constexpr int32_t MSGQ_LIMIT_MIN = 1;
constexpr int32_t MSGQ_LIMIT_MAX = INT32_MAX - 1;

// Linux resets SO_PRIORITY when IP_TOS is set, and other options may reset IP_TOS: as
// inet_drv does, both are read before any option is set and put back after it (the one being
// set excepted), so options stay independent for the user.
int setsockopt_keep(int fd, int level, int name, const void* arg, socklen_t len) {
    int prio = 0, tos = 0;
    socklen_t plen = sizeof prio, tlen = sizeof tos;
    bool have_prio = ::getsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, &plen) == 0;
    bool have_tos = ::getsockopt(fd, IPPROTO_IP, IP_TOS, &tos, &tlen) == 0;
    int rc = ::setsockopt(fd, level, name, arg, len);
    if (rc != 0) return rc;
    bool is_prio = level == SOL_SOCKET && name == SO_PRIORITY;
    bool is_tos = level == IPPROTO_IP && name == IP_TOS;
    if (is_prio) return 0;
    if (!is_tos && have_tos) ::setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, tlen);
    if (have_prio) ::setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, plen);
    return 0;
}

struct SockOpt {
    int level = SOL_SOCKET;
    int name = 0;
    bool report = false;  // a failure is an error for the caller
};

// Where a plain integer socket option lives; nullopt for codes that are not one.
std::optional<SockOpt> plain_sockopt(const InetDesc& d, unsigned code) {
    switch (code) {
    case INET_OPT_REUSEADDR: return SockOpt{SOL_SOCKET, SO_REUSEADDR};
    case INET_OPT_KEEPALIVE: return SockOpt{SOL_SOCKET, SO_KEEPALIVE};
    case INET_OPT_DONTROUTE: return SockOpt{SOL_SOCKET, SO_DONTROUTE};
    case INET_OPT_BROADCAST: return SockOpt{SOL_SOCKET, SO_BROADCAST};
    case INET_OPT_OOBINLINE: return SockOpt{SOL_SOCKET, SO_OOBINLINE};
    case INET_OPT_SNDBUF: return SockOpt{SOL_SOCKET, SO_SNDBUF};
    case INET_OPT_RCVBUF: return SockOpt{SOL_SOCKET, SO_RCVBUF};
    case INET_OPT_PRIORITY: return SockOpt{SOL_SOCKET, SO_PRIORITY, true};
    case INET_OPT_TOS: return SockOpt{IPPROTO_IP, IP_TOS, true};
    case INET_OPT_TCLASS: return SockOpt{IPPROTO_IPV6, IPV6_TCLASS, true};
    case INET_OPT_TTL: return SockOpt{IPPROTO_IP, IP_TTL, true};
    case INET_OPT_RECVTOS: return SockOpt{IPPROTO_IP, IP_RECVTOS, true};
    case INET_OPT_RECVTCLASS: return SockOpt{IPPROTO_IPV6, IPV6_RECVTCLASS, true};
    case INET_OPT_RECVTTL: return SockOpt{IPPROTO_IP, IP_RECVTTL, true};
    case TCP_OPT_NODELAY: return SockOpt{IPPROTO_TCP, TCP_NODELAY};
    case TCP_OPT_NOPUSH: return SockOpt{IPPROTO_TCP, TCP_CORK};
    case UDP_OPT_MULTICAST_TTL: return SockOpt{IPPROTO_IP, IP_MULTICAST_TTL};
    case UDP_OPT_MULTICAST_LOOP: return SockOpt{IPPROTO_IP, IP_MULTICAST_LOOP};
    case INET_OPT_IPV6_V6ONLY: return SockOpt{IPPROTO_IPV6, IPV6_V6ONLY, true};
    default: (void)d; return std::nullopt;
    }
}

bool set_sockopt(InetDesc& d, const SockOpt& o, const void* arg, socklen_t len) {
    int rc = setsockopt_keep(d.fd, o.level, o.name, arg, len);
    return rc == 0 || !o.report;
}

struct Reader {
    std::string_view in;
    bool ok = true;
    int32_t i32() {
        uint32_t v = 0;
        if (!get_u32(in, v)) ok = false;
        return static_cast<int32_t>(v);
    }
    int16_t i16() {
        uint16_t v = 0;
        if (!get_u16(in, v)) ok = false;
        return static_cast<int16_t>(v);
    }
    std::string_view bytes(size_t n) {
        if (in.size() < n) {
            ok = false;
            return {};
        }
        auto b = in.substr(0, n);
        in.remove_prefix(n);
        return b;
    }
};

// One multicast membership change: Domain (the option value), then IfIndex:32 and for IPv4
// MultiAddr:32 and LocalAddr:32, for IPv6 MultiAddr:16 bytes.
bool set_membership(InetDesc& d, unsigned code, int32_t domain, Reader& r) {
    int32_t ifindex = r.i32();
    if (domain == static_cast<int32_t>(INET_AF_INET) && d.family == AF_INET) {
        ip_mreqn m{};
        m.imr_ifindex = ifindex;
        uint32_t multi = static_cast<uint32_t>(r.i32()), local = static_cast<uint32_t>(r.i32());
        if (!r.ok) return false;
        m.imr_multiaddr.s_addr = htonl(multi);
        m.imr_address.s_addr = htonl(local);
        setsockopt_keep(d.fd, IPPROTO_IP, code == UDP_OPT_ADD_MEMBERSHIP ? IP_ADD_MEMBERSHIP : IP_DROP_MEMBERSHIP, &m,
                     sizeof m);
        return true;
    }
    if (domain == static_cast<int32_t>(INET_AF_INET6) && d.family == AF_INET6) {
        ipv6_mreq m{};
        auto addr = r.bytes(16);
        if (!r.ok) return false;
        std::memcpy(&m.ipv6mr_multiaddr, addr.data(), 16);
        m.ipv6mr_interface = static_cast<unsigned>(ifindex);
        setsockopt_keep(d.fd, IPPROTO_IPV6, code == UDP_OPT_ADD_MEMBERSHIP ? IPV6_ADD_MEMBERSHIP : IPV6_DROP_MEMBERSHIP, &m,
                     sizeof m);
        return true;
    }
    return false;
}

// One option; false: einval for the whole request.
bool set_one(InetDesc& d, unsigned code, int32_t v, Reader& r) {
    DriverOptions& o = d.opt;
    bool stream = d.type == SOCK_STREAM;
    switch (code) {
    case INET_LOPT_HEADER: o.header = static_cast<uint32_t>(v); return true;
    case INET_LOPT_MODE: o.binary = v == static_cast<int32_t>(INET_MODE_BINARY); return true;
    case INET_LOPT_DELIVER: o.deliver_term = v == static_cast<int32_t>(INET_DELIVER_TERM); return true;
    case INET_LOPT_BUFFER:
        o.buffer = static_cast<uint32_t>(v < 1 ? 1 : v);
        o.buffer_set = true;
        return true;
    case INET_LOPT_ACTIVE:
        // An {active, N} whose count is missing or out of range changes nothing.
        if (static_cast<uint8_t>(v) == INET_MULTI) {
            int32_t n = o.active_n + r.i16();
            if (!r.ok || n > INT16_MAX || n < INT16_MIN) return false;
            o.active_n = n < 0 ? 0 : n;
        } else {
            o.active_n = 0;
        }
        o.active = static_cast<uint8_t>(v);
        return true;
    case INET_LOPT_PACKET: o.packet = static_cast<uint8_t>(v); return true;
    case INET_LOPT_PACKET_SIZE: o.packet_size = static_cast<uint32_t>(v); return true;
    case INET_LOPT_EXITONCLOSE: o.exit_on_close = v != 0; return true;
    case INET_LOPT_TCP_HIWTRMRK:
        if (stream) {
            if (v < 0) v = 0;
            if (o.low_watermark > static_cast<uint32_t>(v)) o.low_watermark = static_cast<uint32_t>(v);
            o.high_watermark = static_cast<uint32_t>(v);
        }
        return true;
    case INET_LOPT_TCP_LOWTRMRK:
        if (stream) {
            if (v < 0) v = 0;
            if (o.high_watermark < static_cast<uint32_t>(v)) o.high_watermark = static_cast<uint32_t>(v);
            o.low_watermark = static_cast<uint32_t>(v);
        }
        return true;
    case INET_LOPT_MSGQ_HIWTRMRK:
    case INET_LOPT_MSGQ_LOWTRMRK:
        if (v < MSGQ_LIMIT_MIN || v > MSGQ_LIMIT_MAX) return false;
        (code == INET_LOPT_MSGQ_HIWTRMRK ? o.msgq_high : o.msgq_low) = static_cast<uint32_t>(v);
        return true;
    case INET_LOPT_TCP_SEND_TIMEOUT:
        if (stream) o.send_timeout = v < 0 || static_cast<uint32_t>(v) == 0xffffffffu ? -1 : v;
        return true;
    case INET_LOPT_TCP_SEND_TIMEOUT_CLOSE:
        if (stream) o.send_timeout_close = v != 0;
        return true;
    case INET_LOPT_TCP_DELAY_SEND:
        if (stream) o.delay_send = v != 0;
        return true;
    case INET_LOPT_READ_PACKETS:
        if (d.type == SOCK_DGRAM) {
            if (v <= 0) return false;
            o.read_packets = static_cast<uint32_t>(v);
        }
        return true;
    case INET_LOPT_NETNS: {
        if (v < 0) return false;
        auto name = r.bytes(static_cast<size_t>(v));
        if (!r.ok) return false;
        o.netns = std::string(name);
        return true;
    }
    case INET_LOPT_TCP_SHOW_ECONNRESET:
        if (stream) o.show_econnreset = v != 0;
        return true;
    case INET_LOPT_LINE_DELIM: o.line_delimiter = static_cast<uint8_t>(v); return true;
    case INET_OPT_DEBUG: o.debug = v != 0; return true;
    case INET_OPT_LINGER: {
        linger li{};
        li.l_onoff = v;
        li.l_linger = r.i32();
        if (!r.ok) return false;
        if (stream) o.linger_zero = li.l_onoff && li.l_linger == 0;
        setsockopt_keep(d.fd, SOL_SOCKET, SO_LINGER, &li, sizeof li);
        return true;
    }
    case INET_OPT_RCVBUF:
        // The user-level buffer follows the kernel's unless set itself (UDP: at most 64 KiB,
        // the largest datagram).
        if (!o.buffer_set) {
            if (v > (1 << 16) && d.type == SOCK_DGRAM) o.buffer = 1 << 16;
            else if (v > static_cast<int32_t>(o.buffer)) o.buffer = static_cast<uint32_t>(v);
        }
        setsockopt_keep(d.fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof v);
        return true;
    case UDP_OPT_MULTICAST_IF: {
        if (d.family == AF_INET) {
            in_addr a{htonl(static_cast<uint32_t>(v))};
            setsockopt_keep(d.fd, IPPROTO_IP, IP_MULTICAST_IF, &a, sizeof a);
            return true;
        }
        if (d.family == AF_INET6) {
            int idx = v;
            setsockopt_keep(d.fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &idx, sizeof idx);
            return true;
        }
        return false;
    }
    case UDP_OPT_ADD_MEMBERSHIP:
    case UDP_OPT_DROP_MEMBERSHIP: return set_membership(d, code, v, r);
    case INET_OPT_RAW: {
        int level = v, name = r.i32();
        int32_t size = r.i32();
        if (!r.ok || size < 0) return false;
        auto arg = r.bytes(static_cast<size_t>(size));
        if (!r.ok) return false;
        setsockopt_keep(d.fd, level, name, arg.data(), static_cast<socklen_t>(arg.size()));
        return true;
    }
    case INET_OPT_BIND_TO_DEVICE: {
        if (v < 0 || v > IFNAMSIZ) return false;
        auto name = r.bytes(static_cast<size_t>(v));
        if (!r.ok) return false;
        char ifname[IFNAMSIZ + 1] = {};
        std::memcpy(ifname, name.data(), name.size());
        return setsockopt_keep(d.fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, IFNAMSIZ) == 0;
    }
    default: break;
    }
    auto so = plain_sockopt(d, code);
    if (!so) return false;
    if (!set_sockopt(d, *so, &v, sizeof v)) return false;
    uint8_t flag = code == INET_OPT_RECVTOS ? DriverOptions::RECV_TOS
                   : code == INET_OPT_RECVTCLASS ? DriverOptions::RECV_TCLASS
                   : code == INET_OPT_RECVTTL ? DriverOptions::RECV_TTL : 0;
    if (flag) o.recv_cmsg = v ? (o.recv_cmsg | flag) : (o.recv_cmsg & ~flag);
    return true;
}

void put_opt(std::string& out, unsigned code, int32_t v) {
    out.push_back(static_cast<char>(code));
    put_u32(out, static_cast<uint32_t>(v));
}

}  // namespace

std::string set_options(InetDesc& d, std::string_view data) {
    uint8_t old_active = d.opt.active, old_packet = d.opt.packet;
    Reader r{data};
    while (r.in.size() >= 5) {
        unsigned code = static_cast<uint8_t>(r.in[0]);
        r.in.remove_prefix(1);
        int32_t v = r.i32();
        if (!set_one(d, code, v, r)) return reply_error(EINVAL);
        if (code == INET_LOPT_ACTIVE && d.opt.active == INET_MULTI && d.opt.active_n == 0) {
            d.opt.active = INET_PASSIVE;
            d.passive_reached();
        }
    }
    bool active_changed = d.opt.active != old_active, packet_changed = d.opt.packet != old_packet;
    if (active_changed || packet_changed) d.options_changed(old_active, active_changed, packet_changed);
    return reply_ok();
}

std::string get_options(InetDesc& d, std::string_view data) {
    const DriverOptions& o = d.opt;
    bool stream = d.type == SOCK_STREAM;
    std::string out(1, static_cast<char>(INET_REP_OK));
    Reader r{data};
    while (!r.in.empty()) {
        unsigned code = static_cast<uint8_t>(r.in[0]);
        r.in.remove_prefix(1);
        switch (code) {
        case INET_LOPT_BUFFER: put_opt(out, code, static_cast<int32_t>(o.buffer)); continue;
        case INET_LOPT_HEADER: put_opt(out, code, static_cast<int32_t>(o.header)); continue;
        case INET_LOPT_MODE: put_opt(out, code, o.binary ? INET_MODE_BINARY : INET_MODE_LIST); continue;
        case INET_LOPT_DELIVER: put_opt(out, code, o.deliver_term ? INET_DELIVER_TERM : INET_DELIVER_PORT); continue;
        case INET_LOPT_ACTIVE:
            put_opt(out, code, o.active);
            if (o.active == INET_MULTI) put_u16(out, static_cast<uint16_t>(o.active_n));
            continue;
        case INET_LOPT_PACKET: put_opt(out, code, o.packet); continue;
        case INET_LOPT_PACKET_SIZE: put_opt(out, code, static_cast<int32_t>(o.packet_size)); continue;
        case INET_LOPT_EXITONCLOSE: put_opt(out, code, o.exit_on_close); continue;
        case INET_LOPT_TCP_HIWTRMRK:
            if (stream) put_opt(out, code, static_cast<int32_t>(o.high_watermark));
            continue;
        case INET_LOPT_TCP_LOWTRMRK:
            if (stream) put_opt(out, code, static_cast<int32_t>(o.low_watermark));
            continue;
        case INET_LOPT_MSGQ_HIWTRMRK: put_opt(out, code, static_cast<int32_t>(o.msgq_high)); continue;
        case INET_LOPT_MSGQ_LOWTRMRK: put_opt(out, code, static_cast<int32_t>(o.msgq_low)); continue;
        case INET_LOPT_TCP_SEND_TIMEOUT:
            if (stream) put_opt(out, code, o.send_timeout < 0 ? -1 : static_cast<int32_t>(o.send_timeout));
            continue;
        case INET_LOPT_TCP_SEND_TIMEOUT_CLOSE:
            if (stream) put_opt(out, code, o.send_timeout_close);
            continue;
        case INET_LOPT_TCP_DELAY_SEND:
            if (stream) put_opt(out, code, o.delay_send);
            continue;
        case INET_LOPT_READ_PACKETS:
            if (d.type == SOCK_DGRAM) put_opt(out, code, static_cast<int32_t>(o.read_packets));
            continue;
        case INET_LOPT_NETNS:
            if (o.netns) {
                put_opt(out, code, static_cast<int32_t>(o.netns->size()));
                out.append(*o.netns);
            }
            continue;
        case INET_LOPT_TCP_SHOW_ECONNRESET:
            if (stream) put_opt(out, code, o.show_econnreset);
            continue;
        // line_delimiter cannot be read back: inet_drv answers einval for it.
        case INET_OPT_DEBUG: put_opt(out, code, o.debug); continue;
        case INET_OPT_LINGER: {
            linger li{};
            socklen_t len = sizeof li;
            if (::getsockopt(d.fd, SOL_SOCKET, SO_LINGER, &li, &len) != 0) continue;
            put_opt(out, code, li.l_onoff);
            put_u32(out, static_cast<uint32_t>(li.l_linger));
            continue;
        }
        case UDP_OPT_MULTICAST_IF: {
            int32_t value = 0;
            if (d.family == AF_INET) {
                in_addr a{};
                socklen_t len = sizeof a;
                if (::getsockopt(d.fd, IPPROTO_IP, IP_MULTICAST_IF, &a, &len) != 0) continue;
                value = static_cast<int32_t>(ntohl(a.s_addr));
            } else if (d.family == AF_INET6) {
                socklen_t len = sizeof value;
                if (::getsockopt(d.fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &value, &len) != 0) continue;
            } else {
                return reply_error(EINVAL);
            }
            // prim_inet's dec_value(mif, ...) reads the address (IPv4) or interface index
            // (IPv6) first and the family after it. (inet_drv means to write that but
            // leaves the first four bytes unwritten: erl answers garbage there.)
            put_opt(out, code, value);
            put_u32(out, d.family == AF_INET ? INET_AF_INET : INET_AF_INET6);
            continue;
        }
        case INET_OPT_RAW: {
            int32_t level = r.i32(), name = r.i32();
            auto provided = r.bytes(1);
            int32_t size = r.i32();
            // inet_drv's reply may not grow past INET_MAX_OPT_BUFFER (64 KiB).
            if (!r.ok || size < 0 || out.size() + 13 + static_cast<size_t>(size) > 64 * 1024) return reply_error(EINVAL);
            std::string arg(static_cast<size_t>(size), '\0');
            if (!provided.empty() && provided[0]) {
                auto given = r.bytes(static_cast<size_t>(size));
                if (!r.ok) return reply_error(EINVAL);
                arg.assign(given);
            }
            socklen_t len = static_cast<socklen_t>(arg.size());
            if (::getsockopt(d.fd, level, name, arg.data(), &len) != 0) continue;
            out.push_back(static_cast<char>(code));
            put_u32(out, static_cast<uint32_t>(level));
            put_u32(out, static_cast<uint32_t>(name));
            put_u32(out, len);
            out.append(arg.data(), len);
            continue;
        }
        case INET_OPT_BIND_TO_DEVICE: {
            char ifname[IFNAMSIZ + 1] = {};
            socklen_t len = IFNAMSIZ;
            if (::getsockopt(d.fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, &len) != 0) continue;
            size_t n = strnlen(ifname, len);
            put_opt(out, code, static_cast<int32_t>(n));
            out.append(ifname, n);
            continue;
        }
        case INET_OPT_PKTOPTIONS: {
            // The ancillary data the kernel kept for a TCP socket (IP_PKTOPTIONS /
            // IPV6_PKTOPTIONS): Opt:8, Len:32, then [COpt:8, Value:32] for tos, tclass, ttl.
            int level, name;
            if (d.family == AF_INET) level = IPPROTO_IP, name = IP_PKTOPTIONS;
            else if (d.family == AF_INET6) level = IPPROTO_IPV6, name = IPV6_2292PKTOPTIONS;
            else return reply_error(EINVAL);
            alignas(cmsghdr) char buf[2 * CMSG_SPACE(sizeof(int)) + 64];
            socklen_t len = sizeof buf;
            if (::getsockopt(d.fd, level, name, buf, &len) != 0) continue;
            std::string items;
            msghdr m{};
            m.msg_control = buf;
            m.msg_controllen = len;
            for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
                unsigned item = 0;
                if (c->cmsg_level == IPPROTO_IP && (c->cmsg_type == IP_TOS || c->cmsg_type == IP_RECVTOS)) item = INET_OPT_TOS;
                else if (c->cmsg_level == IPPROTO_IPV6 && (c->cmsg_type == IPV6_TCLASS || c->cmsg_type == IPV6_RECVTCLASS))
                    item = INET_OPT_TCLASS;
                else if (c->cmsg_level == IPPROTO_IP && (c->cmsg_type == IP_TTL || c->cmsg_type == IP_RECVTTL)) item = INET_OPT_TTL;
                if (!item) continue;
                size_t dlen = c->cmsg_len - CMSG_LEN(0);
                uint32_t v = 0;
                const unsigned char* p = CMSG_DATA(c);
                if (dlen == 1) v = p[0];
                else if (dlen >= 4) std::memcpy(&v, p, 4);
                items.push_back(static_cast<char>(item));
                put_u32(items, v);
            }
            put_opt(out, code, static_cast<int32_t>(items.size()));
            out.append(items);
            continue;
        }
        default: break;
        }
        auto so = plain_sockopt(d, code);
        if (!so) return reply_error(EINVAL);
        int32_t v = 0;
        socklen_t len = sizeof v;
        if (::getsockopt(d.fd, so->level, so->name, &v, &len) != 0) continue;
        put_opt(out, code, v);
    }
    return out;
}

}  // namespace beam::inet

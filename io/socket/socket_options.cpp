// prim_socket's options: nif_setopt/5, nif_getopt/3,4, and the options table that
// nif_supports(options) gives prim_socket (its map from {Level, Name} to {LevelNum, OptNum},
// which setopt/getopt then pass here). The table is OTP's for Linux (prim_socket_nif.c's
// optLevel* arrays): an option without a number there is listed by name only (not
// supported). Value codecs follow the NIF's (bool, int, linger, ip tos, mtu discovery,
// multicast interfaces and memberships, strings); {otp, _} options are the NIF's own state.
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <sys/socket.h>

#include <cstring>
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "io/socket/socket_cmsg.hpp"
#include "io/socket/socket_options.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/term_print.hpp"
#include "vm/vm.hpp"

namespace beam::esock {

namespace {

enum class Kind : uint8_t {
    None,        // listed, not supported
    Bool, Int, IntGetOnly, Linger, Domain, Type, Protocol, Str, Tos, MtuDiscover, MulticastIf4,
    Membership4, SourceMembership4, Membership6, AddrForm, Hops, BoolSetOnly,
};

struct Opt {
    int level;
    const char* name;
    int num;
    Kind kind;
};

// SCTP's numbers (linux/sctp.h; not installed with glibc's headers).
constexpr int SCTP_RTOINFO_ = 0, SCTP_ASSOCINFO_ = 1, SCTP_INITMSG_ = 2, SCTP_NODELAY_ = 3, SCTP_AUTOCLOSE_ = 4,
              SCTP_DISABLE_FRAGMENTS_ = 8, SCTP_EVENTS_ = 11, SCTP_MAXSEG_ = 13;

constexpr Opt options[] = {
    {SOL_SOCKET, "acceptconn", SO_ACCEPTCONN, Kind::Bool},
    {SOL_SOCKET, "acceptfilter", -1, Kind::None},
    {SOL_SOCKET, "bindtodevice", SO_BINDTODEVICE, Kind::Str},
    {SOL_SOCKET, "broadcast", SO_BROADCAST, Kind::Bool},
    {SOL_SOCKET, "busy_poll", -1, Kind::None},
    {SOL_SOCKET, "debug", SO_DEBUG, Kind::Int},
    {SOL_SOCKET, "domain", SO_DOMAIN, Kind::Domain},
    {SOL_SOCKET, "dontroute", SO_DONTROUTE, Kind::Bool},
    {SOL_SOCKET, "error", -1, Kind::None},
    {SOL_SOCKET, "keepalive", SO_KEEPALIVE, Kind::Bool},
    {SOL_SOCKET, "linger", SO_LINGER, Kind::Linger},
    {SOL_SOCKET, "mark", -1, Kind::None},
    {SOL_SOCKET, "oobinline", SO_OOBINLINE, Kind::Bool},
    {SOL_SOCKET, "passcred", SO_PASSCRED, Kind::Bool},
    {SOL_SOCKET, "peek_off", SO_PEEK_OFF, Kind::Int},
    {SOL_SOCKET, "peercred", -1, Kind::None},
    {SOL_SOCKET, "priority", SO_PRIORITY, Kind::Int},
    {SOL_SOCKET, "protocol", SO_PROTOCOL, Kind::Protocol},
    {SOL_SOCKET, "rcvbuf", SO_RCVBUF, Kind::Int},
    {SOL_SOCKET, "rcvbufforce", -1, Kind::None},
    {SOL_SOCKET, "rcvlowat", SO_RCVLOWAT, Kind::Int},
    {SOL_SOCKET, "rcvtimeo", -1, Kind::None},  // as OTP builds it (no ESOCK_USE_RCVSNDTIMEO)
    {SOL_SOCKET, "reuseaddr", SO_REUSEADDR, Kind::Bool},
    {SOL_SOCKET, "reuseport", SO_REUSEPORT, Kind::Bool},
    {SOL_SOCKET, "rxq_ovfl", -1, Kind::None},
    {SOL_SOCKET, "setfib", -1, Kind::None},
    {SOL_SOCKET, "sndbuf", SO_SNDBUF, Kind::Int},
    {SOL_SOCKET, "sndbufforce", -1, Kind::None},
    {SOL_SOCKET, "sndlowat", SO_SNDLOWAT, Kind::Int},
    {SOL_SOCKET, "sndtimeo", -1, Kind::None},
    {SOL_SOCKET, "timestamp", SO_TIMESTAMP, Kind::Bool},
    {SOL_SOCKET, "type", SO_TYPE, Kind::Type},

    {SOL_IP, "add_membership", IP_ADD_MEMBERSHIP, Kind::Membership4},
    {SOL_IP, "add_source_membership", IP_ADD_SOURCE_MEMBERSHIP, Kind::SourceMembership4},
    {SOL_IP, "block_source", IP_BLOCK_SOURCE, Kind::SourceMembership4},
    {SOL_IP, "dontfrag", -1, Kind::None},
    {SOL_IP, "drop_membership", IP_DROP_MEMBERSHIP, Kind::Membership4},
    {SOL_IP, "drop_source_membership", IP_DROP_SOURCE_MEMBERSHIP, Kind::SourceMembership4},
    {SOL_IP, "freebind", IP_FREEBIND, Kind::Bool},
    {SOL_IP, "hdrincl", IP_HDRINCL, Kind::Bool},
    {SOL_IP, "minttl", IP_MINTTL, Kind::Int},
    {SOL_IP, "msfilter", IP_MSFILTER, Kind::None},  // numbered, its codec not in beamvm
    {SOL_IP, "mtu", IP_MTU, Kind::IntGetOnly},
    {SOL_IP, "mtu_discover", IP_MTU_DISCOVER, Kind::MtuDiscover},
    {SOL_IP, "multicast_all", IP_MULTICAST_ALL, Kind::Bool},
    {SOL_IP, "multicast_if", IP_MULTICAST_IF, Kind::MulticastIf4},
    {SOL_IP, "multicast_loop", IP_MULTICAST_LOOP, Kind::Bool},
    {SOL_IP, "multicast_ttl", IP_MULTICAST_TTL, Kind::Int},
    {SOL_IP, "nodefrag", IP_NODEFRAG, Kind::Bool},
    {SOL_IP, "options", -1, Kind::None},
    {SOL_IP, "pktinfo", IP_PKTINFO, Kind::Bool},
    {SOL_IP, "pktoptions", IP_PKTOPTIONS, Kind::None},  // numbered, its codec not in beamvm
    {SOL_IP, "recvdstaddr", -1, Kind::None},
    {SOL_IP, "recverr", IP_RECVERR, Kind::Bool},
    {SOL_IP, "recvif", -1, Kind::None},
    {SOL_IP, "recvopts", IP_RECVOPTS, Kind::Bool},
    {SOL_IP, "recvorigdstaddr", IP_RECVORIGDSTADDR, Kind::Bool},
    {SOL_IP, "recvtos", IP_RECVTOS, Kind::Bool},
    {SOL_IP, "recvttl", IP_RECVTTL, Kind::Bool},
    {SOL_IP, "retopts", IP_RETOPTS, Kind::Bool},
    {SOL_IP, "router_alert", IP_ROUTER_ALERT, Kind::Int},
    {SOL_IP, "sendsrcaddr", -1, Kind::None},
    {SOL_IP, "tos", IP_TOS, Kind::Tos},
    {SOL_IP, "transparent", IP_TRANSPARENT, Kind::Bool},
    {SOL_IP, "ttl", IP_TTL, Kind::Int},
    {SOL_IP, "unblock_source", IP_UNBLOCK_SOURCE, Kind::SourceMembership4},

    {SOL_IPV6, "addrform", IPV6_ADDRFORM, Kind::AddrForm},
    {SOL_IPV6, "add_membership", IPV6_ADD_MEMBERSHIP, Kind::Membership6},
    {SOL_IPV6, "authhdr", IPV6_2292HOPOPTS + 6, Kind::Bool},  // IPV6_AUTHHDR (10), gone from glibc
    {SOL_IPV6, "auth_level", -1, Kind::None},
    {SOL_IPV6, "checksum", -1, Kind::None},
    {SOL_IPV6, "drop_membership", IPV6_DROP_MEMBERSHIP, Kind::Membership6},
    {SOL_IPV6, "dstopts", IPV6_DSTOPTS, Kind::Bool},
    {SOL_IPV6, "esp_network_level", -1, Kind::None},
    {SOL_IPV6, "esp_trans_level", -1, Kind::None},
    {SOL_IPV6, "faith", -1, Kind::None},
    {SOL_IPV6, "flowinfo", 11, Kind::Bool},  // IPV6_FLOWINFO (linux/in6.h)
    {SOL_IPV6, "hoplimit", IPV6_HOPLIMIT, Kind::Bool},
    {SOL_IPV6, "hopopts", IPV6_HOPOPTS, Kind::Bool},
    {SOL_IPV6, "ipcomp_level", -1, Kind::None},
    {SOL_IPV6, "join_group", -1, Kind::None},
    {SOL_IPV6, "leave_group", -1, Kind::None},
    {SOL_IPV6, "mtu", IPV6_MTU, Kind::Int},
    {SOL_IPV6, "mtu_discover", IPV6_MTU_DISCOVER, Kind::MtuDiscover},
    {SOL_IPV6, "multicast_hops", IPV6_MULTICAST_HOPS, Kind::Hops},
    {SOL_IPV6, "multicast_if", IPV6_MULTICAST_IF, Kind::Int},
    {SOL_IPV6, "multicast_loop", IPV6_MULTICAST_LOOP, Kind::Bool},
    {SOL_IPV6, "portrange", -1, Kind::None},
    {SOL_IPV6, "pktoptions", -1, Kind::None},
    {SOL_IPV6, "recverr", IPV6_RECVERR, Kind::Bool},
    {SOL_IPV6, "recvhoplimit", IPV6_RECVHOPLIMIT, Kind::Bool},
    {SOL_IPV6, "recvpktinfo", IPV6_RECVPKTINFO, Kind::Bool},
    {SOL_IPV6, "recvtclass", IPV6_RECVTCLASS, Kind::Bool},
    {SOL_IPV6, "router_alert", IPV6_ROUTER_ALERT, Kind::Int},
    {SOL_IPV6, "rthdr", IPV6_RTHDR, Kind::Bool},
    {SOL_IPV6, "tclass", IPV6_TCLASS, Kind::Int},
    {SOL_IPV6, "unicast_hops", IPV6_UNICAST_HOPS, Kind::Hops},
    {SOL_IPV6, "use_min_mtu", -1, Kind::None},
    {SOL_IPV6, "v6only", IPV6_V6ONLY, Kind::Bool},

    {IPPROTO_SCTP, "adaption_layer", -1, Kind::None},
    {IPPROTO_SCTP, "associnfo", SCTP_ASSOCINFO_, Kind::None},
    {IPPROTO_SCTP, "auth_active_key", -1, Kind::None},
    {IPPROTO_SCTP, "auth_chunk", -1, Kind::None},
    {IPPROTO_SCTP, "auth_delete_key", -1, Kind::None},
    {IPPROTO_SCTP, "auth_key", -1, Kind::None},
    {IPPROTO_SCTP, "autoclose", SCTP_AUTOCLOSE_, Kind::Int},
    {IPPROTO_SCTP, "context", -1, Kind::None},
    {IPPROTO_SCTP, "default_send_params", -1, Kind::None},
    {IPPROTO_SCTP, "delayed_ack_time", -1, Kind::None},
    {IPPROTO_SCTP, "disable_fragments", SCTP_DISABLE_FRAGMENTS_, Kind::Bool},
    {IPPROTO_SCTP, "hmac_ident", -1, Kind::None},
    {IPPROTO_SCTP, "events", SCTP_EVENTS_, Kind::None},
    {IPPROTO_SCTP, "explicit_eor", -1, Kind::None},
    {IPPROTO_SCTP, "fragment_interleave", -1, Kind::None},
    {IPPROTO_SCTP, "get_peer_addr_info", -1, Kind::None},
    {IPPROTO_SCTP, "initmsg", SCTP_INITMSG_, Kind::None},
    {IPPROTO_SCTP, "i_want_mapped_v4_addr", -1, Kind::None},
    {IPPROTO_SCTP, "local_auth_chunks", -1, Kind::None},
    {IPPROTO_SCTP, "maxseg", SCTP_MAXSEG_, Kind::Int},
    {IPPROTO_SCTP, "maxburst", -1, Kind::None},
    {IPPROTO_SCTP, "nodelay", SCTP_NODELAY_, Kind::Bool},
    {IPPROTO_SCTP, "partial_delivery_point", -1, Kind::None},
    {IPPROTO_SCTP, "peer_addr_params", -1, Kind::None},
    {IPPROTO_SCTP, "peer_auth_chunks", -1, Kind::None},
    {IPPROTO_SCTP, "primary_addr", -1, Kind::None},
    {IPPROTO_SCTP, "reset_streams", -1, Kind::None},
    {IPPROTO_SCTP, "rtoinfo", SCTP_RTOINFO_, Kind::None},
    {IPPROTO_SCTP, "set_peer_primary_addr", -1, Kind::None},
    {IPPROTO_SCTP, "status", -1, Kind::None},
    {IPPROTO_SCTP, "use_ext_recvinfo", -1, Kind::None},

    {IPPROTO_TCP, "congestion", TCP_CONGESTION, Kind::Str},
    {IPPROTO_TCP, "cork", TCP_CORK, Kind::Bool},
    {IPPROTO_TCP, "info", -1, Kind::None},
    {IPPROTO_TCP, "keepcnt", -1, Kind::None},
    {IPPROTO_TCP, "keepidle", -1, Kind::None},
    {IPPROTO_TCP, "keepintvl", -1, Kind::None},
    {IPPROTO_TCP, "maxseg", TCP_MAXSEG, Kind::Int},
    {IPPROTO_TCP, "md5sig", -1, Kind::None},
    {IPPROTO_TCP, "nodelay", TCP_NODELAY, Kind::Bool},
    {IPPROTO_TCP, "noopt", -1, Kind::None},
    {IPPROTO_TCP, "nopush", -1, Kind::None},
    {IPPROTO_TCP, "syncnt", -1, Kind::None},
    {IPPROTO_TCP, "user_timeout", -1, Kind::None},

    {IPPROTO_UDP, "cork", UDP_CORK, Kind::Bool},
};

// Listed with a number (num >= 0) as in OTP's table; -1: listed by name only. A few are
// numbered without a codec here (msfilter, ip pktoptions, SCTP's structures): setopt and
// getopt answer {invalid, socket_option} for those.
bool numbered(const Opt& o) { return o.num >= 0; }

const Opt* lookup(int level, int num) {
    for (const Opt& o : options)
        if (o.level == level && numbered(o) && o.num == num) return &o;
    return nullptr;
}

bool decode_bool(Term t, bool& b) {
    if (t == am::true_) return b = true, true;
    if (t == am::false_) return b = false, true;
    return false;
}

Term set_raw(Process* p, Socket& s, int level, int opt, const void* v, socklen_t n) {
    if (::setsockopt(s.fd, level, opt, v, n) != 0) return errno_tuple(p, errno);
    return am::ok;
}

Term get_int(Process* p, Socket& s, int level, int opt, int& v) {
    socklen_t n = sizeof v;
    v = 0;
    if (::getsockopt(s.fd, level, opt, &v, &n) != 0) return errno_tuple(p, errno);
    return am::ok;
}

Term invalid_value(Process* p) { return invalid_tuple(p, atom("value")); }

bool decode_pmtudisc(Term t, int& v) {
    if (t == atom("want")) return v = IP_PMTUDISC_WANT, true;
    if (t == atom("dont")) return v = IP_PMTUDISC_DONT, true;
    if (t == atom("do")) return v = IP_PMTUDISC_DO, true;
    if (t == atom("probe")) return v = IP_PMTUDISC_PROBE, true;
    return esock::get_int(t, v);
}

Term encode_pmtudisc(Process* p, int v) {
    switch (v) {
    case IP_PMTUDISC_WANT: return atom("want");
    case IP_PMTUDISC_DONT: return atom("dont");
    case IP_PMTUDISC_DO: return atom("do");
    case IP_PMTUDISC_PROBE: return atom("probe");
    default: return make_integer(*p, v);
    }
}

const Term* field(Term m, const char* k) { return is_map(m) ? map_get(m, atom(k)) : nullptr; }

Term setopt(Process* p, Socket& s, const Opt& o, Term v) {
    int iv;
    bool b;
    switch (o.kind) {
    case Kind::Bool:
    case Kind::BoolSetOnly:
        if (!decode_bool(v, b)) return invalid_value(p);
        iv = b;
        return set_raw(p, s, o.level, o.num, &iv, sizeof iv);
    case Kind::Int:
        if (!esock::get_int(v, iv)) return invalid_value(p);
        return set_raw(p, s, o.level, o.num, &iv, sizeof iv);
    case Kind::Hops:
        if (v == atom("default")) iv = -1;
        else if (!esock::get_int(v, iv)) return invalid_value(p);
        return set_raw(p, s, o.level, o.num, &iv, sizeof iv);
    case Kind::Linger: {
        linger l{};
        const Term *on = field(v, "onoff"), *secs = field(v, "linger");
        if (!on || !secs) {
            if (v != atom("abort")) return invalid_value(p);
            l.l_onoff = 1, l.l_linger = 0;
        } else {
            if (!decode_bool(*on, b) || !esock::get_int(*secs, l.l_linger) || l.l_linger < 0)
                return invalid_value(p);
            l.l_onoff = b;
        }
        return set_raw(p, s, o.level, o.num, &l, sizeof l);
    }
    case Kind::Str: {
        auto str = char_list_to_utf8(v);
        size_t max = o.num == SO_BINDTODEVICE ? IFNAMSIZ : 16;
        if (!str || str->size() >= max) return invalid_value(p);
        return set_raw(p, s, o.level, o.num, str->data(), socklen_t(str->size()));
    }
    case Kind::Tos:
        if (!decode_ip_tos(v, iv)) return invalid_value(p);
        return set_raw(p, s, o.level, o.num, &iv, sizeof iv);
    case Kind::MtuDiscover:
        if (!decode_pmtudisc(v, iv)) return invalid_value(p);
        return set_raw(p, s, o.level, o.num, &iv, sizeof iv);
    case Kind::MulticastIf4: {
        in_addr a;
        if (!decode_in_addr(v, a)) return invalid_value(p);
        return set_raw(p, s, o.level, o.num, &a, sizeof a);
    }
    case Kind::Membership4: {
        ip_mreq m{};
        const Term *ma = field(v, "multiaddr"), *itf = field(v, "interface");
        if (!ma || !itf || !decode_in_addr(*ma, m.imr_multiaddr) || !decode_in_addr(*itf, m.imr_interface))
            return invalid_value(p);
        return set_raw(p, s, o.level, o.num, &m, sizeof m);
    }
    case Kind::SourceMembership4: {
        ip_mreq_source m{};
        const Term *ma = field(v, "multiaddr"), *itf = field(v, "interface"), *src = field(v, "sourceaddr");
        if (!ma || !itf || !src || !decode_in_addr(*ma, m.imr_multiaddr) ||
            !decode_in_addr(*itf, m.imr_interface) || !decode_in_addr(*src, m.imr_sourceaddr))
            return invalid_value(p);
        return set_raw(p, s, o.level, o.num, &m, sizeof m);
    }
    case Kind::Membership6: {
        ipv6_mreq m{};
        const Term *ma = field(v, "multiaddr"), *itf = field(v, "interface");
        uint64_t ifx;
        if (!ma || !itf || !decode_in6_addr(*ma, m.ipv6mr_multiaddr) || !get_uint64(*itf, ifx))
            return invalid_value(p);
        m.ipv6mr_interface = unsigned(ifx);
        return set_raw(p, s, o.level, o.num, &m, sizeof m);
    }
    case Kind::AddrForm:
        if (v != atom("inet")) return invalid_value(p);
        iv = AF_INET;
        return set_raw(p, s, o.level, o.num, &iv, sizeof iv);
    default: return invalid_tuple(p, atom("socket_option"));
    }
}

Term ok(Process* p, Term v) { return make_tuple(*p, {am::ok, v}); }

Term getopt(Process* p, Socket& s, const Opt& o) {
    int iv;
    Term r;
    switch (o.kind) {
    case Kind::Bool:
        if ((r = get_int(p, s, o.level, o.num, iv)) != am::ok) return r;
        return ok(p, iv ? am::true_ : am::false_);
    case Kind::Int:
    case Kind::IntGetOnly:
    case Kind::Hops:
        if ((r = get_int(p, s, o.level, o.num, iv)) != am::ok) return r;
        return ok(p, make_integer(*p, iv));
    case Kind::Domain:
        if ((r = get_int(p, s, o.level, o.num, iv)) != am::ok) return r;
        return ok(p, encode_domain(p, iv));
    case Kind::Type:
        if ((r = get_int(p, s, o.level, o.num, iv)) != am::ok) return r;
        return ok(p, encode_type(p, iv));
    case Kind::Protocol:
        if ((r = get_int(p, s, o.level, o.num, iv)) != am::ok) return r;
        // The protocols table's 0 (ip) is wrong for a local socket (OTP answers `default`).
        if (iv == 0 && s.domain == AF_LOCAL) return ok(p, atom("default"));
        return ok(p, make_integer(*p, iv));
    case Kind::Tos:
        if ((r = get_int(p, s, o.level, o.num, iv)) != am::ok) return r;
        return ok(p, encode_ip_tos(p, iv));
    case Kind::MtuDiscover:
        if ((r = get_int(p, s, o.level, o.num, iv)) != am::ok) return r;
        return ok(p, encode_pmtudisc(p, iv));
    case Kind::Linger: {
        linger l{};
        socklen_t n = sizeof l;
        if (::getsockopt(s.fd, o.level, o.num, &l, &n) != 0) return errno_tuple(p, errno);
        return ok(p, make_atom_map(p, {{"onoff", l.l_onoff ? am::true_ : am::false_},
                                       {"linger", make_integer(*p, l.l_linger)}}));
    }
    case Kind::Str: {
        char buf[64] = {};
        socklen_t n = sizeof buf;
        if (::getsockopt(s.fd, o.level, o.num, buf, &n) != 0) return errno_tuple(p, errno);
        return ok(p, make_string(*p, std::string_view(buf, strnlen(buf, n))));
    }
    case Kind::MulticastIf4: {
        in_addr a{};
        socklen_t n = sizeof a;
        if (::getsockopt(s.fd, o.level, o.num, &a, &n) != 0) return errno_tuple(p, errno);
        return ok(p, encode_in_addr(p, a));
    }
    default: return invalid_tuple(p, atom("socket_option"));
    }
}

bool gets(Kind k) {
    return k != Kind::None && k != Kind::Membership4 && k != Kind::SourceMembership4 &&
           k != Kind::Membership6 && k != Kind::AddrForm && k != Kind::BoolSetOnly;
}
bool sets(Kind k) {
    return k != Kind::None && k != Kind::Domain && k != Kind::Type && k != Kind::Protocol &&
           k != Kind::IntGetOnly;
}

bool decode_bufsz(Term t, size_t dflt, size_t& out) {
    uint64_t v;
    if (get_uint64(t, v)) {
        if (v == 0) return false;
        out = size_t(v);
        return true;
    }
    if (t != atom("default")) return false;
    out = dflt;
    return true;
}

Term setopt_otp(Process* p, Socket& s, Term sockref, int opt, Term v) {
    bool b;
    size_t sz;
    if (!is_open(s.wstate) && opt != 1004 && opt != 1006) return error_tuple(p, atom("closed"));
    switch (opt) {
    case 1001:  // debug
        if (!decode_bool(v, b)) return invalid_value(p);
        s.debug = b;
        return am::ok;
    case 1002:  // iow
        if (!decode_bool(v, b)) return invalid_value(p);
        s.iow = b;
        return am::ok;
    case 1003: {  // controlling_process
        if (p->pid != s.owner) return error_invalid(p, atom("not_owner"));
        if (!is_local_pid(v)) return invalid_value(p);
        if (s.owner_mon) native_demonitor(s.vm, s.owner, s.owner_mon);
        s.owner = v;
        s.owner_mon = native_monitor(s.vm, v, s.link);
        if (s.owner_mon == 0) {
            // Already dead: as if its monitor fired now.
            s.owner = NIL;
            s.rstate |= ST_CLOSING;
            s.wstate |= ST_CLOSING;
            stop_socket(s, sockref);
            close_descriptor(s, sockref);
        }
        return am::ok;
    }
    case 1004:  // rcvbuf: Size | {N, Size}
        if (!is_open(s.rstate)) return error_tuple(p, atom("closed"));
        if (decode_bufsz(v, 8192, sz)) {
            s.rnum = 0;
        } else {
            uint64_t n;
            if (!is_tuple(v) || tuple_arity(v) != 2 || !get_uint64(tuple_elems(v)[0], n) || n == 0 ||
                n > UINT32_MAX || !decode_bufsz(tuple_elems(v)[1], 8192, sz))
                return invalid_value(p);
            s.rnum = unsigned(n);
        }
        s.rbuf_size = sz;
        return am::ok;
    case 1006:  // rcvctrlbuf
        if (!is_open(s.rstate)) return error_tuple(p, atom("closed"));
        if (!decode_bufsz(v, 1024, sz)) return invalid_value(p);
        s.rctrl_size = sz;
        return am::ok;
    case 1007:  // sndctrlbuf
        if (!decode_bufsz(v, 1024, sz)) return invalid_value(p);
        s.wctrl_size = sz;
        return am::ok;
    case 1009:  // meta
        if (p->pid != s.owner) return error_invalid(p, atom("not_owner"));
        s.meta = HeldTerm(v);
        return am::ok;
    case 1010:  // use_registry: may only be turned on
        if (!decode_bool(v, b) || !b) return invalid_value(p);
        if (s.registry == NIL) {
            Term reg = p->vm->procs.whereis(p->ns, atom("socket_registry"));
            if (is_pid(reg)) {
                s.registry = reg;
                registry_msg(s, sockref, "add");
            }
        }
        return am::ok;
    default:
        return raise_invalid(p, make_tuple(*p, {atom("otp_socket_option"), make_integer(*p, opt)}));
    }
}

Term getopt_otp(Process* p, Socket& s, int opt) {
    bool wopen = is_open(s.wstate), ropen = is_open(s.rstate);
    Term closed = error_tuple(p, atom("closed"));
    switch (opt) {
    case 1001: return wopen ? ok(p, s.debug ? am::true_ : am::false_) : closed;
    case 1002: return wopen ? ok(p, s.iow ? am::true_ : am::false_) : closed;
    case 1003: return ropen ? ok(p, s.owner) : closed;
    case 1004:
        if (!ropen) return closed;
        if (s.rnum == 0) return ok(p, make_integer_u(*p, s.rbuf_size));
        return ok(p, make_tuple(*p, {make_integer(*p, s.rnum), make_integer_u(*p, s.rbuf_size)}));
    case 1006: return ropen ? ok(p, make_integer_u(*p, s.rctrl_size)) : closed;
    case 1007: return wopen ? ok(p, make_integer_u(*p, s.wctrl_size)) : closed;
    case 1008: return ropen ? ok(p, make_integer(*p, s.fd)) : closed;
    case 1009: return wopen ? ok(p, s.meta.has() ? copy_term(s.meta.term(), *p) : am::undefined) : closed;
    case 1010: return wopen ? ok(p, s.registry != NIL ? am::true_ : am::false_) : closed;
    case 1999: return ropen ? ok(p, encode_domain(p, s.domain)) : closed;
    default: return raise_invalid(p, make_tuple(*p, {atom("otp_socket_option"), make_integer(*p, opt)}));
    }
}

// nif_setopt(SockRef, Level, Opt, Value, NativeValue).
Term nif_setopt_5(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    int native, opt, level;
    if (!s || !esock::get_int(a[4], native)) return p->badarg();
    if (!esock::get_int(a[2], opt)) return is_integer(a[2]) ? integer_range(p, a[2]) : p->badarg();
    std::lock_guard lock(s->mu);
    if (decode_level(a[1], level)) {
        if (!is_open(s->wstate)) return error_tuple(p, atom("closed"));
        if (native == 0) {
            const Opt* o = lookup(level, opt);
            if (!o || !sets(o->kind)) return invalid_tuple(p, atom("socket_option"));
            return setopt(p, *s, *o, a[3]);
        }
        int iv;
        bool b;
        if (is_binary(a[3])) {
            BitView bv = bit_view(a[3]);
            std::string bytes(bv.byte_size(), '\0');
            copy_bits(bv.base, bv.bit_offset, reinterpret_cast<uint8_t*>(bytes.data()), 0, bv.bit_size);
            return set_raw(p, *s, level, opt, bytes.data(), socklen_t(bytes.size()));
        }
        if (esock::get_int(a[3], iv)) return set_raw(p, *s, level, opt, &iv, sizeof iv);
        if (decode_bool(a[3], b)) {
            iv = b;
            return set_raw(p, *s, level, opt, &iv, sizeof iv);
        }
        return error_invalid(p, atom("value"));
    }
    if (a[1] == atom("otp")) {
        if (native != 0) return p->badarg();
        return setopt_otp(p, *s, a[0], opt, a[3]);
    }
    return is_integer(a[1]) ? integer_range(p, a[1]) : p->badarg();
}

Term getopt(Process* p, const Term* a, bool with_spec) {
    Socket* s = socket_of(a[0]);
    int opt, level;
    if (!s) return p->badarg();
    if (!esock::get_int(a[2], opt)) return is_integer(a[2]) ? integer_range(p, a[2]) : p->badarg();
    std::lock_guard lock(s->mu);
    if (decode_level(a[1], level)) {
        if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
        if (!with_spec) {
            const Opt* o = lookup(level, opt);
            if (!o || !gets(o->kind)) return invalid_tuple(p, atom("socket_option"));
            return getopt(p, *s, *o);
        }
        Term spec = a[3];
        int iv;
        Term r;
        if (esock::get_int(spec, iv)) {
            if (iv < 0) return invalid_value(p);
            std::string buf(size_t(iv), '\0');
            socklen_t n = socklen_t(iv);
            if (::getsockopt(s->fd, level, opt, buf.data(), &n) != 0) return errno_tuple(p, errno);
            return ok(p, make_binary(*p, reinterpret_cast<const uint8_t*>(buf.data()), n));
        }
        if (spec == atom("integer") || spec == atom("boolean")) {
            if ((r = get_int(p, *s, level, opt, iv)) != am::ok) return r;
            if (spec == atom("integer")) return ok(p, make_integer(*p, iv));
            return ok(p, iv ? am::true_ : am::false_);
        }
        if (is_binary(spec)) {
            BitView bv = bit_view(spec);
            std::string buf(bv.byte_size(), '\0');
            copy_bits(bv.base, bv.bit_offset, reinterpret_cast<uint8_t*>(buf.data()), 0, bv.bit_size);
            socklen_t n = socklen_t(buf.size());
            if (::getsockopt(s->fd, level, opt, buf.data(), &n) != 0) return errno_tuple(p, errno);
            return ok(p, make_binary(*p, reinterpret_cast<const uint8_t*>(buf.data()), n));
        }
        return invalid_value(p);
    }
    if (a[1] == atom("otp") && !with_spec) return getopt_otp(p, *s, opt);
    return is_integer(a[1]) ? integer_range(p, a[1]) : p->badarg();
}

Term nif_getopt_3(Process* p, const Term* a) { return getopt(p, a, false); }
Term nif_getopt_4(Process* p, const Term* a) { return getopt(p, a, true); }

constexpr BifSpec table[] = {
    {"prim_socket", "nif_setopt", 5, &nif_setopt_5},
    {"prim_socket", "nif_getopt", 3, &nif_getopt_3},
    {"prim_socket", "nif_getopt", 4, &nif_getopt_4},
};

}  // namespace

Term supported_options(Process* p) {
    std::vector<Term> levels;
    int levels_order[] = {SOL_SOCKET, SOL_IP, SOL_IPV6, IPPROTO_SCTP, IPPROTO_TCP, IPPROTO_UDP};
    for (int level : levels_order) {
        std::vector<Term> opts;
        for (const Opt& o : options) {
            if (o.level != level) continue;
            if (!numbered(o)) opts.push_back(atom(o.name));
            else opts.push_back(make_tuple(*p, {atom(o.name), make_integer(*p, o.num)}));
        }
        levels.push_back(make_tuple(*p, {encode_level(level), make_list_from(*p, opts.data(), opts.size())}));
    }
    return make_list_from(*p, levels.data(), levels.size());
}

}  // namespace beam::esock

namespace beam {
std::span<const BifSpec> prim_socket_option_bifs() { return esock::table; }
}  // namespace beam

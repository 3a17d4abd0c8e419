#include "io/socket/socket_cmsg.hpp"

#include <linux/errqueue.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <sys/time.h>

#include <cstring>
#include <vector>

#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"

namespace beam::esock {

namespace {

struct CmsgType {
    int level, type;
    const char* name;
    bool int_value;  // value: an integer (decoded and encoded as an int)
};

// The symbolic types (OTP's tables); other value codecs are special-cased below.
constexpr CmsgType types[] = {
    {SOL_SOCKET, SCM_CREDENTIALS, "credentials", false},
    {SOL_SOCKET, SCM_RIGHTS, "rights", false},
    {SOL_SOCKET, SCM_TIMESTAMP, "timestamp", false},
    {SOL_IP, IP_TOS, "tos", false},
    {SOL_IP, IP_TTL, "ttl", true},
    {SOL_IP, IP_RECVTTL, "recvttl", false},
    {SOL_IP, IP_PKTINFO, "pktinfo", false},
    {SOL_IP, IP_ORIGDSTADDR, "origdstaddr", false},
    {SOL_IP, IP_RECVTOS, "recvtos", false},
    {SOL_IP, IP_RECVERR, "recverr", false},
    {SOL_IPV6, IPV6_PKTINFO, "pktinfo", false},
    {SOL_IPV6, IPV6_HOPLIMIT, "hoplimit", true},
    {SOL_IPV6, IPV6_TCLASS, "tclass", true},
    {SOL_IPV6, IPV6_RECVTCLASS, "recvtclass", true},
    {SOL_IPV6, IPV6_RECVERR, "recverr", false},
};

const CmsgType* by_number(int level, int type) {
    for (const CmsgType& t : types)
        if (t.level == level && t.type == type) return &t;
    return nullptr;
}

const CmsgType* by_name(int level, Term name) {
    if (!is_atom(name)) return nullptr;
    for (const CmsgType& t : types)
        if (t.level == level && atom(t.name) == name) return &t;
    return nullptr;
}

void append_cmsg(std::string& out, int level, int type, const void* data, size_t n) {
    size_t at = out.size();
    out.resize(at + CMSG_SPACE(n), '\0');
    auto* c = reinterpret_cast<cmsghdr*>(out.data() + at);
    c->cmsg_len = CMSG_LEN(n);
    c->cmsg_level = level;
    c->cmsg_type = type;
    std::memcpy(CMSG_DATA(c), data, n);
}

bool encode_one(Term m, std::string& out) {
    if (!is_map(m)) return false;
    const Term *lv = map_get(m, atom("level")), *ty = map_get(m, atom("type"));
    int level;
    if (!lv || !ty || !decode_level(*lv, level)) return false;
    const CmsgType* spec = by_name(level, *ty);
    int type;
    if (spec) type = spec->type;
    else if (!get_int(*ty, type)) return false;
    if (const Term* data = map_get(m, atom("data"))) {
        int v;
        if (is_binary(*data)) {
            BitView bv = bit_view(*data);
            std::string bytes(bv.byte_size(), '\0');
            copy_bits(bv.base, bv.bit_offset, reinterpret_cast<uint8_t*>(bytes.data()), 0, bv.bit_size);
            append_cmsg(out, level, type, bytes.data(), bytes.size());
        } else if (get_int(*data, v)) {
            append_cmsg(out, level, type, &v, sizeof v);
        } else if (is_boolean_atom(*data)) {
            v = *data == am::true_;
            append_cmsg(out, level, type, &v, sizeof v);
        } else {
            return false;
        }
        return true;
    }
    const Term* value = map_get(m, atom("value"));
    if (!value || !spec) return false;
    int v;
    if (spec->int_value) {
        if (!get_int(*value, v)) return false;
    } else if (level == SOL_IP && type == IP_TOS) {
        if (!decode_ip_tos(*value, v)) return false;
    } else if (level == SOL_SOCKET && type == SCM_TIMESTAMP) {
        const Term *sec = is_map(*value) ? map_get(*value, atom("sec")) : nullptr;
        const Term *usec = is_map(*value) ? map_get(*value, atom("usec")) : nullptr;
        int64_t s, u;
        if (!sec || !usec || !is_small(*sec) || !is_small(*usec)) return false;
        s = small_value(*sec), u = small_value(*usec);
        timeval tv{time_t(s), suseconds_t(u)};
        append_cmsg(out, level, type, &tv, sizeof tv);
        return true;
    } else {
        return false;
    }
    append_cmsg(out, level, type, &v, sizeof v);
    return true;
}

// ICMP types and codes by OTP's names (prim_socket_nif.c); others stay integers.
Term icmp_type_code(Process* p, bool v6, uint8_t type, uint8_t code, Term& code_term) {
    code_term = make_small(code);
    auto name = [&](std::initializer_list<std::pair<int, const char*>> names) {
        for (auto& [c, n] : names)
            if (c == code) code_term = atom(n);
    };
    if (!v6 && type == ICMP_DEST_UNREACH) {
        name({{ICMP_NET_UNREACH, "net_unreach"}, {ICMP_HOST_UNREACH, "host_unreach"}, {ICMP_PORT_UNREACH, "port_unreach"},
              {ICMP_FRAG_NEEDED, "frag_needed"}, {ICMP_NET_UNKNOWN, "net_unknown"}, {ICMP_HOST_UNKNOWN, "host_unknown"}});
        return atom("dest_unreach");
    }
    if (!v6 && type == ICMP_TIME_EXCEEDED) return atom("time_exceeded");
    if (v6 && type == ICMP6_DST_UNREACH) {
        name({{ICMP6_DST_UNREACH_NOROUTE, "noroute"}, {ICMP6_DST_UNREACH_ADMIN, "adm_prohibited"},
              {ICMP6_DST_UNREACH_BEYONDSCOPE, "not_neighbour"}, {ICMP6_DST_UNREACH_ADDR, "addr_unreach"},
              {ICMP6_DST_UNREACH_NOPORT, "port_unreach"}, {5, "policy_fail"}, {6, "reject_route"}});
        return atom("dest_unreach");
    }
    if (v6 && type == ICMP6_PACKET_TOO_BIG) return atom("pkt_toobig");
    if (v6 && type == ICMP6_TIME_EXCEEDED) return atom("time_exceeded");
    return make_small(type);
}

// IP_RECVERR / IPV6_RECVERR: the queued error as prim_socket's map (error, origin, type, code,
// info, data, and offender when the kernel gives one).
Term extended_error(Process* p, const uint8_t* d, size_t n) {
    if (n < sizeof(sock_extended_err)) return NON_VALUE;
    sock_extended_err e;
    std::memcpy(&e, d, sizeof e);
    Term origin, type = make_small(e.ee_type), code = make_small(e.ee_code);
    switch (e.ee_origin) {
    case SO_EE_ORIGIN_NONE: origin = atom("none"); break;
    case SO_EE_ORIGIN_LOCAL: origin = atom("local"); break;
    case SO_EE_ORIGIN_ICMP: origin = atom("icmp"), type = icmp_type_code(p, false, e.ee_type, e.ee_code, code); break;
    case SO_EE_ORIGIN_ICMP6: origin = atom("icmp6"), type = icmp_type_code(p, true, e.ee_type, e.ee_code, code); break;
    case SO_EE_ORIGIN_TXSTATUS: origin = atom("txstatus"); break;
    case SO_EE_ORIGIN_ZEROCOPY: origin = atom("zerocopy"); break;
    case SO_EE_ORIGIN_TXTIME: origin = atom("txtime"); break;
    default: origin = make_small(e.ee_origin); break;
    }
    std::vector<std::pair<const char*, Term>> kv = {
        {"error", posix_error_atom(int(e.ee_errno))}, {"origin", origin}, {"type", type}, {"code", code},
        {"info", make_integer(*p, int(e.ee_info))}, {"data", make_integer(*p, int(e.ee_data))}};
    // The offender address follows the struct in the same buffer (SO_EE_OFFENDER).
    size_t off = sizeof(sock_extended_err);
    if (n > off) {
        SockAddr sa{};
        size_t m = std::min(n - off, sizeof sa);
        std::memcpy(&sa, d + off, m);
        kv.push_back({"offender", encode_sockaddr(p, sa, socklen_t(m))});
    }
    std::vector<std::pair<Term, Term>> pairs;
    for (auto& [k, v] : kv) pairs.emplace_back(atom(k), v);
    return map_from_pairs(*p, std::move(pairs));
}

// A received value for the known types; NON_VALUE when there is none.
Term value_of(Process* p, int level, int type, const uint8_t* d, size_t n) {
    auto int_at = [&](int& v) { return n >= sizeof(int) ? (std::memcpy(&v, d, sizeof v), true) : false; };
    int v;
    if (level == SOL_SOCKET && type == SCM_TIMESTAMP && n >= sizeof(timeval)) {
        timeval tv;
        std::memcpy(&tv, d, sizeof tv);
        return make_atom_map(p, {{"sec", make_integer(*p, tv.tv_sec)}, {"usec", make_integer(*p, tv.tv_usec)}});
    }
    if ((level == SOL_IP && type == IP_RECVERR) || (level == SOL_IPV6 && type == IPV6_RECVERR))
        return extended_error(p, d, n);
    if (level == SOL_IP) {
        if ((type == IP_TOS || type == IP_RECVTOS) && n >= 1) return encode_ip_tos(p, d[0]);
        if (type == IP_TTL && int_at(v)) return make_integer(*p, v);
        if (type == IP_RECVTTL && n >= 1) return make_small(d[0]);
        if (type == IP_PKTINFO && n >= sizeof(in_pktinfo)) {
            in_pktinfo pi;
            std::memcpy(&pi, d, sizeof pi);
            return make_atom_map(p, {{"ifindex", make_integer_u(*p, unsigned(pi.ipi_ifindex))},
                                     {"spec_dst", encode_in_addr(p, pi.ipi_spec_dst)},
                                     {"addr", encode_in_addr(p, pi.ipi_addr)}});
        }
        if (type == IP_ORIGDSTADDR) {
            SockAddr sa{};
            size_t m = n < sizeof sa ? n : sizeof sa;
            std::memcpy(&sa, d, m);
            return encode_sockaddr(p, sa, socklen_t(m));
        }
    }
    if (level == SOL_IPV6) {
        if ((type == IPV6_HOPLIMIT || type == IPV6_TCLASS || type == IPV6_RECVTCLASS) && int_at(v))
            return make_integer(*p, v);
        if (type == IPV6_PKTINFO && n >= sizeof(in6_pktinfo)) {
            in6_pktinfo pi;
            std::memcpy(&pi, d, sizeof pi);
            return make_atom_map(p, {{"addr", encode_in6_addr(p, pi.ipi6_addr)},
                                     {"ifindex", make_integer(*p, int(pi.ipi6_ifindex))}});
        }
    }
    return NON_VALUE;
}

}  // namespace

Term encode_level(int level) { return level == SOL_SOCKET ? atom("socket") : make_small(level); }

bool decode_level(Term t, int& level) {
    if (t == atom("socket")) return level = SOL_SOCKET, true;
    return get_int(t, level);
}

Term encode_ip_tos(Process* p, int val) {
    switch (IPTOS_TOS(val)) {
    case IPTOS_LOWDELAY: return atom("lowdelay");
    case IPTOS_THROUGHPUT: return atom("throughput");
    case IPTOS_RELIABILITY: return atom("reliability");
    case IPTOS_MINCOST: return atom("mincost");
    default: return make_integer(*p, val);
    }
}

bool decode_ip_tos(Term t, int& val) {
    if (t == atom("lowdelay")) return val = IPTOS_LOWDELAY, true;
    if (t == atom("throughput")) return val = IPTOS_THROUGHPUT, true;
    if (t == atom("reliability")) return val = IPTOS_RELIABILITY, true;
    if (t == atom("mincost")) return val = IPTOS_MINCOST, true;
    return get_int(t, val);
}

bool encode_cmsgs(Term list, std::string& out) {
    std::vector<Term> items;
    if (!list_elements(list, items)) return false;
    for (Term m : items)
        if (!encode_one(m, out)) return false;
    return true;
}

Term decode_cmsgs(Process* p, const msghdr& mh) {
    std::vector<Term> items;
    auto* first = CMSG_FIRSTHDR(&mh);
    for (cmsghdr* c = first; c; c = CMSG_NXTHDR(const_cast<msghdr*>(&mh), c)) {
        const auto* base = reinterpret_cast<const uint8_t*>(first);
        if (reinterpret_cast<const uint8_t*>(c) + c->cmsg_len - base > ptrdiff_t(mh.msg_controllen)) {
            items.push_back(atom("bad_data"));
            break;
        }
        const uint8_t* d = CMSG_DATA(c);
        size_t n = reinterpret_cast<const uint8_t*>(c) + c->cmsg_len - d;
        const CmsgType* spec = by_number(c->cmsg_level, c->cmsg_type);
        Term type = spec ? atom(spec->name) : make_integer(*p, c->cmsg_type);
        Term value = spec ? value_of(p, c->cmsg_level, c->cmsg_type, d, n) : NON_VALUE;
        Term data = make_binary(*p, d, n);
        if (is_value(value))
            items.push_back(make_atom_map(p, {{"level", encode_level(c->cmsg_level)}, {"type", type},
                                              {"data", data}, {"value", value}}));
        else
            items.push_back(
                make_atom_map(p, {{"level", encode_level(c->cmsg_level)}, {"type", type}, {"data", data}}));
    }
    return make_list_from(*p, items.data(), items.size());
}

}  // namespace beam::esock

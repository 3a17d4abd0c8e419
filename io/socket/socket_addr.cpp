#include "io/socket/socket_addr.hpp"

#include <net/if_arp.h>

#include <algorithm>
#include <cstring>

#include "bifs/bif_util.hpp"
#include "io/socket/socket.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"

namespace beam::esock {

namespace {

const Term* get(Term map, const char* key) { return is_map(map) ? map_get(map, atom(key)) : nullptr; }

bool binary_bytes(Term t, std::string& out) {
    if (!is_binary(t)) return false;
    BitView v = bit_view(t);
    out.resize(v.byte_size());
    if (v.byte_aligned()) std::memcpy(out.data(), v.bytes(), out.size());
    else copy_bits(v.base, v.bit_offset, reinterpret_cast<uint8_t*>(out.data()), 0, v.bit_size);
    return true;
}

bool decode_native(Term t, SockAddr& out, int family, socklen_t& len) {
    const Term* addr = get(t, "addr");
    std::string bytes;
    if (!addr || !binary_bytes(*addr, bytes)) return false;
    size_t room = sizeof(out) - offsetof(sockaddr, sa_data);
    if (bytes.size() > room) return false;
    std::memset(&out, 0, sizeof out);
    out.sa.sa_family = sa_family_t(family);
    std::memcpy(out.sa.sa_data, bytes.data(), bytes.size());
    len = socklen_t(offsetof(sockaddr, sa_data) + bytes.size());
    return true;
}

Term encode_native(Process* p, const SockAddr& a, socklen_t len, Term family) {
    size_t off = offsetof(sockaddr, sa_data);
    size_t n = len > off ? len - off : 0;
    return make_atom_map(p, {{"family", family},
                             {"addr", make_binary(*p, reinterpret_cast<const uint8_t*>(a.sa.sa_data), n)}});
}

// sockaddr_ll's hardware type, named as socket_util.c's esock_encode_packet_hatype names them.
Term encode_hatype(Process* p, unsigned short t) {
    switch (t) {
    case ARPHRD_NETROM: return atom("netrom");
    case ARPHRD_ETHER: return atom("ether");
    case ARPHRD_EETHER: return atom("eether");
    case ARPHRD_AX25: return atom("ax25");
    case ARPHRD_PRONET: return atom("pronet");
    case ARPHRD_CHAOS: return atom("chaos");
    case ARPHRD_IEEE802: return atom("ieee802");
    case ARPHRD_ARCNET: return atom("arcnet");
    case ARPHRD_APPLETLK: return atom("appletlk");
    case ARPHRD_DLCI: return atom("dlci");
    case ARPHRD_ATM: return atom("atm");
    case ARPHRD_METRICOM: return atom("metricom");
    case ARPHRD_IEEE1394: return atom("ieee1394");
    case ARPHRD_EUI64: return atom("eui64");
    case ARPHRD_INFINIBAND: return atom("infiniband");
    case ARPHRD_TUNNEL: return atom("tunnel");
    case ARPHRD_TUNNEL6: return atom("tunnel6");
    case ARPHRD_LOOPBACK: return atom("loopback");
    case ARPHRD_LOCALTLK: return atom("localtlk");
    case ARPHRD_NONE: return atom("none");
    case ARPHRD_VOID: return atom("void");
    default: return make_integer_u(*p, t);
    }
}

Term encode_pkttype(Process* p, unsigned char t) {
    switch (t) {
    case PACKET_HOST: return atom("host");
    case PACKET_BROADCAST: return atom("broadcast");
    case PACKET_MULTICAST: return atom("multicast");
    case PACKET_OTHERHOST: return atom("otherhost");
    case PACKET_OUTGOING: return atom("outgoing");
    case PACKET_LOOPBACK: return atom("loopback");
#if defined(PACKET_USER)  // <linux/if_packet.h>'s, absent from glibc's <netpacket/packet.h>
    case PACKET_USER: return atom("user");
#endif
#if defined(PACKET_KERNEL)
    case PACKET_KERNEL: return atom("kernel");
#endif
    default: return make_integer_u(*p, t);
    }
}

// `addr` holds the sll_halen bytes of hardware address (`n` of them may be read: Linux lets one
// such as InfiniBand's 20 bytes run past sll_addr's declared 8).
Term encode_ll(Process* p, const sockaddr_ll& ll, const uint8_t* addr, size_t n) {
    return make_atom_map(p, {{"family", atom("packet")},
                             {"protocol", make_integer_u(*p, ntohs(ll.sll_protocol))},
                             {"ifindex", make_integer(*p, ll.sll_ifindex)},
                             {"hatype", encode_hatype(p, ll.sll_hatype)},
                             {"pkttype", encode_pkttype(p, ll.sll_pkttype)},
                             {"addr", make_binary(*p, addr, n)}});
}

}  // namespace

int decode_domain(Term t, int& out) {
    if (t == atom("inet")) return out = AF_INET, 1;
    if (t == atom("inet6")) return out = AF_INET6, 1;
    if (t == atom("local")) return out = AF_LOCAL, 1;
    if (t == atom("unspec")) return out = AF_UNSPEC, 1;
    if (get_int(t, out)) return -1;
    return 0;
}

bool decode_type(Term t, int& out) {
    if (t == atom("stream")) return out = SOCK_STREAM, true;
    if (t == atom("dgram")) return out = SOCK_DGRAM, true;
    if (t == atom("raw")) return out = SOCK_RAW, true;
    if (t == atom("seqpacket")) return out = SOCK_SEQPACKET, true;
    if (t == atom("rdm")) return out = SOCK_RDM, true;
    return get_int(t, out);
}

bool decode_in_addr(Term t, in_addr& out) {
    if (t == atom("loopback")) return out.s_addr = htonl(INADDR_LOOPBACK), true;
    if (t == atom("any")) return out.s_addr = htonl(INADDR_ANY), true;
    if (t == atom("broadcast")) return out.s_addr = htonl(INADDR_BROADCAST), true;
    if (!is_tuple(t) || tuple_arity(t) != 4) return false;
    uint8_t b[4];
    for (int i = 0; i < 4; ++i) {
        Term e = tuple_elems(t)[i];
        if (!is_small(e) || small_value(e) < 0 || small_value(e) > 255) return false;
        b[i] = uint8_t(small_value(e));
    }
    std::memcpy(&out, b, 4);
    return true;
}

bool decode_in6_addr(Term t, in6_addr& out) {
    if (t == atom("loopback")) return out = in6addr_loopback, true;
    if (t == atom("any")) return out = in6addr_any, true;
    if (!is_tuple(t) || tuple_arity(t) != 8) return false;
    for (int i = 0; i < 8; ++i) {
        Term e = tuple_elems(t)[i];
        if (!is_small(e) || small_value(e) < 0 || small_value(e) > 65535) return false;
        out.s6_addr[2 * i] = uint8_t(small_value(e) >> 8);
        out.s6_addr[2 * i + 1] = uint8_t(small_value(e));
    }
    return true;
}

Term encode_in_addr(Process* p, const in_addr& a) {
    const auto* b = reinterpret_cast<const uint8_t*>(&a);
    return make_tuple(*p, {make_small(b[0]), make_small(b[1]), make_small(b[2]), make_small(b[3])});
}

Term encode_in6_addr(Process* p, const in6_addr& a) {
    Term e[8];
    for (int i = 0; i < 8; ++i) e[i] = make_small((a.s6_addr[2 * i] << 8) | a.s6_addr[2 * i + 1]);
    return make_tuple_from(*p, e, 8);
}

bool decode_sockaddr(Term t, SockAddr& out, socklen_t& len) {
    const Term* fam = get(t, "family");
    if (!fam) return false;
    int family;
    int d = decode_domain(*fam, family);
    if (d == 0) return false;
    if (d < 0 || family == AF_UNSPEC) return decode_native(t, out, family, len);
    std::memset(&out, 0, sizeof out);
    int port;
    if (family == AF_INET) {
        const Term *p = get(t, "port"), *a = get(t, "addr");
        if (!p || !get_int(*p, port) || !a || !decode_in_addr(*a, out.in4.sin_addr)) return false;
        out.in4.sin_family = AF_INET;
        out.in4.sin_port = htons(uint16_t(port));
        len = sizeof(sockaddr_in);
        return true;
    }
    if (family == AF_INET6) {
        const Term *p = get(t, "port"), *a = get(t, "addr"), *fl = get(t, "flowinfo"), *sc = get(t, "scope_id");
        uint64_t flow, scope;
        if (!p || !get_int(*p, port) || !fl || !get_uint64(*fl, flow) || flow > UINT32_MAX || !sc ||
            !get_uint64(*sc, scope) || scope > UINT32_MAX || !a || !decode_in6_addr(*a, out.in6.sin6_addr))
            return false;
        out.in6.sin6_family = AF_INET6;
        out.in6.sin6_port = htons(uint16_t(port));
        out.in6.sin6_flowinfo = uint32_t(flow);
        out.in6.sin6_scope_id = uint32_t(scope);
        len = sizeof(sockaddr_in6);
        return true;
    }
    // AF_LOCAL. Linux's abstract addresses start with NUL and need no terminating one.
    const Term* path = get(t, "path");
    std::string bytes;
    if (!path || !binary_bytes(*path, bytes)) return false;
    size_t need = bytes.size() + ((!bytes.empty() && bytes[0] == '\0') ? 0 : 1);
    if (need > sizeof(out.un.sun_path)) return false;
    out.un.sun_family = AF_LOCAL;
    std::memcpy(out.un.sun_path, bytes.data(), bytes.size());
    len = socklen_t(offsetof(sockaddr_un, sun_path) + bytes.size());
    return true;
}

Term encode_sockaddr(Process* p, const SockAddr& a, socklen_t len) {
    if (len > 0 && len < offsetof(sockaddr, sa_data))
        return make_binary(*p, reinterpret_cast<const uint8_t*>(&a), len);
    switch (a.ss.ss_family) {
    case AF_INET:
        if (len < sizeof(sockaddr_in)) return encode_native(p, a, len, atom("inet"));
        return make_atom_map(p, {{"family", atom("inet")},
                                 {"port", make_small(ntohs(a.in4.sin_port))},
                                 {"addr", encode_in_addr(p, a.in4.sin_addr)}});
    case AF_INET6:
        if (len < sizeof(sockaddr_in6)) return encode_native(p, a, len, atom("inet6"));
        return make_atom_map(p, {{"family", atom("inet6")},
                                 {"port", make_small(ntohs(a.in6.sin6_port))},
                                 {"addr", encode_in6_addr(p, a.in6.sin6_addr)},
                                 {"flowinfo", make_integer_u(*p, a.in6.sin6_flowinfo)},
                                 {"scope_id", make_integer_u(*p, a.in6.sin6_scope_id)}});
    case AF_LOCAL: {
        size_t off = offsetof(sockaddr_un, sun_path);
        if (len < off) return encode_native(p, a, len, atom("local"));
        size_t n = len - off;
        if (n > 255) return atom("bad_data");
        size_t m = strnlen(a.un.sun_path, n);
        if (m == 0) m = n;  // Linux's abstract address: its length is the reported one
        return make_atom_map(p, {{"family", atom("local")},
                                 {"path", make_binary(*p, reinterpret_cast<const uint8_t*>(a.un.sun_path), m)}});
    }
    case AF_PACKET:
        if (len < sizeof(sockaddr_ll)) return encode_native(p, a, len, atom("packet"));
        return encode_ll(p, a.ll, a.ll.sll_addr,
                         std::min<size_t>(a.ll.sll_halen, len - offsetof(sockaddr_ll, sll_addr)));
    case AF_UNSPEC: return encode_native(p, a, len, atom("unspec"));
    default: return encode_native(p, a, len, make_small(a.ss.ss_family));
    }
}

Term encode_sockaddr_unsized(Process* p, const sockaddr* sa) {
    if (!sa) return atom("undefined");
    socklen_t len;
    switch (sa->sa_family) {
    case AF_INET: len = sizeof(sockaddr_in); break;
    case AF_INET6: len = sizeof(sockaddr_in6); break;
    case AF_LOCAL: {
        const auto* un = reinterpret_cast<const sockaddr_un*>(sa);
        len = socklen_t(offsetof(sockaddr_un, sun_path) + strnlen(un->sun_path, sizeof un->sun_path));
        break;
    }
    case AF_PACKET: {
        // glibc's getifaddrs leaves room for sll_halen bytes of address, however many.
        sockaddr_ll ll;
        std::memcpy(&ll, sa, sizeof ll);
        const auto* hw = reinterpret_cast<const uint8_t*>(sa) + offsetof(sockaddr_ll, sll_addr);
        return encode_ll(p, ll, hw, ll.sll_halen);
    }
    default: len = 0; break;  // only the family is known to be there: an empty native address
    }
    SockAddr a;
    std::memset(&a, 0, sizeof a);
    std::memcpy(&a, sa, std::max<size_t>(len, offsetof(sockaddr, sa_data)));
    return encode_sockaddr(p, a, len);
}

}  // namespace beam::esock

// prim_socket's nif_ioctl/2,3 for the interface requests socket:ioctl/2,3 makes: gifconf
// (every interface's name and address), and by interface name gifindex, gifflags, gifaddr,
// gifdstaddr, gifbrdaddr, gifnetmask, gifmtu, giftxqlen, gifhwaddr, gifmap; gifname by
// index. The set requests (nif_ioctl/4: sifflags, sifaddr, sifmtu, ...) are not in beamvm
// yet: they answer {error, enotsup}.
#include <net/if.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "io/socket/socket_ioctl.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beam::esock {

// OTP's ioctl_flags table, in its order (encode_ioctl_flags lists flags in this order); 0
// for the flags Linux does not have.
const IoctlFlag ioctl_flag_table[] = {
    {"up", IFF_UP},         {"broadcast", IFF_BROADCAST}, {"debug", IFF_DEBUG},
    {"loopback", IFF_LOOPBACK}, {"pointopoint", IFF_POINTOPOINT}, {"notrailers", IFF_NOTRAILERS},
    {"knowsepoch", 0},      {"running", IFF_RUNNING},     {"noarp", IFF_NOARP},
    {"promisc", IFF_PROMISC}, {"allmulti", IFF_ALLMULTI}, {"master", IFF_MASTER},
    {"oactive", 0},         {"slave", IFF_SLAVE},         {"simplex", 0},
    {"multicast", IFF_MULTICAST}, {"link0", 0},           {"link1", 0},
    {"link2", 0},           {"portsel", IFF_PORTSEL},     {"automedia", IFF_AUTOMEDIA},
    {"dynamic", IFF_DYNAMIC}, {"cantconfig", 0},          {"lower_up", 1 << 16},
    {"ppromisc", 0},        {"dormant", 1 << 17},         {"monitor", 0},
    {"echo", 1 << 18},      {"staticarp", 0},             {"dying", 0},
    {"renaming", 0},        {"nogroup", 0},
};
const size_t ioctl_flag_count = sizeof ioctl_flag_table / sizeof ioctl_flag_table[0];

namespace {

Term ok(Process* p, Term v) { return make_tuple(*p, {am::ok, v}); }

Term encode_flags(Process* p, int flags) {
    std::vector<Term> out;
    for (size_t i = 0; i < ioctl_flag_count && flags != 0; ++i) {
        int f = ioctl_flag_table[i].flag;
        if (f != 0 && (flags & f) == f) {
            out.push_back(atom(ioctl_flag_table[i].name));
            flags &= ~f;
        }
    }
    if (flags != 0) out.push_back(make_integer(*p, flags));
    return make_list_from(*p, out.data(), out.size());
}

Term encode_ifaddr(Process* p, const sockaddr& sa) {
    SockAddr a{};
    std::memcpy(&a, &sa, sizeof sa);
    socklen_t len = sa.sa_family == AF_INET6 ? sizeof(sockaddr_in6)
                    : sa.sa_family == AF_INET ? sizeof(sockaddr_in)
                                              : sizeof(sockaddr);
    return encode_sockaddr(p, a, len);
}

// A hardware address: the sockaddr's data under its ARPHRD_* family (esock_encode_hwsockaddr).
Term encode_hwaddr(Process* p, const sockaddr& sa) {
    Term family;
    switch (sa.sa_family) {
    case ARPHRD_NETROM: family = atom("netrom"); break;
    case ARPHRD_ETHER: family = atom("ether"); break;
    case ARPHRD_IEEE802: family = atom("ieee802"); break;
    case ARPHRD_DLCI: family = atom("dlci"); break;
    case ARPHRD_IEEE1394: family = atom("ieee1394"); break;
    case ARPHRD_LOOPBACK: family = atom("loopback"); break;
    case ARPHRD_NONE: family = atom("none"); break;
    default: family = make_integer(*p, sa.sa_family);
    }
    return make_atom_map(p, {{"family", family},
                             {"addr", make_binary(*p, reinterpret_cast<const uint8_t*>(sa.sa_data), sizeof sa.sa_data)}});
}

Term gifconf(Process* p, Socket& s) {
    std::vector<char> buf(100 * sizeof(ifreq));
    ifconf ifc{};
    int last = 0;
    for (;;) {
        ifc.ifc_len = int(buf.size());
        ifc.ifc_buf = buf.data();
        if (::ioctl(s.fd, SIOCGIFCONF, &ifc) < 0) {
            if (errno != EINVAL || last) return errno_tuple(p, errno);
        } else {
            if (ifc.ifc_len == last) break;
            last = ifc.ifc_len;
        }
        buf.resize(buf.size() + 10 * sizeof(ifreq));
    }
    std::vector<Term> items;
    size_t n = size_t(ifc.ifc_len) / sizeof(ifreq);
    for (size_t i = 0; i < n; ++i) {
        const ifreq& r = ifc.ifc_req[i];
        items.push_back(make_atom_map(p, {{"name", make_string(*p, r.ifr_name)}, {"addr", encode_ifaddr(p, r.ifr_addr)}}));
    }
    return ok(p, make_list_from(*p, items.data(), items.size()));
}

Term nif_ioctl_2(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    uint64_t req;
    if (!s || !get_uint64(a[1], req)) return p->badarg();
    std::lock_guard lock(s->mu);
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    if (req == SIOCGIFCONF) return gifconf(p, *s);
    return error_tuple(p, atom("enotsup"));
}

Term nif_ioctl_3(Process* p, const Term* a) {
    Socket* s = socket_of(a[0]);
    uint64_t req;
    if (!s || !get_uint64(a[1], req)) return p->badarg();
    std::lock_guard lock(s->mu);
    if (!is_open(s->rstate)) return error_tuple(p, atom("closed"));
    ifreq r{};
    if (req == SIOCGIFNAME) {
        int index;
        if (!get_int(a[2], index)) return p->badarg();
        r.ifr_ifindex = index;
        if (::ioctl(s->fd, SIOCGIFNAME, &r) < 0) return errno_tuple(p, errno);
        return ok(p, make_string(*p, r.ifr_name));
    }
    bool known = req == SIOCGIFINDEX || req == SIOCGIFFLAGS || req == SIOCGIFADDR || req == SIOCGIFDSTADDR ||
                 req == SIOCGIFBRDADDR || req == SIOCGIFNETMASK || req == SIOCGIFMTU || req == SIOCGIFTXQLEN ||
                 req == SIOCGIFHWADDR || req == SIOCGIFMAP;
    if (!known) return error_tuple(p, atom("enotsup"));
    auto name = char_list_to_utf8(a[2]);
    if (!name) return p->badarg();
    std::strncpy(r.ifr_name, name->c_str(), IFNAMSIZ - 1);
    if (::ioctl(s->fd, unsigned(req), &r) < 0) return errno_tuple(p, errno);
    switch (req) {
    case SIOCGIFINDEX: return ok(p, make_integer(*p, r.ifr_ifindex));
    case SIOCGIFFLAGS: return ok(p, encode_flags(p, r.ifr_flags));
    case SIOCGIFADDR: return ok(p, encode_ifaddr(p, r.ifr_addr));
    case SIOCGIFDSTADDR: return ok(p, encode_ifaddr(p, r.ifr_dstaddr));
    case SIOCGIFBRDADDR: return ok(p, encode_ifaddr(p, r.ifr_broadaddr));
    case SIOCGIFNETMASK: return ok(p, encode_ifaddr(p, r.ifr_netmask));
    case SIOCGIFMTU: return ok(p, make_integer(*p, r.ifr_mtu));
    case SIOCGIFHWADDR: return ok(p, encode_hwaddr(p, r.ifr_hwaddr));
    case SIOCGIFMAP:
        return ok(p, make_atom_map(p, {{"mem_start", make_integer_u(*p, r.ifr_map.mem_start)},
                                       {"mem_end", make_integer_u(*p, r.ifr_map.mem_end)},
                                       {"base_addr", make_integer_u(*p, r.ifr_map.base_addr)},
                                       {"irq", make_integer_u(*p, r.ifr_map.irq)},
                                       {"dma", make_integer_u(*p, r.ifr_map.dma)},
                                       {"port", make_integer_u(*p, r.ifr_map.port)}}));
    default: return ok(p, make_integer(*p, r.ifr_qlen));
    }
}

Term nif_ioctl_4(Process* p, const Term* a) {
    if (!socket_of(a[0])) return p->badarg();
    return error_tuple(p, atom("enotsup"));
}

constexpr BifSpec table[] = {
    {"prim_socket", "nif_ioctl", 2, &nif_ioctl_2},
    {"prim_socket", "nif_ioctl", 3, &nif_ioctl_3},
    {"prim_socket", "nif_ioctl", 4, &nif_ioctl_4},
};

}  // namespace

}  // namespace beam::esock

namespace beam {
std::span<const BifSpec> prim_socket_ioctl_bifs() { return esock::table; }
}  // namespace beam

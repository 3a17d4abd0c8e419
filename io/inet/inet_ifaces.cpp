// Interface and name requests every inet port answers (inet_drv's inet_ctl_getiflist,
// inet_ctl_ifget, inet_ctl_ifset, inet_ctl_getifaddrs, GETHOSTNAME, GETSERVBYNAME/PORT), for
// inet:getifaddrs/0, inet:getiflist/0, inet:ifget/2, inet:ifset/2, inet:gethostname/0 and
// inet:getservbyname/2 through prim_inet. The Linux forms: SIOCGIFCONF for the list,
// SIOC[GS]IF* ioctls on the port's own socket for get/set, getifaddrs(3) with AF_PACKET
// entries for hardware addresses.
//
// Reply layouts (prim_inet decodes them):
//   GETIFLIST:  Name NUL, Name NUL, ...  (interfaces with an IPv4 address, as SIOCGIFCONF)
//   IFGET:      per requested item, in request order, only those the ioctl answered:
//               ADDR/BROADADDR/DSTADDR/NETMASK Family IP, MTU Mtu:32, FLAGS Flags:32,
//               HWADDR Len:16 Bytes
//   GETIFADDRS: per getifaddrs entry: Name(UTF-8) NUL, FLAGS Flags:32, then for an IP entry
//               ADDR Family IP [NETMASK ...] [DSTADDR ... | BROADADDR ...], for a packet
//               entry HWADDR Len:16 Bytes (when it has any), then NUL
// Family IP is INET_AF_INET + 4 bytes or INET_AF_INET6 + 16 bytes.
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netpacket/packet.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "io/inet/inet_desc.hpp"

namespace beam::inet {

namespace {

// The kernel's IFF_* as the driver's INET_IFF_*. inet_drv reports running whenever the
// interface is up (it emulates the flag), so IFF_RUNNING itself is not read.
uint32_t driver_if_flags(unsigned f) {
    uint32_t r = 0;
    if (f & IFF_UP) r |= INET_IFF_UP | INET_IFF_RUNNING;
    if (f & IFF_BROADCAST) r |= INET_IFF_BROADCAST;
    if (f & IFF_LOOPBACK) r |= INET_IFF_LOOPBACK;
    if (f & IFF_POINTOPOINT) r |= INET_IFF_POINTTOPOINT;
    if (f & IFF_MULTICAST) r |= INET_IFF_MULTICAST;
    return r;
}

// `item` and the address as Family IP (family 0 counts as IPv4, as inet_drv reads it), or
// Len:16 Bytes for a packet (hardware) address; nothing for any other family.
void put_if_address(std::string& out, unsigned item, const sockaddr* sa) {
    switch (sa->sa_family) {
    case AF_UNSPEC:
    case AF_INET: {
        const auto& a = reinterpret_cast<const sockaddr_in*>(sa)->sin_addr;
        out.push_back(static_cast<char>(item));
        out.push_back(static_cast<char>(INET_AF_INET));
        out.append(reinterpret_cast<const char*>(&a), 4);
        return;
    }
    case AF_INET6: {
        const auto& a = reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr;
        out.push_back(static_cast<char>(item));
        out.push_back(static_cast<char>(INET_AF_INET6));
        out.append(reinterpret_cast<const char*>(&a), 16);
        return;
    }
    case AF_PACKET: {
        const auto* ll = reinterpret_cast<const sockaddr_ll*>(sa);
        out.push_back(static_cast<char>(item));
        put_u16(out, ll->sll_halen);
        out.append(reinterpret_cast<const char*>(ll->sll_addr), ll->sll_halen);
        return;
    }
    default: return;
    }
}

// Family IP from an ifset request into `sa` (IPv4 or IPv6 only); false: einval.
bool take_if_address(std::string_view& in, sockaddr* sa) {
    if (in.empty()) return false;
    uint8_t fam = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    if (fam == INET_AF_INET && in.size() >= 4) {
        auto* sin = reinterpret_cast<sockaddr_in*>(sa);
        std::memcpy(&sin->sin_addr, in.data(), 4);
        sa->sa_family = AF_INET;
        in.remove_prefix(4);
        return true;
    }
    if (fam == INET_AF_INET6 && in.size() >= 16) {
        // As inet_drv: the address goes where a sockaddr_in6 keeps it (bytes 8..24), which
        // the ifreq's union still holds (its struct ifmap makes it 24 bytes).
        static_assert(sizeof(ifreq) - offsetof(ifreq, ifr_addr) >= offsetof(sockaddr_in6, sin6_addr) + 16);
        auto* sin6 = reinterpret_cast<sockaddr_in6*>(sa);
        std::memcpy(&sin6->sin6_addr, in.data(), 16);
        sa->sa_family = AF_INET6;
        in.remove_prefix(16);
        return true;
    }
    return false;
}

// Len:8 Name at the start of an ifget/ifset request, into ifr_name (cut to IFNAMSIZ-1).
bool take_if_name(std::string_view& in, ifreq& ifr) {
    std::memset(&ifr, 0, sizeof ifr);
    if (in.empty()) return false;
    size_t n = static_cast<uint8_t>(in[0]);
    if (n + 1 > in.size()) return false;
    std::memcpy(ifr.ifr_name, in.data() + 1, n >= IFNAMSIZ ? IFNAMSIZ - 1 : n);
    in.remove_prefix(n + 1);
    return true;
}

std::string get_iflist(InetDesc& d) {
    // SIOCGIFCONF fills at most the buffer given; grow it until the answer is shorter.
    std::vector<char> buf;
    ifconf ifc{};
    for (size_t size = 32 * sizeof(ifreq);; size *= 2) {
        buf.assign(size, 0);
        ifc.ifc_len = static_cast<int>(size);
        ifc.ifc_buf = buf.data();
        if (::ioctl(d.fd, SIOCGIFCONF, &ifc) < 0) return reply_error(errno);
        if (static_cast<size_t>(ifc.ifc_len) < size) break;
    }
    std::string names;
    for (int i = 0; i + static_cast<int>(sizeof(ifreq)) <= ifc.ifc_len; i += sizeof(ifreq)) {
        ifreq r;
        std::memcpy(&r, buf.data() + i, sizeof r);
        if (r.ifr_addr.sa_family != AF_INET && r.ifr_addr.sa_family != AF_INET6) continue;
        names.append(r.ifr_name, strnlen(r.ifr_name, IFNAMSIZ));
        names.push_back('\0');
    }
    return reply_ok(names);
}

std::string if_get(InetDesc& d, std::string_view in) {
    ifreq ifr;
    if (!take_if_name(in, ifr)) return reply_error(EINVAL);
    std::string out;
    for (char c : in) {
        unsigned item = static_cast<uint8_t>(c);
        switch (item) {
        case INET_IFOPT_ADDR:
            if (::ioctl(d.fd, SIOCGIFADDR, &ifr) == 0) put_if_address(out, item, &ifr.ifr_addr);
            break;
        case INET_IFOPT_BROADADDR:
            if (::ioctl(d.fd, SIOCGIFBRDADDR, &ifr) == 0) put_if_address(out, item, &ifr.ifr_broadaddr);
            break;
        case INET_IFOPT_DSTADDR:
            if (::ioctl(d.fd, SIOCGIFDSTADDR, &ifr) == 0) put_if_address(out, item, &ifr.ifr_dstaddr);
            break;
        case INET_IFOPT_NETMASK:
            if (::ioctl(d.fd, SIOCGIFNETMASK, &ifr) == 0) put_if_address(out, item, &ifr.ifr_netmask);
            break;
        case INET_IFOPT_MTU:
            if (::ioctl(d.fd, SIOCGIFMTU, &ifr) == 0) {
                out.push_back(static_cast<char>(item));
                put_u32(out, static_cast<uint32_t>(ifr.ifr_mtu));
            }
            break;
        case INET_IFOPT_FLAGS: {  // an unknown interface has no flags, not an error
            unsigned flags = ::ioctl(d.fd, SIOCGIFFLAGS, &ifr) == 0 ? static_cast<uint16_t>(ifr.ifr_flags) : 0;
            out.push_back(static_cast<char>(item));
            put_u32(out, driver_if_flags(flags));
            break;
        }
        case INET_IFOPT_HWADDR:  // always the 6 bytes of an Ethernet address, as inet_drv
            if (::ioctl(d.fd, SIOCGIFHWADDR, &ifr) == 0) {
                out.push_back(static_cast<char>(item));
                put_u16(out, 6);
                out.append(ifr.ifr_hwaddr.sa_data, 6);
            }
            break;
        default: return reply_error(EINVAL);
        }
    }
    return reply_ok(out);
}

// Each item is set with its own ioctl; as inet_drv, a refused ioctl (no privilege, unknown
// interface) is not reported: only a malformed request is (einval).
std::string if_set(InetDesc& d, std::string_view in) {
    ifreq ifr;
    if (!take_if_name(in, ifr)) return reply_error(EINVAL);
    while (!in.empty()) {
        unsigned item = static_cast<uint8_t>(in[0]);
        in.remove_prefix(1);
        switch (item) {
        case INET_IFOPT_ADDR:
            if (!take_if_address(in, &ifr.ifr_addr)) return reply_error(EINVAL);
            (void)::ioctl(d.fd, SIOCSIFADDR, &ifr);
            break;
        case INET_IFOPT_BROADADDR:
            if (!take_if_address(in, &ifr.ifr_broadaddr)) return reply_error(EINVAL);
            (void)::ioctl(d.fd, SIOCSIFBRDADDR, &ifr);
            break;
        case INET_IFOPT_DSTADDR:
            if (!take_if_address(in, &ifr.ifr_dstaddr)) return reply_error(EINVAL);
            (void)::ioctl(d.fd, SIOCSIFDSTADDR, &ifr);
            break;
        case INET_IFOPT_NETMASK:
            if (!take_if_address(in, &ifr.ifr_netmask)) return reply_error(EINVAL);
            (void)::ioctl(d.fd, SIOCSIFNETMASK, &ifr);
            break;
        case INET_IFOPT_HWADDR: {
            uint16_t n;
            if (!get_u16(in, n) || in.size() < n) return reply_error(EINVAL);
            std::memset(ifr.ifr_hwaddr.sa_data, 0, sizeof ifr.ifr_hwaddr.sa_data);
            std::memcpy(ifr.ifr_hwaddr.sa_data, in.data(), std::min<size_t>(n, sizeof ifr.ifr_hwaddr.sa_data));
            (void)::ioctl(d.fd, SIOCSIFHWADDR, &ifr);
            in.remove_prefix(n);
            break;
        }
        case INET_IFOPT_MTU: {
            uint32_t mtu;
            if (!get_u32(in, mtu)) return reply_error(EINVAL);
            ifr.ifr_mtu = static_cast<int>(mtu);
            (void)::ioctl(d.fd, SIOCSIFMTU, &ifr);
            break;
        }
        case INET_IFOPT_FLAGS: {  // up/down, broadcast and point-to-point on or off
            uint32_t want;
            if (!get_u32(in, want)) return reply_error(EINVAL);
            short now = ::ioctl(d.fd, SIOCGIFFLAGS, &ifr) == 0 ? ifr.ifr_flags : 0;
            short flags = now;
            if (want & INET_IFF_UP) flags |= IFF_UP;
            if (want & INET_IFF_DOWN) flags &= ~IFF_UP;
            if (want & INET_IFF_BROADCAST) flags |= IFF_BROADCAST;
            if (want & INET_IFF_NBROADCAST) flags &= ~IFF_BROADCAST;
            if (want & INET_IFF_POINTTOPOINT) flags |= IFF_POINTOPOINT;
            if (want & INET_IFF_NPOINTTOPOINT) flags &= ~IFF_POINTOPOINT;
            if (flags != now) {
                ifr.ifr_flags = flags;
                (void)::ioctl(d.fd, SIOCSIFFLAGS, &ifr);
            }
            break;
        }
        default: return reply_error(EINVAL);
        }
    }
    return reply_ok();
}

// getifaddrs(3) inside the port's network namespace when it was opened in one (inet_drv
// switches the calling thread there and back around the call). 0 or an errno.
int getifaddrs_in(const std::optional<std::string>& netns, ifaddrs** list) {
    if (!netns || netns->empty()) return ::getifaddrs(list) == 0 ? 0 : errno;
    int here = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (here < 0) return errno;
    int there = ::open(netns->c_str(), O_RDONLY | O_CLOEXEC);
    if (there < 0 || ::setns(there, CLONE_NEWNET) != 0) {
        int err = errno;
        if (there >= 0) ::close(there);
        ::close(here);
        return err;
    }
    ::close(there);
    int err = ::getifaddrs(list) == 0 ? 0 : errno;
    if (::setns(here, CLONE_NEWNET) != 0 && err == 0) {
        err = errno;
        ::freeifaddrs(*list);
    }
    ::close(here);
    return err;
}

// Interface names are bytes; prim_inet reads them as UTF-8, so each byte is taken as a
// Latin-1 character (as inet_drv does).
void put_latin1_as_utf8(std::string& out, const char* s) {
    for (; *s; ++s) {
        auto c = static_cast<uint8_t>(*s);
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else {
            out.push_back(static_cast<char>(0xC0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
    }
}

std::string get_ifaddrs(InetDesc& d) {
    ifaddrs* list = nullptr;
    if (int err = getifaddrs_in(d.opt.netns, &list)) return reply_error(err);
    std::string out;
    for (ifaddrs* a = list; a; a = a->ifa_next) {
        put_latin1_as_utf8(out, a->ifa_name);
        out.push_back('\0');
        out.push_back(static_cast<char>(INET_IFOPT_FLAGS));
        put_u32(out, driver_if_flags(a->ifa_flags));
        if (const sockaddr* sa = a->ifa_addr) {
            if (sa->sa_family == AF_INET || sa->sa_family == AF_INET6) {
                put_if_address(out, INET_IFOPT_ADDR, sa);
                if (a->ifa_netmask) put_if_address(out, INET_IFOPT_NETMASK, a->ifa_netmask);
                // ifa_dstaddr and ifa_broadaddr share one field: the flags say which it is.
                if (a->ifa_dstaddr && (a->ifa_flags & IFF_POINTOPOINT))
                    put_if_address(out, INET_IFOPT_DSTADDR, a->ifa_dstaddr);
                else if (a->ifa_broadaddr && (a->ifa_flags & IFF_BROADCAST))
                    put_if_address(out, INET_IFOPT_BROADADDR, a->ifa_broadaddr);
            } else if (sa->sa_family == AF_PACKET && reinterpret_cast<const sockaddr_ll*>(sa)->sll_halen > 1) {
                // inet_drv leaves out hardware addresses of fewer than two bytes
                put_if_address(out, INET_IFOPT_HWADDR, sa);
            }
        }
        out.push_back('\0');
    }
    ::freeifaddrs(list);
    return reply_ok(out);
}

// Len:8 String from a request; false when the length runs past the data.
bool take_short_string(std::string_view& in, std::string& s) {
    if (in.empty()) return false;
    size_t n = static_cast<uint8_t>(in[0]);
    if (n + 1 > in.size()) return false;
    s.assign(in.data() + 1, n);
    in.remove_prefix(n + 1);
    return true;
}

// NameLen:8 Name ProtoLen:8 Proto -> Port:16. Not found is einval, as inet_drv answers.
std::string serv_by_name(std::string_view in) {
    std::string name, proto;
    if (in.size() < 2 || !take_short_string(in, name) || !take_short_string(in, proto)) return reply_error(EINVAL);
    servent se, *found = nullptr;
    char buf[4096];
    if (::getservbyname_r(name.c_str(), proto.c_str(), &se, buf, sizeof buf, &found) != 0 || !found)
        return reply_error(EINVAL);
    std::string r;
    put_u16(r, ntohs(static_cast<uint16_t>(found->s_port)));
    return reply_ok(r);
}

// Port:16 ProtoLen:8 Proto -> Name.
std::string serv_by_port(std::string_view in) {
    uint16_t port;
    std::string proto;
    if (in.size() < 3 || !get_u16(in, port) || !take_short_string(in, proto)) return reply_error(EINVAL);
    servent se, *found = nullptr;
    char buf[4096];
    if (::getservbyport_r(htons(port), proto.c_str(), &se, buf, sizeof buf, &found) != 0 || !found)
        return reply_error(EINVAL);
    return reply_ok(found->s_name);
}

std::string host_name(std::string_view data) {
    if (!data.empty()) return reply_error(EINVAL);
    char name[HOST_NAME_MAX + 1] = {};
    if (::gethostname(name, sizeof name) != 0) return reply_error(errno);
    return reply_ok(std::string_view(name, strnlen(name, sizeof name)));
}

}  // namespace

std::optional<std::string> interface_request(InetDesc& d, unsigned op, std::string_view data) {
    switch (op) {
    case INET_REQ_GETHOSTNAME: return host_name(data);
    case INET_REQ_GETSERVBYNAME: return serv_by_name(data);
    case INET_REQ_GETSERVBYPORT: return serv_by_port(data);
    case INET_REQ_GETIFLIST:
    case INET_REQ_IFGET:
    case INET_REQ_IFSET:
    case INET_REQ_GETIFADDRS:
        if (!(d.state & INET_F_OPEN)) return reply_error_atom("exbadport");
        if (op == INET_REQ_GETIFLIST) return get_iflist(d);
        if (op == INET_REQ_IFGET) return if_get(d, data);
        if (op == INET_REQ_IFSET) return if_set(d, data);
        return get_ifaddrs(d);
    default: return std::nullopt;
    }
}

}  // namespace beam::inet

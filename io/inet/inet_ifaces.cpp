// The interface and name requests every inet port answers (OTP: inet_drv.c's GETHOSTNAME,
// GETIFLIST, IFGET, IFSET, GETIFADDRS, GETSERVBYNAME, GETSERVBYPORT). prim_inet decodes the
// replies (getiflist/1, ifget/3, getifaddrs/1, gethostname/1, getservbyname/3, getservbyport/3).
//
// The Linux answers, as inet_drv gives them on Linux: the interface list and ifget/ifset go
// through the SIOCGIFCONF / SIOCGIF* / SIOCSIF* ioctls on the port's own socket (so an IPv6
// socket answers what Linux answers an IPv6 socket), getifaddrs through getifaddrs(3) in the
// port's network namespace ({netns, Path}). Failed ioctls in ifget leave the item out, as
// inet_drv does; ifset ignores the ioctls' results (inet_drv does too: it answers ok).
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netpacket/packet.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <vector>

#include "io/inet/inet_desc.hpp"

namespace beam::inet {

namespace {

// inet_drv's INET_MAXHOSTNAMELEN: gethostname needs one byte more for the NUL.
constexpr size_t MAX_HOSTNAME = 255;
// Hardware addresses from SIOCGIFHWADDR: inet_drv reports IFHWADDRLEN (6) bytes of sa_data.
constexpr size_t HWADDR_LEN = 6;

// Linux interface flags as prim_inet names them. RUNNING mirrors UP (inet_drv "emulates"
// running that way rather than reading IFF_RUNNING).
uint32_t flags_to_inet(unsigned flags) {
    uint32_t f = 0;
    if (flags & IFF_UP) f |= INET_IFF_UP | INET_IFF_RUNNING;
    if (flags & IFF_BROADCAST) f |= INET_IFF_BROADCAST;
    if (flags & IFF_LOOPBACK) f |= INET_IFF_LOOPBACK;
    if (flags & IFF_POINTOPOINT) f |= INET_IFF_POINTTOPOINT;
    if (flags & IFF_MULTICAST) f |= INET_IFF_MULTICAST;
    return f;
}

// An interface address as the interface requests carry it: INET_AF_INET + 4 bytes,
// INET_AF_INET6 + 16 bytes, or for a link-layer (AF_PACKET) address Len:16 + bytes. A family
// of 0 counts as IPv4 (netmasks from some ioctls come without one). Others: nothing.
void put_if_address(std::string& out, const sockaddr* sa) {
    if (sa->sa_family == AF_INET || sa->sa_family == 0) {
        out.push_back(static_cast<char>(INET_AF_INET));
        out.append(reinterpret_cast<const char*>(&reinterpret_cast<const sockaddr_in*>(sa)->sin_addr), 4);
    } else if (sa->sa_family == AF_INET6) {
        out.push_back(static_cast<char>(INET_AF_INET6));
        out.append(reinterpret_cast<const char*>(&reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr), 16);
    } else if (sa->sa_family == AF_PACKET) {
        auto* ll = reinterpret_cast<const sockaddr_ll*>(sa);
        put_u16(out, ll->sll_halen);
        out.append(reinterpret_cast<const char*>(ll->sll_addr), ll->sll_halen);
    }
}

// The inverse for ifset: INET_AF_INET / INET_AF_INET6 and the address bytes; false: malformed.
bool get_if_address(std::string_view& in, sockaddr* sa) {
    if (in.empty()) return false;
    uint8_t fam = static_cast<uint8_t>(in[0]);
    size_t n = fam == INET_AF_INET ? 4 : fam == INET_AF_INET6 ? 16 : 0;
    if (n == 0 || in.size() < 1 + n) return false;
    if (n == 4) {
        sa->sa_family = AF_INET;
        std::memcpy(&reinterpret_cast<sockaddr_in*>(sa)->sin_addr, in.data() + 1, 4);
    } else {
        // ifreq's address is a 16-byte sockaddr in a 24-byte union: as in inet_drv, the IPv6
        // address runs on into the rest of the union (Linux's SIOCSIF* ioctls refuse it anyway).
        static_assert(sizeof(ifreq::ifr_ifru) >= offsetof(sockaddr_in6, sin6_addr) + 16);
        sa->sa_family = AF_INET6;
        std::memcpy(reinterpret_cast<char*>(sa) + offsetof(sockaddr_in6, sin6_addr), in.data() + 1, 16);
    }
    in.remove_prefix(1 + n);
    return true;
}

// The request's interface name: Len:8, Name; cut to IFNAMSIZ-1 bytes as inet_drv does.
bool get_if_name(std::string_view& in, ifreq& req) {
    std::memset(&req, 0, sizeof req);
    if (in.empty()) return false;
    size_t n = static_cast<uint8_t>(in[0]);
    // inet_drv compares Len with the whole request, its own byte included, and so reads one
    // byte past a name that claims that byte too; here such a request is malformed.
    if (1 + n > in.size()) return false;
    std::memcpy(req.ifr_name, in.data() + 1, std::min<size_t>(n, IFNAMSIZ - 1));
    in.remove_prefix(1 + n);
    return true;
}

// The interfaces with an IPv4 address, from SIOCGIFCONF: Name NUL, ...
std::string get_iflist(int fd) {
    std::vector<ifreq> reqs(64);
    ifconf conf{};
    for (;;) {
        conf.ifc_len = static_cast<int>(reqs.size() * sizeof(ifreq));
        conf.ifc_req = reqs.data();
        if (ioctl(fd, SIOCGIFCONF, &conf) < 0) return reply_error(errno);
        // A full buffer may have cut the list: grow until it no longer fills.
        if (static_cast<size_t>(conf.ifc_len) + sizeof(ifreq) <= reqs.size() * sizeof(ifreq)) break;
        reqs.resize(reqs.size() * 2);
    }
    std::string names;
    size_t count = static_cast<size_t>(conf.ifc_len) / sizeof(ifreq);
    for (size_t i = 0; i < count; i++) {
        int fam = reqs[i].ifr_addr.sa_family;
        if (fam != AF_INET && fam != AF_INET6) continue;
        names.append(reqs[i].ifr_name, strnlen(reqs[i].ifr_name, IFNAMSIZ));
        names.push_back('\0');
    }
    return reply_ok(names);
}

// ifget: Len:8, Name, then one INET_IFOPT_* byte per wanted item. Each answered item is the
// option byte and its value; an item whose ioctl fails is left out (flags: reported as none).
std::string if_get(int fd, std::string_view in) {
    ifreq req;
    if (!get_if_name(in, req)) return reply_error(EINVAL);
    std::string r;
    for (char c : in) {
        unsigned opt = static_cast<uint8_t>(c);
        switch (opt) {
        case INET_IFOPT_ADDR:
        case INET_IFOPT_BROADADDR:
        case INET_IFOPT_DSTADDR:
        case INET_IFOPT_NETMASK: {
            unsigned long cmd = opt == INET_IFOPT_ADDR        ? SIOCGIFADDR
                                : opt == INET_IFOPT_BROADADDR ? SIOCGIFBRDADDR
                                : opt == INET_IFOPT_DSTADDR   ? SIOCGIFDSTADDR
                                                              : SIOCGIFNETMASK;
            if (ioctl(fd, cmd, &req) < 0) break;
            r.push_back(static_cast<char>(opt));
            // The answer is in the union's one sockaddr, whichever name the request gives it.
            put_if_address(r, &req.ifr_addr);
            break;
        }
        case INET_IFOPT_HWADDR:
            if (ioctl(fd, SIOCGIFHWADDR, &req) < 0) break;
            r.push_back(static_cast<char>(opt));
            put_u16(r, HWADDR_LEN);
            r.append(req.ifr_hwaddr.sa_data, HWADDR_LEN);
            break;
        case INET_IFOPT_MTU:
            if (ioctl(fd, SIOCGIFMTU, &req) < 0) break;
            r.push_back(static_cast<char>(opt));
            put_u32(r, static_cast<uint32_t>(req.ifr_mtu));
            break;
        case INET_IFOPT_FLAGS: {
            unsigned flags = ioctl(fd, SIOCGIFFLAGS, &req) < 0 ? 0 : static_cast<uint16_t>(req.ifr_flags);
            r.push_back(static_cast<char>(opt));
            put_u32(r, flags_to_inet(flags));
            break;
        }
        default:
            return reply_error(EINVAL);
        }
    }
    return reply_ok(r);
}

// ifset: Len:8, Name, then items (option byte, value). Setting needs CAP_NET_ADMIN; like
// inet_drv, the ioctls' failures are not reported, only malformed requests are (einval).
std::string if_set(int fd, std::string_view in) {
    ifreq req;
    if (!get_if_name(in, req)) return reply_error(EINVAL);
    while (!in.empty()) {
        unsigned opt = static_cast<uint8_t>(in[0]);
        in.remove_prefix(1);
        switch (opt) {
        case INET_IFOPT_ADDR:
        case INET_IFOPT_BROADADDR:
        case INET_IFOPT_DSTADDR:
        case INET_IFOPT_NETMASK: {
            if (!get_if_address(in, &req.ifr_addr)) return reply_error(EINVAL);
            unsigned long cmd = opt == INET_IFOPT_ADDR        ? SIOCSIFADDR
                                : opt == INET_IFOPT_BROADADDR ? SIOCSIFBRDADDR
                                : opt == INET_IFOPT_DSTADDR   ? SIOCSIFDSTADDR
                                                              : SIOCSIFNETMASK;
            (void)ioctl(fd, cmd, &req);
            break;
        }
        case INET_IFOPT_HWADDR: {
            uint16_t n;
            if (!get_u16(in, n) || in.size() < n) return reply_error(EINVAL);
            std::memset(req.ifr_hwaddr.sa_data, 0, sizeof req.ifr_hwaddr.sa_data);
            std::memcpy(req.ifr_hwaddr.sa_data, in.data(), std::min<size_t>(n, sizeof req.ifr_hwaddr.sa_data));
            (void)ioctl(fd, SIOCSIFHWADDR, &req);
            in.remove_prefix(n);
            break;
        }
        case INET_IFOPT_MTU: {
            uint32_t mtu;
            if (!get_u32(in, mtu)) return reply_error(EINVAL);
            req.ifr_mtu = static_cast<int>(mtu);
            (void)ioctl(fd, SIOCSIFMTU, &req);
            break;
        }
        case INET_IFOPT_FLAGS: {
            uint32_t want;
            if (!get_u32(in, want)) return reply_error(EINVAL);
            int old = ioctl(fd, SIOCGIFFLAGS, &req) < 0 ? 0 : req.ifr_flags;
            int flags = old;
            if (want & INET_IFF_UP) flags |= IFF_UP;
            if (want & INET_IFF_DOWN) flags &= ~IFF_UP;
            if (want & INET_IFF_BROADCAST) flags |= IFF_BROADCAST;
            if (want & INET_IFF_NBROADCAST) flags &= ~IFF_BROADCAST;
            if (want & INET_IFF_POINTTOPOINT) flags |= IFF_POINTOPOINT;
            if (want & INET_IFF_NPOINTTOPOINT) flags &= ~IFF_POINTOPOINT;
            if (flags != old) {
                req.ifr_flags = static_cast<short>(flags);
                (void)ioctl(fd, SIOCSIFFLAGS, &req);
            }
            break;
        }
        default:
            return reply_error(EINVAL);
        }
    }
    return reply_ok();
}

// getifaddrs(3), in the network namespace at `netns` when one is set (an empty path too, which
// fails as inet_drv's does): this thread enters it for the call and returns to its own. 0 or
// the errno.
int getifaddrs_in(const std::optional<std::string>& netns, ifaddrs** list) {
    if (!netns) return getifaddrs(list) < 0 ? errno : 0;
    int own = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (own < 0) return errno;
    int target = open(netns->c_str(), O_RDONLY | O_CLOEXEC);
    if (target < 0 || setns(target, CLONE_NEWNET) != 0) {
        int err = errno;
        if (target >= 0) close(target);
        close(own);
        return err;
    }
    close(target);
    int err = getifaddrs(list) < 0 ? errno : 0;
    if (setns(own, CLONE_NEWNET) != 0) {
        if (err == 0) freeifaddrs(*list);
        err = errno;
    }
    close(own);
    return err;
}

// Interface names are bytes; prim_inet reads them as UTF-8, and inet_drv takes the bytes for
// Latin-1 and encodes each as UTF-8.
void put_latin1_as_utf8(std::string& out, const char* s) {
    for (; *s; s++) {
        auto b = static_cast<uint8_t>(*s);
        if (b < 0x80) {
            out.push_back(static_cast<char>(b));
        } else {
            out.push_back(static_cast<char>(0xC0 | (b >> 6)));
            out.push_back(static_cast<char>(0x80 | (b & 0x3F)));
        }
    }
}

// One entry per getifaddrs(3) record, in its order: Name NUL, INET_IFOPT_FLAGS Flags:32, then
// for an IP address: ADDR, NETMASK, and DSTADDR (point-to-point) or BROADADDR (broadcast); for
// a link-layer record with an address of 2 bytes or more: HWADDR; then NUL. prim_inet merges
// the records of one interface.
std::string get_ifaddrs(const InetDesc& d) {
    ifaddrs* list = nullptr;
    if (int err = getifaddrs_in(d.opt.netns, &list)) return reply_error(err);
    std::string r;
    for (ifaddrs* ifa = list; ifa; ifa = ifa->ifa_next) {
        put_latin1_as_utf8(r, ifa->ifa_name);
        r.push_back('\0');
        r.push_back(static_cast<char>(INET_IFOPT_FLAGS));
        put_u32(r, flags_to_inet(ifa->ifa_flags));
        const sockaddr* a = ifa->ifa_addr;
        if (a && (a->sa_family == AF_INET || a->sa_family == AF_INET6)) {
            auto put = [&r](unsigned opt, const sockaddr* sa) {
                if (!sa) return;
                r.push_back(static_cast<char>(opt));
                put_if_address(r, sa);
            };
            put(INET_IFOPT_ADDR, a);
            put(INET_IFOPT_NETMASK, ifa->ifa_netmask);
            if (ifa->ifa_flags & IFF_POINTOPOINT)
                put(INET_IFOPT_DSTADDR, ifa->ifa_dstaddr);
            else if (ifa->ifa_flags & IFF_BROADCAST)
                put(INET_IFOPT_BROADADDR, ifa->ifa_broadaddr);
        } else if (a && a->sa_family == AF_PACKET && reinterpret_cast<const sockaddr_ll*>(a)->sll_halen > 1) {
            r.push_back(static_cast<char>(INET_IFOPT_HWADDR));
            put_if_address(r, a);
        }
        r.push_back('\0');
    }
    freeifaddrs(list);
    return reply_ok(r);
}

// getservbyname: Len:8, Name, Len:8, Proto -> Port:16. Unknown service: einval (inet_drv's).
std::string serv_by_name(std::string_view in) {
    if (in.size() < 2) return reply_error(EINVAL);
    size_t n = static_cast<uint8_t>(in[0]);
    if (n + 1 >= in.size()) return reply_error(EINVAL);  // the proto's length byte too
    std::string name(in.substr(1, n));
    in.remove_prefix(1 + n);
    size_t m = static_cast<uint8_t>(in[0]);
    if (m > in.size() - 1) return reply_error(EINVAL);
    std::string proto(in.substr(1, m));
    servent entry, *found = nullptr;
    char buf[4096];
    if (getservbyname_r(name.c_str(), proto.c_str(), &entry, buf, sizeof buf, &found) != 0 || !found)
        return reply_error(EINVAL);
    std::string r;
    put_u16(r, ntohs(static_cast<uint16_t>(found->s_port)));
    return reply_ok(r);
}

// getservbyport: Port:16, Len:8, Proto -> Name.
std::string serv_by_port(std::string_view in) {
    uint16_t port_no;
    if (in.size() < 3 || !get_u16(in, port_no)) return reply_error(EINVAL);
    size_t m = static_cast<uint8_t>(in[0]);
    if (m > in.size() - 1) return reply_error(EINVAL);
    std::string proto(in.substr(1, m));
    servent entry, *found = nullptr;
    char buf[4096];
    if (getservbyport_r(htons(port_no), proto.c_str(), &entry, buf, sizeof buf, &found) != 0 || !found)
        return reply_error(EINVAL);
    return reply_ok(found->s_name);
}

std::string host_name(std::string_view in) {
    if (!in.empty()) return reply_error(EINVAL);
    char name[MAX_HOSTNAME + 1];
    if (gethostname(name, sizeof name) != 0) return reply_error(errno);
    name[MAX_HOSTNAME] = '\0';
    return reply_ok(name);
}

}  // namespace

std::optional<std::string> interface_request(InetDesc& d, unsigned op, std::string_view data) {
    bool open = (d.state & INET_F_OPEN) != 0;
    switch (op) {
    case INET_REQ_GETHOSTNAME:
        return host_name(data);
    case INET_REQ_GETSERVBYNAME:
        return serv_by_name(data);
    case INET_REQ_GETSERVBYPORT:
        return serv_by_port(data);
    case INET_REQ_GETIFLIST:
        return open ? get_iflist(d.fd) : reply_error_atom("exbadport");
    case INET_REQ_GETIFADDRS:
        return open ? get_ifaddrs(d) : reply_error_atom("exbadport");
    case INET_REQ_IFGET:
        return open ? if_get(d.fd, data) : reply_error_atom("exbadport");
    case INET_REQ_IFSET:
        return open ? if_set(d.fd, data) : reply_error_atom("exbadport");
    default:
        return std::nullopt;
    }
}

}  // namespace beam::inet

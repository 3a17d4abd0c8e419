// prim_net:nif_getifaddrs/1 (net:getifaddrs/0,1,2): getifaddrs(3) as a list of maps
//   #{name, flags, addr, netmask, broadaddr | dstaddr}
// in the C library's order, one per address (Linux lists each interface's AF_PACKET entry,
// its hardware address, first). Keys whose address is absent are left out. net.erl filters
// by family and name itself. OTP: prim_net_nif.c's enet_getifaddrs.
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bifs/bif_util.hpp"
#include "io/socket/prim_net.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "vm/map.hpp"

namespace beam::esock {

namespace {

// The interface flags as atoms, in the order prim_net_nif.c's encode_ifaddrs_flags lists them.
constexpr std::pair<unsigned, const char*> kIfFlags[] = {
    {IFF_UP, "up"},           {IFF_BROADCAST, "broadcast"}, {IFF_DEBUG, "debug"},
    {IFF_LOOPBACK, "loopback"}, {IFF_POINTOPOINT, "pointopoint"}, {IFF_NOTRAILERS, "notrailers"},
    {IFF_RUNNING, "running"}, {IFF_NOARP, "noarp"},         {IFF_PROMISC, "promisc"},
    {IFF_MASTER, "master"},   {IFF_SLAVE, "slave"},         {IFF_MULTICAST, "multicast"},
    {IFF_PORTSEL, "portsel"}, {IFF_AUTOMEDIA, "automedia"}, {IFF_DYNAMIC, "dynamic"},
};

Term encode_flags(Process* p, unsigned flags) {
    std::vector<Term> out;
    for (auto [bit, name] : kIfFlags)
        if (flags & bit) out.push_back(atom(name));
    return make_list_from(*p, out.data(), out.size());
}

Term encode_ifaddr(Process* p, const ifaddrs& ifa) {
    std::vector<std::pair<Term, Term>> kv;
    kv.emplace_back(atom("name"), ifa.ifa_name ? make_string(*p, ifa.ifa_name) : atom("undefined"));
    kv.emplace_back(atom("flags"), encode_flags(p, ifa.ifa_flags));
    if (ifa.ifa_addr) kv.emplace_back(atom("addr"), encode_sockaddr_unsized(p, ifa.ifa_addr));
    if (ifa.ifa_netmask) kv.emplace_back(atom("netmask"), encode_sockaddr_unsized(p, ifa.ifa_netmask));
    // ifa_dstaddr and ifa_broadaddr are one field: the flags say which it is.
    if (ifa.ifa_dstaddr && (ifa.ifa_flags & IFF_POINTOPOINT))
        kv.emplace_back(atom("dstaddr"), encode_sockaddr_unsized(p, ifa.ifa_dstaddr));
    else if (ifa.ifa_broadaddr && (ifa.ifa_flags & IFF_BROADCAST))
        kv.emplace_back(atom("broadaddr"), encode_sockaddr_unsized(p, ifa.ifa_broadaddr));
    return map_from_pairs(*p, std::move(kv));
}

// The `netns` of the extra map: as OTP, looked at only when it is the map's one key; a
// value that is not a latin-1 string is badarg (false).
bool extra_netns(Term extra, std::optional<std::string>& netns) {
    if (map_size(extra) != 1) return true;
    const Term* v = map_get(extra, atom("netns"));
    if (!v) return true;
    netns = latin1_c_string(*v);
    return netns.has_value();
}

// Moves the calling thread into the network namespace at `path` for the lifetime of this
// object (getifaddrs then sees that namespace's interfaces).
class NetnsSwitch {
public:
    explicit NetnsSwitch(const std::string& path) {
        old_ = ::open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
        if (old_ < 0) { err_ = errno; return; }
        int ns = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (ns < 0) { err_ = errno; return; }
        if (::setns(ns, CLONE_NEWNET) != 0) err_ = errno;
        else entered_ = true;
        ::close(ns);
    }
    // Back to the old namespace: its errno, or 0.
    int restore() {
        int e = 0;
        if (entered_ && ::setns(old_, CLONE_NEWNET) != 0) e = errno;
        entered_ = false;
        if (old_ >= 0) ::close(old_), old_ = -1;
        return e;
    }
    ~NetnsSwitch() { restore(); }
    int error() const { return err_; }

private:
    int old_ = -1;
    int err_ = 0;
    bool entered_ = false;
};

}  // namespace

Term nif_getifaddrs_1(Process* p, const Term* a) {
    if (!is_map(a[0])) return p->badarg();
    std::optional<std::string> netns;
    if (!extra_netns(a[0], netns)) return p->badarg();
    std::optional<NetnsSwitch> sw;
    if (netns) {
        sw.emplace(*netns);
        if (int e = sw->error()) return errno_tuple(p, e);
    }
    ifaddrs* list = nullptr;
    Term result;
    if (::getifaddrs(&list) != 0) {
        result = errno_tuple(p, errno);
    } else {
        std::vector<Term> items;
        for (ifaddrs* i = list; i; i = i->ifa_next) items.push_back(encode_ifaddr(p, *i));
        ::freeifaddrs(list);
        result = make_tuple(*p, {am::ok, make_list_from(*p, items.data(), items.size())});
    }
    if (sw)
        if (int e = sw->restore()) return errno_tuple(p, e);
    return result;
}

}  // namespace beam::esock

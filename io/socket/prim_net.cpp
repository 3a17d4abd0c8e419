// The natives of OTP's preloaded prim_net (the net module) that name the host and its
// interfaces: nif_gethostname/0, nif_if_names/0, nif_if_name2index/1, nif_if_index2name/1
// (OTP: erts/emulator/nifs/common/prim_net_nif.c). prim_net's other natives (getifaddrs,
// getaddrinfo, getnameinfo, info, command) are not in beamvm yet: their stubs raise notsup.
#include <net/if.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "io/socket/socket.hpp"
#include "vm/bignum.hpp"

namespace beam::esock {

namespace {

Term nif_gethostname_0(Process* p, const Term*) {
    char buf[HOST_NAME_MAX + 2] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) {
        int err = errno;
        if (err == EFAULT) return error_tuple(p, atom("efault"));
        if (err == EINVAL) return error_tuple(p, atom("einval"));
        if (err == ENAMETOOLONG) return error_tuple(p, atom("enametoolong"));
        return error_tuple(p, make_integer(*p, err));
    }
    return make_tuple(*p, {am::ok, make_string(*p, buf)});
}

Term nif_if_names_0(Process* p, const Term*) {
    struct if_nameindex* ifs = ::if_nameindex();
    if (!ifs) return errno_tuple(p, errno);
    std::vector<Term> items;
    for (struct if_nameindex* i = ifs; i->if_index != 0 || i->if_name != nullptr; ++i)
        items.push_back(make_tuple(*p, {make_integer(*p, int(i->if_index)), make_string(*p, i->if_name)}));
    ::if_freenameindex(ifs);
    return make_tuple(*p, {am::ok, make_list_from(*p, items.data(), items.size())});
}

Term nif_if_name2index_1(Process* p, const Term* a) {
    auto name = char_list_to_utf8(a[0]);
    if (!name) return p->badarg();
    unsigned idx = ::if_nametoindex(name->c_str());
    if (idx == 0) return errno_tuple(p, errno);
    return make_tuple(*p, {am::ok, make_integer(*p, int(idx))});
}

Term nif_if_index2name_1(Process* p, const Term* a) {
    uint64_t idx;
    if (!get_uint64(a[0], idx) || idx > UINT32_MAX) return p->badarg();
    char name[IF_NAMESIZE + 1] = {};
    if (!::if_indextoname(unsigned(idx), name)) return error_tuple(p, atom("enxio"));
    return make_tuple(*p, {am::ok, make_string(*p, name)});
}

constexpr BifSpec table[] = {
    {"prim_net", "nif_gethostname", 0, &nif_gethostname_0},
    {"prim_net", "nif_if_names", 0, &nif_if_names_0},
    {"prim_net", "nif_if_name2index", 1, &nif_if_name2index_1},
    {"prim_net", "nif_if_index2name", 1, &nif_if_index2name_1},
};

}  // namespace

}  // namespace beam::esock

namespace beam {
std::span<const BifSpec> prim_net_bifs() { return esock::table; }
}  // namespace beam

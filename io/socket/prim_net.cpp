// The natives of OTP's preloaded prim_net (the net module; OTP: erts/emulator/nifs/common/
// prim_net_nif.c): info and command, the host name and the interface names here;
// getifaddrs in prim_net_ifaddrs.cpp, getaddrinfo and getnameinfo in prim_net_resolve.cpp.
// Windows' natives (get_adapters_addresses, get_if_entry, get_interface_info,
// get_ip_address_table) are absent, as in OTP on Unix: prim_net's stubs raise notsup.
#include <net/if.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "io/socket/prim_net.hpp"
#include "io/socket/socket.hpp"
#include "vm/bignum.hpp"

namespace beam::esock {

std::optional<std::string> latin1_c_string(Term t) {
    auto s = byte_list(t);
    if (s) s->resize(std::strlen(s->c_str()));
    return s;
}

namespace {

// The net NIF's one setting, command({debug, Bool}); only info/0 reads it here (OTP's
// debug output is its own trace printing).
std::atomic<bool> net_debug{false};

Term nif_info_0(Process* p, const Term*) {
    return make_atom_map(p, {{"debug", make_bool(net_debug.load())}});
}

// OTP's enet_command: {debug, true | false} is the one command; anything else is einval.
Term nif_command_1(Process* p, const Term* a) {
    Term cmd = a[0];
    if (!is_tuple(cmd) || tuple_arity(cmd) != 2 || tuple_elems(cmd)[0] != atom("debug"))
        return error_tuple(p, atom("einval"));
    Term v = tuple_elems(cmd)[1];
    if (!is_boolean_atom(v)) return error_tuple(p, atom("einval"));
    net_debug.store(v == am::true_);
    return am::ok;
}

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
    {"prim_net", "nif_info", 0, &nif_info_0},
    {"prim_net", "nif_command", 1, &nif_command_1},
    {"prim_net", "nif_getifaddrs", 1, &nif_getifaddrs_1},
    {"prim_net", "nif_getaddrinfo", 3, &nif_getaddrinfo_3},
    {"prim_net", "nif_getnameinfo", 2, &nif_getnameinfo_2},
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

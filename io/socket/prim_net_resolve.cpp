// prim_net:nif_getaddrinfo/3 and nif_getnameinfo/2 (net:getaddrinfo/1,2, net:getnameinfo/1,2):
// the C library's resolver, getaddrinfo(3) and getnameinfo(3), with their EAI_* failures
// named as OTP's prim_net_nif.c names them. Both block the calling scheduler while the
// resolver works, as OTP's dirty-less NIFs do.
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "bifs/bif_util.hpp"
#include "io/socket/prim_net.hpp"
#include "io/socket/socket.hpp"
#include "io/socket/socket_addr.hpp"
#include "vm/bignum.hpp"

namespace beam::esock {

namespace {

// Host or service: `undefined` (null) or a latin-1 string; false for anything else (badarg).
bool decode_name(Term t, std::optional<std::string>& out) {
    if (t == atom("undefined")) return out.reset(), true;
    out = latin1_c_string(t);
    return out.has_value();
}

// getaddrinfo(3)'s failures (enet_getaddrinfo); an unknown one is einval.
Term addrinfo_error(Process* p, int eai) {
    switch (eai) {
    case EAI_ADDRFAMILY: return error_tuple(p, atom("eaddrfamily"));
    case EAI_AGAIN: return error_tuple(p, atom("eagain"));
    case EAI_BADFLAGS: return error_tuple(p, atom("ebadflags"));
    case EAI_FAIL: return error_tuple(p, atom("efail"));
    case EAI_FAMILY: return error_tuple(p, atom("efamily"));
    case EAI_MEMORY: return error_tuple(p, atom("emem"));
    case EAI_NODATA: return error_tuple(p, atom("enodata"));
    case EAI_NONAME: return error_tuple(p, atom("enoname"));
    case EAI_SERVICE: return error_tuple(p, atom("eservice"));
    case EAI_SOCKTYPE: return error_tuple(p, atom("esocktype"));
    case EAI_SYSTEM: return error_tuple(p, atom("esystem"));
    default: return error_tuple(p, atom("einval"));
    }
}

// getnameinfo(3)'s failures (enet_getnameinfo): a different set from getaddrinfo's, and
// EAI_SYSTEM gives errno.
Term nameinfo_error(Process* p, int eai, int err) {
    switch (eai) {
    case EAI_AGAIN: return error_tuple(p, atom("eagain"));
    case EAI_BADFLAGS: return error_tuple(p, atom("ebadflags"));
    case EAI_FAIL: return error_tuple(p, atom("efail"));
    case EAI_FAMILY: return error_tuple(p, atom("efamily"));
    case EAI_MEMORY: return error_tuple(p, atom("emem"));
    case EAI_NONAME: return error_tuple(p, atom("enoname"));
    case EAI_OVERFLOW: return error_tuple(p, atom("eoverflow"));
    case EAI_SYSTEM: return errno_tuple(p, err);
    default: return error_tuple(p, atom("einval"));
    }
}

// #{family, type, protocol, addr}: the protocol as a number (prim_net.erl names it).
Term encode_addrinfo(Process* p, const addrinfo& ai) {
    SockAddr a{};
    socklen_t len = std::min<socklen_t>(ai.ai_addrlen, sizeof a);
    if (ai.ai_addr) std::memcpy(&a, ai.ai_addr, len);
    return make_atom_map(p, {{"family", encode_domain(p, ai.ai_family)},
                             {"type", encode_type(p, ai.ai_socktype)},
                             {"protocol", make_integer(*p, ai.ai_protocol)},
                             {"addr", encode_sockaddr(p, a, len)}});
}

// getnameinfo's flags: `undefined` (none) or a list of names (an improper tail ends it, as
// in OTP). False for anything else (badarg).
bool decode_nameinfo_flags(Term t, int& flags) {
    flags = 0;
    if (t == atom("undefined")) return true;
    if (!is_list(t) && t != NIL) return false;
    for (; is_list(t); t = tail(t)) {
        Term f = head(t);
        if (f == atom("namereqd")) flags |= NI_NAMEREQD;
        else if (f == atom("dgram")) flags |= NI_DGRAM;
        else if (f == atom("nofqdn")) flags |= NI_NOFQDN;
        else if (f == atom("numerichost")) flags |= NI_NUMERICHOST;
        else if (f == atom("numericserv")) flags |= NI_NUMERICSERV;
        else if (f == atom("idn")) flags |= NI_IDN;
        else return false;
    }
    return true;
}

// OTP's buffer sizes for the two answers (prim_net_nif.c's HOSTNAME_LEN, SERVICE_LEN).
constexpr size_t kHostLen = 256, kServiceLen = 256;

}  // namespace

Term nif_getaddrinfo_3(Process* p, const Term* a) {
    std::optional<std::string> host, service;
    if (!decode_name(a[0], host) || !decode_name(a[1], service) || (!host && !service)) return p->badarg();
    // a[2], the hints, is ignored as in OTP 25.
    addrinfo* list = nullptr;
    int rc = ::getaddrinfo(host ? host->c_str() : nullptr, service ? service->c_str() : nullptr, nullptr, &list);
    if (rc != 0) return addrinfo_error(p, rc);
    std::vector<Term> items;
    for (addrinfo* i = list; i; i = i->ai_next) items.push_back(encode_addrinfo(p, *i));
    ::freeaddrinfo(list);
    return make_tuple(*p, {am::ok, make_list_from(*p, items.data(), items.size())});
}

Term nif_getnameinfo_2(Process* p, const Term* a) {
    SockAddr sa;
    socklen_t len;
    if (!decode_sockaddr(a[0], sa, len)) return error_tuple(p, atom("einval"));
    int flags;
    if (!decode_nameinfo_flags(a[1], flags)) return p->badarg();
    char host[kHostLen], serv[kServiceLen];
    int rc = ::getnameinfo(&sa.sa, len, host, sizeof host, serv, sizeof serv, flags);
    if (rc != 0) return nameinfo_error(p, rc, errno);
    return make_tuple(*p, {am::ok, make_atom_map(p, {{"host", make_string(*p, host)},
                                                     {"service", make_string(*p, serv)}})});
}

}  // namespace beam::esock

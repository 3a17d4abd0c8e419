// prim_net's natives that live outside prim_net.cpp (which holds the table of them all).
#pragma once

#include <optional>
#include <string>

#include "vm/process.hpp"

namespace beam::esock {

// A latin-1 string argument as the C string the NIF would pass on (OTP's esock_decode_string:
// enif_get_string, so it ends at an embedded NUL); nullopt if `t` is not such a list.
std::optional<std::string> latin1_c_string(Term t);

// prim_net_ifaddrs.cpp
Term nif_getifaddrs_1(Process* p, const Term* a);
// prim_net_resolve.cpp
Term nif_getaddrinfo_3(Process* p, const Term* a);
Term nif_getnameinfo_2(Process* p, const Term* a);

}  // namespace beam::esock

// socket.erl's address maps and the C sockaddr they stand for (OTP: socket_util.c's
// esock_decode_sockaddr / esock_encode_sockaddr):
//   #{family := inet, port, addr := {A,B,C,D} | any | loopback | broadcast}
//   #{family := inet6, port, addr := 8-tuple | any | loopback, flowinfo, scope_id}
//   #{family := local, path := binary()}
//   #{family := unspec | integer(), addr := binary()}   (native: the sa_data bytes)
//   #{family := packet, protocol, ifindex, hatype, pkttype, addr := binary()}  (encoded only:
//     Linux's sockaddr_ll, as getifaddrs reports an interface's link layer address)
// prim_socket.erl fills in the defaults before a map comes here.
#pragma once

#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netpacket/packet.h>

#include "vm/process.hpp"

namespace beam::esock {

union SockAddr {
    sockaddr sa;
    sockaddr_in in4;
    sockaddr_in6 in6;
    sockaddr_un un;
    sockaddr_ll ll;
    sockaddr_storage ss;
};

// False when `t` is not an address this socket API accepts (the NIF's {invalid, sockaddr}).
bool decode_sockaddr(Term t, SockAddr& out, socklen_t& len);
// The map for `len` bytes of `a` (len as the kernel reported it).
Term encode_sockaddr(Process* p, const SockAddr& a, socklen_t len);
// The map for an address whose length nobody reported (getifaddrs(3)'s): the family's own
// size, as OTP's esock_encode_sockaddr with length -1; `undefined` for a null pointer.
Term encode_sockaddr_unsized(Process* p, const sockaddr* sa);
// Decodes a domain atom (or an integer, "native"): 1 known, -1 native integer, 0 invalid.
int decode_domain(Term t, int& out);
bool decode_type(Term t, int& out);
// IPv4 / IPv6 addresses alone (tuples, or any/loopback/broadcast atoms).
bool decode_in_addr(Term t, in_addr& out);
bool decode_in6_addr(Term t, in6_addr& out);
Term encode_in_addr(Process* p, const in_addr& a);
Term encode_in6_addr(Process* p, const in6_addr& a);

}  // namespace beam::esock

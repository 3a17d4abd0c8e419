// Control messages (sendmsg's ctrl, recvmsg's ctrl) as socket.erl writes them:
//   #{level := socket | integer(), type := atom() | integer(), data := binary(), value => term()}
// The types with a value codec are OTP's (prim_socket_nif.c's cmsgLevel* tables): socket
// timestamp; ip tos, ttl, recvttl, pktinfo, origdstaddr, recvtos; ipv6 pktinfo, hoplimit,
// tclass, recvtclass. Others travel as their data binary only.
#pragma once

#include <sys/socket.h>

#include <string>

#include "vm/process.hpp"

namespace beam::esock {

// Appends the C control buffer for a list of cmsg maps; false if one is not valid.
bool encode_cmsgs(Term list, std::string& out);
// The list of cmsg maps in a received message's control buffer.
Term decode_cmsgs(Process* p, const msghdr& mh);
// The level as prim_socket expects it back (socket, or the protocol number).
Term encode_level(int level);
bool decode_level(Term t, int& level);
Term encode_ip_tos(Process* p, int val);
bool decode_ip_tos(Term t, int& val);

}  // namespace beam::esock

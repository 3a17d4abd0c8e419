// libFuzzer target: the inet drivers' option decoder (io/inet/inet_options.cpp), the bytes
// prim_inet sends with INET_REQ_SETOPTS and INET_REQ_GETOPTS (Code:8 Value:32 and the longer
// forms: active N, linger, raw, bind_to_device, netns, multicast memberships), applied to a
// fresh socket of the family and type the first byte picks.
//
// Input: Kind:8 (bit 0: IPv6, bit 1: datagram), SetLen:16 (big-endian), the setopts bytes, then
// the getopts bytes. The descriptor is a bare InetDesc (no port, no poller): what the protocol
// does after an option changed (deliver, re-arm) is the driver's, not the decoder's.
// Checks beyond memory safety: every reply starts with INET_REP_OK or INET_REP_ERROR, and a
// socket in {active, N} mode has N > 0 messages left.
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

#include "io/inet/inet_desc.hpp"

using namespace beam;
using namespace beam::inet;

namespace {

class BareDesc final : public InetDesc {
public:
    using InetDesc::InetDesc;
    std::optional<std::string> control_proto(Term, unsigned, std::string_view) override { return std::nullopt; }
    void passive_reached() override {}
    void output(Term, std::string_view) override {}
    void on_io(IoHandle, uint32_t) override {}
};

bool is_reply(const std::string& r) {
    return !r.empty() && (uint8_t(r[0]) == INET_REP_OK || uint8_t(r[0]) == INET_REP_ERROR);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 3) return 0;
    int family = data[0] & 1 ? AF_INET6 : AF_INET;
    int type = data[0] & 2 ? SOCK_DGRAM : SOCK_STREAM;
    size_t set_len = std::min(size_t(data[1]) << 8 | data[2], size - 3);
    std::string_view set(reinterpret_cast<const char*>(data + 3), set_len);
    std::string_view get(reinterpret_cast<const char*>(data + 3 + set_len), size - 3 - set_len);

    BareDesc d(type);
    d.fd = ::socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (d.fd < 0) return 0;
    d.family = family;
    d.state = INET_STATE_OPEN;
    if (!is_reply(set_options(d, set))) std::abort();
    if (d.opt.active == INET_MULTI && d.opt.active_n <= 0) std::abort();  // {active, N} means N > 0
    if (!is_reply(get_options(d, get))) std::abort();
    ::close(d.fd);
    return 0;
}

// Interface and name requests. The host name is answered here; the interface requests are
// being written (net-ifaces) and answer nullopt (badarg) until then.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "io/inet/inet_desc.hpp"

namespace beam::inet {

std::optional<std::string> interface_request(InetDesc&, unsigned op, std::string_view data) {
    if (op == INET_REQ_GETHOSTNAME) {
        if (!data.empty()) return reply_error(EINVAL);
        char name[HOST_NAME_MAX + 1] = {};
        if (::gethostname(name, sizeof name) != 0) return reply_error(errno);
        return reply_ok(std::string_view(name, strnlen(name, sizeof name)));
    }
    return std::nullopt;
}

}  // namespace beam::inet

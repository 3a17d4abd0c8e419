#include "io/drivers.hpp"

#include "io/inet/inet_desc.hpp"
#include "io/tty/tty_sl.hpp"

namespace beam {

namespace {

// Each driver joins this table when it is complete; until then prim_inet's open_port gets
// badarg, as from an erl without it.
const PortDriverSpec drivers[] = {
    {"tcp_inet", &make_tcp_inet},
    {"udp_inet", &make_udp_inet},
    {"tty_sl", &make_tty_sl},
};

}  // namespace

PortDriverFactory find_port_driver(std::string_view command) {
    std::string_view name = command.substr(0, command.find(' '));
    for (const PortDriverSpec& d : drivers)
        if (d.make && name == d.name) return d.make;
    return nullptr;
}

}  // namespace beam

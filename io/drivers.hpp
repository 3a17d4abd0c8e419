// The port drivers linked into beamvm, by the name open_port({spawn_driver, Name}, ...) gives:
// OTP's inet drivers (tcp_inet, udp_inet) that prim_inet talks to.
#pragma once

#include <string_view>

#include "scheduler/port_driver.hpp"

namespace beam {

// nullptr when no driver has that name (open_port then fails with badarg, as erl's does).
// `command` is the whole {spawn_driver, Command} string; its first word names the driver.
PortDriverFactory find_port_driver(std::string_view command);

}  // namespace beam

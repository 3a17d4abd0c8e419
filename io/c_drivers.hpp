// Loadable C port drivers (erl_ddll:try_load/3, then open_port({spawn, Name}, ...)), for the
// small part of the erl_driver API that simple drivers use: the entry's init, start, stop,
// output and control callbacks, and driver_output() back to the port's owner. That is what
// erts' test drivers such as nif_SUITE's echo_drv need. beamvm exports no other driver_*
// function, so a driver that calls one (driver_select, driver_set_timer, ...) is refused at
// load: dlopen reports the first undefined symbol, and try_load answers it as an open_error.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "scheduler/port_driver.hpp"

namespace beam {

// Opens DIR/NAME.so, checks its ErlDrvEntry (extended marker, major version 3, driver_name
// NAME) and runs its init. Empty on success; else the text of the error.
// `already`: it was loaded before (erl_ddll answers {ok, already_loaded}).
std::optional<std::string> load_c_driver(const std::string& dir, const std::string& name, bool& already);

// The factory of a loaded driver named by a port command's first word, or nullptr.
PortDriverFactory find_c_driver(std::string_view command);

// The names of the loaded drivers (erl_ddll:loaded_drivers/0).
std::vector<std::string> loaded_c_drivers();

}  // namespace beam

// `beamvm script.escript Args...`: the command line OTP's escript launcher would give erl.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace beam {

// If `args` (argv without the program name) starts with a file that is neither a flag nor a
// .beam file, the arguments erl gets from OTP's escript launcher for it: -boot no_dot_erlang
// -noshell, the options on the script's `%%!` line (its second or third line), -run escript
// start -extra Script Args.... Otherwise nothing. Sets ESCRIPT_NAME as the launcher does.
std::optional<std::vector<std::string>> escript_command_line(const std::vector<std::string>& args);

}  // namespace beam

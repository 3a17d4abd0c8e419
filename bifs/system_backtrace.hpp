// A process's stack as text, in the shape of erts' stack dump (process_info(P, backtrace),
// erlang:process_display/2): the program counter, then each frame's return address and its
// y slots. Addresses are beamvm's, as erl's are its own.
#pragma once

#include <string>

#include "vm/process.hpp"

namespace beam {

// q is the caller itself or a process it has borrowed (not running).
std::string backtrace_text(Process* p, const Process* q);

}  // namespace beam

// Tracing BIFs shared between the process half (bifs/system_trace.cpp) and the call-tracing
// half (trace_pattern and function breakpoints).
#pragma once

#include <string_view>
#include <vector>

#include "vm/term.hpp"

namespace beam {

class Process;

// erlang:trace_info/2 for a function ({M, F, A}), on_load, or anything that is not a process
// or port: {Item, Value}, or badarg.
Term trace_info_function(Process* p, Term what, Term item);

// A trace pattern's match-spec actions on process flags (enable_trace/1,2, disable_trace/1,2,
// trace/2,3) for the traced process p: true or false, NON_VALUE when the arguments are bad.
Term trace_flags_action(Process* p, std::string_view name, const std::vector<Term>& args);

}  // namespace beam

// Tracing BIFs shared between the process half (bifs/system_trace.cpp) and the call-tracing
// half (trace_pattern and function breakpoints).
#pragma once

#include "vm/term.hpp"

namespace beam {

class Process;

// erlang:trace_info/2 for a function ({M, F, A}), on_load, or anything that is not a process
// or port: {Item, Value}, or badarg.
Term trace_info_function(Process* p, Term what, Term item);

}  // namespace beam

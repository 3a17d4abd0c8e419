// What happens when a traced function is called (vm/breakpoints.hpp has how it is set up):
// call, return_from, exception_from and return_to messages, meta tracing, call counts and
// times, and the stack frames that make returns and exceptions visible.
//
// Frames pushed on the stack of the called function (all words are terms the GC can scan):
//   return trace  [cp return_trace][{M,F,A}][flags][meta tracer pid/port or []]  then the
//                 return address the function would have returned to
//   return_to     [cp return_to_trace]  then that return address
//   return_to of a BIF bound at load time  [cp return_to_bif_trace][{M,F,A} of its caller]
//   call_time     [cp return_time_trace][the caller's FunctionInfo* as a small, or []]
// The return_trace and return_to_trace "instructions" live outside any module's code, so
// stack traces (which only name return addresses inside modules) never show them; the
// stack walkers skip them explicitly so that their frame-merging rule sees through them.
#pragma once

#include <string_view>
#include <vector>

#include "vm/module.hpp"
#include "vm/term.hpp"

namespace beam {

class Process;

// Stack words the tracing of one call may push (the interpreter checks for them first).
inline constexpr size_t TRACE_FRAME_WORDS = 12;  // two return frames and a return_to

// trace_breakpoint: traces the call of fi (arguments in x) and returns the handler word the
// breakpoint replaced, or 0 when it is also a debug breakpoint (erts_debug:breakpoint/2): the
// call then continues where debug_break says, in the error handler's breakpoint/3 (nullptr
// with undef raised when that is not loaded).
Word breakpoint_hit(Process* p, Term* x, const FunctionInfo* fi);
const Word* debug_break(Process* p, Term* x, const FunctionInfo* fi);
// trace_export: traces a call through a globally traced export; returns where to continue.
const Word* export_trace_hit(Process* p, Term* x, const ExportTrace* t);
// The return_trace frame at E (E[0] = {M,F,A}, E[1] = flags, E[2] = tracer) was returned
// through with `value`.
void trace_return(Process* p, const Term* E, Term value);
// A return_to frame was returned through: execution continues at `cp`.
void trace_return_to(Process* p, const Word* cp);
// A call_time frame [return_time_trace][previous FunctionInfo* as a small, or []] was
// returned through.
void trace_return_time(Process* p, Term prev);
// A traced BIF's return_to frame [return_to_bif_trace][{M,F,A}] was returned through.
void trace_return_to_bif(Process* p, Term mfa);
// An exception of class `cls` and reason `value` unwinds the stack from p->stop to `to` (the
// frame of the catch, or the stack's end): exception_from for each exception_trace frame
// passed, and return_to for the function that catches, as erl.
void trace_unwind(Process* p, Term cls, Term value, const Term* to, bool caught);

// The code addresses the trace frames return to, and whether a stack word is one of them.
const Word* return_trace_address();
const Word* return_to_trace_address();
bool is_trace_frame_cp(Term t);
// The return address at E (the top of a stack), call tracing's frames skipped.
const Word* caller_return_address(const Process* p, const Term* E);

// While some BIF is traced (CallTracing::bifs_traced), a BIF bound at load time (call_bif,
// apply of a BIF) asks here where to go instead: the trace stub of its export when it is
// traced globally, the entry of its function in the module's code when that has a
// breakpoint (local, meta, call_count), or nullptr to call it directly as usual.
const Word* traced_bif_target(Process* p, const struct BifSpec* spec);
// Whether fi is a BIF's function (its body is bif_body) with a breakpoint set.
bool traces_bif(const FunctionInfo& fi);

// A trace pattern's match-spec action on tracing (silent, enable_trace, disable_trace, trace,
// process_dump, set_seq_token), for the running process p. Without effects (match_spec_test)
// every action only answers true.
Term ms_trace_action(Process* p, std::string_view name, const std::vector<Term>& args, bool effects);

}  // namespace beam

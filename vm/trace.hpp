// Process tracing (erlang:trace/3): which events of a process are traced, who receives the
// trace messages, and how a message is built and delivered.
//
// A traced process carries its flags in Process::trace_flags (an atomic bit set: the hot paths
// test one bit with a relaxed load and pay nothing else while tracing is off) and its tracer in
// Process::tracer. The tracer is a module and a state, as OTP's erl_tracer behaviour has it:
// `{tracer, Pid}` is erl_tracer with the pid as state. beamvm runs erl_tracer natively
// (bifs/trace_erl_tracer.cpp); other tracer modules must be NIF modules on erl and are refused.
//
// Trace messages are sent by the traced process itself (or by the process acting on it, for
// spawn and link events), as ordinary messages: a tracer sees them in the order they were made.
#pragma once

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <memory>

#include "vm/atom_table.hpp"
#include "vm/copy_term.hpp"
#include "vm/term.hpp"

namespace beam {

class Process;
class VM;

namespace trace_flag {
inline constexpr uint32_t SEND = 1u << 0;
inline constexpr uint32_t RECEIVE = 1u << 1;
inline constexpr uint32_t PROCS = 1u << 2;
inline constexpr uint32_t PORTS = 1u << 3;
inline constexpr uint32_t CALL = 1u << 4;
inline constexpr uint32_t ARITY = 1u << 5;
inline constexpr uint32_t RETURN_TO = 1u << 6;
inline constexpr uint32_t SILENT = 1u << 7;
inline constexpr uint32_t RUNNING = 1u << 8;
inline constexpr uint32_t EXITING = 1u << 9;
inline constexpr uint32_t GARBAGE_COLLECTION = 1u << 10;
inline constexpr uint32_t TIMESTAMP = 1u << 11;
inline constexpr uint32_t CPU_TIMESTAMP = 1u << 12;
inline constexpr uint32_t MONOTONIC_TIMESTAMP = 1u << 13;
inline constexpr uint32_t STRICT_MONOTONIC_TIMESTAMP = 1u << 14;
inline constexpr uint32_t SET_ON_SPAWN = 1u << 15;
inline constexpr uint32_t SET_ON_FIRST_SPAWN = 1u << 16;
inline constexpr uint32_t SET_ON_LINK = 1u << 17;
inline constexpr uint32_t SET_ON_FIRST_LINK = 1u << 18;
inline constexpr uint32_t RUNNING_PROCS = 1u << 19;
inline constexpr uint32_t RUNNING_PORTS = 1u << 20;
inline constexpr uint32_t SCHEDULER_ID = 1u << 21;
// process_flag(sensitive, true): kept with the trace flags, as erts keeps it, so that every
// event test reads one word. trace_flags_of answers 0 while it is set (no event of any kind);
// trace_flags_raw gives the flags the process keeps meanwhile (trace_info, erlang:trace).
inline constexpr uint32_t SENSITIVE = 1u << 31;
inline constexpr uint32_t ANY_TIMESTAMP =
    TIMESTAMP | CPU_TIMESTAMP | MONOTONIC_TIMESTAMP | STRICT_MONOTONIC_TIMESTAMP;
}  // namespace trace_flag

// Who receives a process's trace messages: Module:trace/5 with State. `{tracer, Pid}` is
// module erl_tracer with the pid as state. Only erl_tracer runs here (make_tracer), so the
// state is always a pid or a port: both immediates, nothing to own.
struct Tracer {
    Term module = NIL;
    Term state = NIL;
    // The tracer as trace_info reports it: Pid or Port for erl_tracer, {Module, State} else.
    Term to_term(class TermAllocator& a) const;
    bool same_as(const Tracer& other) const;
    // erl_tracer with a pid or port state: where the message goes. NIL for other modules.
    Term destination() const;
};
using TracerRef = std::shared_ptr<const Tracer>;

// Builds a tracer from trace/3's `{tracer, Pid | Port}` or `{tracer, Module, State}` option
// values (state NON_VALUE for the first form). Null if the value is not acceptable (badarg).
TracerRef make_tracer(Process* caller, Term module_or_pid, Term state);

// True if `tracer` can still receive (its pid or port exists). A tracer that cannot is
// removed from the processes it traces when they next emit an event, as erl does.
bool tracer_alive(VM& vm, const Tracer& tracer);

// The flags and tracer of a process, read and changed only through these (thread-safe).
// trace_flags_of is inline (defined after Process, in vm/process.hpp): the message path tests
// it several times per message, and as a call each test cost about ten instructions.
inline uint32_t trace_flags_of(const Process* p);
inline uint32_t trace_flags_raw(const Process* p);
inline bool is_sensitive(const Process* p);
TracerRef tracer_of(const Process* p);
// Replaces both: flags 0 removes the tracer. The sensitive flag is kept as it is.
void set_trace(Process* p, uint32_t flags, TracerRef tracer);

// Emits `{trace, Tracee, What, Extra...}` (`trace_ts` with the timestamp the flags ask for
// appended) from `tracee` to its tracer. Call it only when the event's flag is set. Called on
// the tracee's behalf: by the tracee itself, or by the process whose action it describes.
void trace_emit(Process* tracee, Term what, std::initializer_list<Term> extra);
// The same with an explicit tracer and flags (meta tracing has a tracer of its own).
void trace_emit_to(Process* tracee, const Tracer& tracer, uint32_t flags, Term what,
                   std::initializer_list<Term> extra);

// Scheduling events of the running and exiting flags: `{trace, P, in | out | out_exited,
// {M, F, A} | 0}`. The caller tests the flag.
void trace_sched(Process* p, const char* what);

// The garbage_collection events, installed as the collector's trace sink by the VM.
void trace_gc(Process* p, const char* what, size_t words);

// The common one-argument events: `{trace, P, What, Arg}` when `p` has `flag` set.
inline void trace_event(Process* p, uint32_t flag, Term what, Term arg) {
    if (trace_flags_of(p) & flag) trace_emit(p, what, {arg});
}
// A message entering p's queue (every kind: ordinary, EXIT, DOWN, port data, timeout).
// Off for every process after trace_pattern('receive', false, []) (vm/trace_message_patterns.hpp).
bool receive_trace_wanted(Process* p);
// The same, out of line, for the message path (Process::mailbox_push) to stay small.
[[gnu::noinline]] void trace_receive_event(Process* p, Term msg);
inline void trace_receive(Process* p, Term msg) {
    if ((trace_flags_of(p) & trace_flag::RECEIVE) && receive_trace_wanted(p)) trace_emit(p, atom("receive"), {msg});
}
// The procs events: link, unlink, getting_linked, getting_unlinked, exit, register, unregister.
inline void trace_procs(Process* p, const char* what, Term arg) {
    if (trace_flags_of(p) & trace_flag::PROCS) trace_emit(p, atom(what), {arg});
}

// The same for a tracee that is not a process (a port): its id, tracer and flags given.
void trace_emit_id(VM& vm, Term tracee, const Tracer& tracer, uint32_t flags, Term what,
                   std::initializer_list<Term> extra);

// spawn: the parent's spawn (and link, for spawn_link) events, the set_on_spawn and (for
// spawn_link) set_on_link inheritance as OTP 25 does it, then the child's spawned event. The
// child's getting_linked is the caller's to emit, after this.
void trace_on_spawn(Process* parent, Process* child, Term mfa_args, bool link);

// The timestamp term for `flags` (cpu_timestamp, else timestamp, else strict_monotonic, else
// monotonic, as erl chooses), or NON_VALUE when none is set.
Term trace_timestamp(TermAllocator& a, uint32_t flags);

// The flags as erl numbers them (process_info(P, trace)).
uint64_t trace_flags_as_erl(uint32_t flags);

// Process flags default for new processes: trace(new | new_processes, ...). The VM holds them.
struct NewProcessTrace {
    std::atomic<uint32_t> flags{0};
    TracerRef tracer;  // guarded by the VM's trace mutex
};

}  // namespace beam

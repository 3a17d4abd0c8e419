// Sequential tracing (OTP's seq_trace): a token {Flags, Label, Serial, From, LastCnt} that a
// process carries and passes on with every message it sends; the receiver takes it over when
// a receive removes the message from its mailbox. Processes whose token has the send,
// 'receive' or print flag report those events to the one system-wide sequential tracer as
// {seq_trace, Label, {Type, {LastCnt, Serial}, From, To, Message}} (with a timestamp if the
// token asks for one).
//
// No cost when off: Process::seq_trace is null until the process first has a token or
// receives a message carrying one; the send and receive paths test that pointer and nothing
// else. A message travels with its token inside the same message buffer ({Msg, Token, Epoch})
// and the Signal says so in one byte that fits in its padding, so a message without a token is
// exactly as large as before.
//
// Each message in the mailbox of a process that has this state keeps what it brought: a
// token, [] (sent by a process without a token: receiving it clears the receiver's token) or
// `undefined` (from the runtime system, a port or a timer: receiving it leaves the token), as
// OTP's ERL_MESSAGE_TOKEN does. Messages that were already queued when the state was created
// count as `undefined`.
//
// system_flag(reset_seq_trace, true) clears every token, in processes and in messages, without
// stopping anything: it moves a VM-wide epoch on, and a process, or a message in flight, whose
// epoch is older drops its token the next time it is looked at.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>

#include "vm/atomic_shared_ptr.hpp"
#include "vm/term.hpp"
#include "vm/trace.hpp"

namespace beam {

class Process;
class VM;
struct Signal;

// Signal::seq (scheduler/signal.hpp): what a message brings for seq_trace.
namespace seq_kind {
inline constexpr uint8_t SYSTEM = 0;    // not from a process: leaves the receiver's token
inline constexpr uint8_t NO_TOKEN = 1;  // from a process without a token: clears it
inline constexpr uint8_t TOKEN = 2;     // data is {Message, Token, Epoch}
}  // namespace seq_kind

// The seq_trace bits of a token's Flags, as OTP numbers them (seq_trace.erl decodes them).
namespace seq_flag {
inline constexpr uint32_t SEND = 1;
inline constexpr uint32_t RECEIVE = 2;
inline constexpr uint32_t PRINT = 4;
inline constexpr uint32_t NOW_TIMESTAMP = 8;
inline constexpr uint32_t STRICT_MONOTONIC_TIMESTAMP = 16;
inline constexpr uint32_t MONOTONIC_TIMESTAMP = 32;
}  // namespace seq_flag

// A process's seq_trace state (Process::seq_trace), owned and touched only by the process.
struct SeqTrace {
    Term token = NIL;       // the token tuple on the process heap, or []; a GC root
    uint64_t clock = 0;     // OTP's seq_trace_clock: the highest serial seen or made
    uint64_t lastcnt = 0;   // the serial of the last token received
    uint64_t epoch = 0;     // the reset_seq_trace generation this state belongs to
    std::deque<Term> tokens;  // one per mailbox message (see above); GC roots
    Term spawn_reply_token = NIL;  // seq_trace_spawn to spawn_request's reply, within one BIF
};

// VM-wide: the sequential tracer and the reset epoch.
struct SeqTraceSystem {
    AtomicSharedPtr<const Tracer> tracer;
    std::atomic<uint64_t> epoch{0};
};

// The state of `p`, created if absent, with a reset applied.
SeqTrace& seq_state(Process* p);
// The token `p` carries now ([] if none). Safe on another (borrowed) process.
Term seq_current_token(const Process* p);

// Sending with Process::seq_trace set: updates the serial and reports `send` (to `shown_to`:
// the pid, or the alias a message goes through) if the sender has a token; returns the token
// the message carries ([] for none).
Term seq_trace_outgoing(Process* p, Term dest, Term shown_to, Term msg);
// Port ! Msg by a process with seq_trace state: counted and reported as sent (ports take no
// token).
void seq_trace_to_port(Process* p, Term port, Term msg);
// Delivers `msg` to the local process `dest` with `token` (not []).
void seq_post_message(Process* p, Term dest, Term msg, Term token);
// Makes `s` a message signal carrying `msg` and `token` ([]: none, from a process).
void seq_fill_signal(Process* p, Signal* s, Term msg, Term token);
// spawn by a process with seq_trace state (bifs/system_processes.cpp), before the child runs:
// the child inherits the token, and the spawn request and its reply are reported as erl
// reports them ({spawn_request, Ref, Parent, GroupLeader, {M, F, Arity}, Opts, Tag, Args}, and
// {Tag, Ref, ok, Child}). `initial` is {M, F, Args}. For spawn_request (`async`), the reply is
// a real message: the token it carries is left in SeqTrace::spawn_reply_token for the caller.
void seq_trace_spawn(Process* parent, Process* child, Term initial, Term opts, Term tag, Term ref, bool async);
// A dying process with seq_trace state tells the process `linked` (a pid or port) that it
// exits: erl sends the link's exit signal with the dying process's token.
void seq_link_exit(Process* p, Term linked, Term reason);
// A Message or Exit signal with seq != SYSTEM taken in: unwraps a token-carrying message and
// returns the message; `token` is what the mailbox keeps for it.
Term seq_trace_arrival(Process* p, uint8_t kind, Term data, Term& token);
// A receive removes mailbox message `index` (Process::seq_trace is set): takes its token.
void seq_trace_receive(Process* p, size_t index);

// The BIFs' work (bifs/system_seq_trace.cpp): erlang:seq_trace/2 (NON_VALUE: badarg),
// seq_trace_info/1, seq_trace_print/1,2 (label NON_VALUE for /1).
Term seq_trace_set(Process* p, Term what, Term value);
Term seq_trace_info(Process* p, Term what);
Term seq_trace_print(Process* p, Term label, Term msg);

// system_flag(sequential_tracer, T) (old tracer returned; NON_VALUE: badarg),
// system_info(sequential_tracer)'s value, system_flag(reset_seq_trace, true).
Term seq_set_system_tracer(Process* p, Term tracer);
Term seq_system_tracer(Process* p);
void seq_reset_all(VM& vm);

}  // namespace beam

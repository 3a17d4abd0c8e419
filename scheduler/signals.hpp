// Sending signals (any thread) and handling them (the owner, on its scheduler).
#pragma once

#include <string_view>

#include "scheduler/signal.hpp"
#include "vm/process.hpp"

namespace beam {

class VM;

// Queues `s` for the process `to` and makes it runnable. False if `to` does not exist (any
// more): the signal is then still the caller's.
bool deliver_signal(VM& vm, Term to, Signal* s);

// Frees a signal that could not be delivered (its buffer, its flow credit).
void release_signal(Signal* s);

// Copies `msg` and sends it from `sender` to the pid `to`; a message to a dead process is
// dropped, as in OTP. `seq`: what it brings for seq_trace (vm/seq_trace.hpp seq_kind); the
// default is a message from the runtime system. `alias`: the number of the alias it was sent
// to (checked by the owner as it takes the message in), 0 for a pid. True if `to` was alive
// to queue it.
bool post_message(VM& vm, Term to, Term msg, uint8_t seq = 0, uint64_t alias = 0);

// An exit signal from `from` (exit/2 when !linked; a dying linked process when linked).
// `normal_kills`: exit/2 to oneself, where a normal reason ends the process too (OTP's
// ERTS_SIG_LNK_X_FLAG_NORMAL_KILLS); any other normal exit signal is ignored.
void send_exit_signal(VM& vm, Term from, Term to, Term reason, bool linked, bool normal_kills = false);

// A request that the process `to` answers with the message {Ref, Result} when it handles
// it (GroupLeader: data is the new group leader; IsAlive; SaveCalls: data is the new count). The caller waits for the answer,
// so `to` takes it in at the caller's priority if that is higher than its own. False if `to`
// is gone or its queue is closed: the caller answers itself.
bool send_request(VM& vm, SignalKind kind, const Process* from, Term to, Term ref, Term data);

// erts_internal:request_system_task(Pid, Prio, Request): asks `to` to run a system task (a
// collection, or OTP's test task), behind every signal `from` sent it before. `to` takes it in
// at priority `prio` (0 max .. 3 low; erts runs the task at the priority of its request) and
// answers {Tag, ReqId, true} once done, or false if it exits first. False if `to` is gone
// already (the caller answers itself).
bool send_system_task(VM& vm, const Process* from, Term to, SystemTaskKind kind, Term req_id, int prio);

// Runs the system tasks: the release of the literal areas p erased (vm/literal_release.hpp),
// then the garbage collection requests that p's signals brought, answering each. Only where p
// is scheduled out with its live x registers in p->saved_x (its scheduler between two slices):
// handle_signals, which may run inside a receive, only keeps them.
void run_system_tasks(VM& vm, Process* p);
inline bool has_system_tasks(const Process* p) {
    const Process::Rare* r = p->rare_if_any();
    return r && (!r->system_tasks.empty() || !r->literal_releases.empty());
}

// Owner side: takes every queued signal and acts on it. Messages join the mailbox.
// Returns true if the process must exit; the reason (on its heap) is in *reason.
struct SignalResult {
    bool exit = false;
    Term reason = NIL;
    size_t new_messages = 0;
    bool system_tasks = false;  // a system task arrived: the process must be scheduled to run it
};
SignalResult handle_signals(VM& vm, Process* p);

// Everything a dying process owes others: exit signals to links, DOWN to monitors, its
// refused late signals answered, its name and table entry removed. Ends with the process
// released (it may be freed at once).
void exit_process(VM& vm, Process* p, Term reason);
// Sends erts' own log event for `p` ({log, Level, Format, Args, Meta}, Meta with
// error_logger, gl, pid and time) to the system logger (system_flag(system_logger, _), by
// default the process registered as logger). False when there is none to send it to (the
// caller then prints it itself); true also when the flag says to drop it.
bool send_to_system_logger(Process* p, std::string_view level, std::string_view format, Term args);
// The same for the runtime itself (a port, a connection): `gl` and `pid` go in the metadata.
bool send_to_system_logger(VM& vm, Term gl, Term pid, std::string_view level, std::string_view format, Term args);

// The exit reason of a crash: {Reason, Stack} for errors, {{nocatch, V}, Stack} for throws,
// Reason for exits; and prints OTP's error report for errors and throws.
Term crash_reason(Process* p);

}  // namespace beam

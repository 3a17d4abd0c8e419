// The message side of the interpreter: `send` and the receive instructions. Messages from
// others arrive as signals (scheduler/signals.cpp) and are appended to the mailbox by the
// owner; a message to oneself is already on one's own heap and is appended directly.
#include "bifs/bif_util.hpp"
#include "bifs/sandbox_checks.hpp"
#include "scheduler/aliases.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/remote_signals.hpp"
#include "scheduler/signals.hpp"
#include "vm/interp_support.hpp"
#include "vm/seq_trace.hpp"
#include "vm/term_refs.hpp"
#include "vm/trace.hpp"
#include "vm/trace_message_patterns.hpp"
#include "vm/vm.hpp"

namespace beam {

// Longest `receive ... after T`: OTP keeps a process's receive timeout in 32 bits of
// milliseconds (erts_set_proc_timer_term in erl_hl_timer.c); a longer one is timeout_value.
constexpr SWord MAX_RECEIVE_AFTER_MS = 0xFFFFFFFF;

static bool valid_receive_timeout(Term t) {
    return is_small(t) && small_value(t) >= 0 && small_value(t) <= MAX_RECEIVE_AFTER_MS;
}

// The send trace event, as erl emits it before the message goes: send_to_non_existing_process
// for a pid that is not alive; `send` for every other destination (names, {Name, Node},
// aliases, ports), even one that then fails with badarg.
[[gnu::cold]] static void trace_send(Process* p, Term to, Term msg) {
    bool missing = false;
    if (is_pid(to)) {
        Process* q = p->vm->procs.lookup(to);
        if (q) ProcessTable::release(q);
        missing = !q;
    }
    Term extra;
    if (!send_trace_wanted(p, to, msg, &extra)) return;
    Term what = missing ? atom("send_to_non_existing_process") : atom("send");
    if (is_value(extra)) {
        trace_emit(p, what, {msg, to, extra});
    } else {
        trace_emit(p, what, {msg, to});
    }
}

Term send_message(Process* p, Term to, Term msg) {
    bool traced = trace_flags_of(p) & (trace_flag::SEND | trace_flag::RECEIVE);
    if (traced && (trace_flags_of(p) & trace_flag::SEND)) trace_send(p, to, msg);
    Term dest = to;
    if (is_atom(to)) {
        dest = p->vm->procs.whereis(p->ns, to);
        if (dest == am::undefined) return p->badarg();
    } else if (is_tuple(to) && tuple_arity(to) == 2 && is_atom(tuple_elem(to, 0)) && is_atom(tuple_elem(to, 1))) {
        if (tuple_elem(to, 1) != p->vm->node.name()) {  // another node's registered name
            if (RemoteSignals* r = p->vm->remote.load(std::memory_order_acquire)) r->send(p, to, msg, NIL);
            return msg;
        }
        dest = p->vm->procs.whereis(p->ns, tuple_elem(to, 0));
        if (dest == am::undefined) return msg;
    } else if (is_boxed_sub(to, Sub::Ref)) {
        send_to_alias(p, to, msg);
        return msg;
    } else if (is_boxed_sub(to, Sub::ExtRef) || is_boxed_sub(to, Sub::ExtPid)) [[unlikely]] {
        // Another node's alias or process.
        if (RemoteSignals* r = p->vm->remote.load(std::memory_order_acquire)) r->send(p, to, msg, NIL);
        return msg;
    } else if (is_local_port(to)) {
        if (p->seq_trace) [[unlikely]] seq_trace_to_port(p, to, msg);
        port_send(*p->vm, p, to, msg);
        return msg;
    } else if (!is_pid(to)) {
        return p->badarg();
    }
    if (is_local_port(dest)) [[unlikely]] {  // a registered port
        if (p->seq_trace) [[unlikely]] seq_trace_to_port(p, dest, msg);
        port_send(*p->vm, p, dest, msg);
        return msg;
    }
    Term seq_token = NIL;
    if (p->seq_trace) [[unlikely]] seq_token = seq_trace_outgoing(p, dest, dest, msg);
    if (dest == p->pid) {
        // A message to oneself traced as received goes through the signal queue, as on erl,
        // so its 'receive' event comes when the process takes it in.
        if (traced && (trace_flags_of(p) & trace_flag::RECEIVE)) p->sched.self_via_inbox = true;
        if (!p->sched.self_via_inbox) {
            p->mailbox_push(msg, seq_token);
            return msg;
        }
    }
    if (sandbox_restricted(p) && !sandbox_may_signal(p, dest)) [[unlikely]]
        return msg;  // a root server its namespace may not see: dropped (bifs/sandbox_checks.hpp)
    if (seq_token != NIL) [[unlikely]] {
        seq_post_message(p, dest, msg, seq_token);
        return msg;
    }
    post_message(*p->vm, dest, msg, seq_kind::NO_TOKEN);
    return msg;
}

// Takes in the queued signals; false if one of them ends the process (exit_pending is set).
static bool take_signals(Process* p) {
    SignalResult r = handle_signals(*p->vm, p);
    if (!r.exit) return true;
    p->sched.exit_pending = true;
    p->sched.exit_reason = r.reason;
    return false;
}

Term fetch_signals(Process* p) {
    if (p->mailbox_save >= p->mailbox.size() && !take_signals(p)) return NON_VALUE;
    if (p->mailbox_save < p->mailbox.size()) return p->mailbox[p->mailbox_save];
    return NON_VALUE;
}

static void stop_timer(Process* p) {
    if (p->sched.timer_set) {
        p->vm->timers.cancel_receive_timeout(p->sched.timer_id);
        p->sched.timer_set = false;
    }
    p->timed_out = false;
    p->receive_timeout_armed = false;
}

void remove_message(Process* p) {
    if (p->seq_trace) [[unlikely]] seq_trace_receive(p, p->mailbox_save);
    p->mailbox_erase(p->mailbox_save);
    p->mailbox_save = 0;
    stop_timer(p);
}

bool set_timeout(Process* p, Term timeout) {
    p->arity = 0;  // nothing is live in x registers across a receive
    // Run again after a wake-up (a message that did not match, the timer firing): the timer
    // is set or has fired, and the operand may be a clobbered x register.
    if (p->receive_timeout_armed) return true;
    if (timeout == am::infinity) {
        p->receive_timeout_armed = true;
        return true;
    }
    if (!valid_receive_timeout(timeout)) {
        // The receive is abandoned: the next one must scan from the first message again
        // (OTP gh-5235: a save position left behind made the next receive miss messages).
        p->mailbox_save = 0;
        p->error(am::timeout_value);
        return false;
    }
    p->receive_timeout_armed = true;
    if (small_value(timeout) == 0) {
        p->timed_out = true;
        if (trace_flags_of(p) & trace_flag::RECEIVE) trace_receive(p, am::timeout);
        return true;
    }
    p->sched.timer_set = true;
    p->sched.timer_id = p->vm->timers.start_receive_timeout(p->pid, small_value(timeout));
    return true;
}

void clear_timeout(Process* p) {
    // A timer that fired was traced when its signal came in (scheduler/signals.cpp); an
    // `after 0` is traced here or in set_timeout, as erl does.
    if (!p->timed_out && (trace_flags_of(p) & trace_flag::RECEIVE)) trace_receive(p, am::timeout);
    stop_timer(p);
    p->mailbox_save = 0;
}

// Reserving takes in the queued signals first (as OTP does), so the marker also skips the
// messages that had been sent but not yet moved into the mailbox.
Term reserve_recv_marker(Process* p) {
    if (!take_signals(p)) return NON_VALUE;
    if (p->mailbox.empty()) return am::undefined;  // nothing to skip
    return p->recv_markers.reserve(p->mailbox.size());
}

void use_recv_marker(Process* p, Term ref) {
    if (auto pos = p->recv_markers.position(ref)) p->mailbox_save = *pos;
}

}  // namespace beam

// The message side of the interpreter: `send` and the receive instructions. Messages from
// others arrive as signals (scheduler/signals.cpp) and are appended to the mailbox by the
// owner; a message to oneself is already on one's own heap and is appended directly.
#include "bifs/bif_util.hpp"
#include "scheduler/aliases.hpp"
#include "scheduler/signals.hpp"
#include "vm/interp_support.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

// Longest `receive ... after T`: OTP keeps a process's receive timeout in 32 bits of
// milliseconds (erts_set_proc_timer_term in erl_hl_timer.c); a longer one is timeout_value.
constexpr SWord MAX_RECEIVE_AFTER_MS = 0xFFFFFFFF;

static bool valid_receive_timeout(Term t) {
    return is_small(t) && small_value(t) >= 0 && small_value(t) <= MAX_RECEIVE_AFTER_MS;
}

Term send_message(Process* p, Term to, Term msg) {
    Term dest = to;
    if (is_atom(to)) {
        dest = p->vm->procs.whereis(p->ns, to);
        if (dest == am::undefined) return p->badarg();
    } else if (is_tuple(to) && tuple_arity(to) == 2 && is_atom(tuple_elem(to, 0)) && is_atom(tuple_elem(to, 1))) {
        // {Name, Node}: only the local node exists.
        if (tuple_elem(to, 1) != am::nonode_at_nohost) return msg;
        dest = p->vm->procs.whereis(p->ns, tuple_elem(to, 0));
        if (dest == am::undefined) return msg;
    } else if (is_boxed_sub(to, Sub::Ref)) {
        send_to_alias(p, to, msg);
        return msg;
    } else if (!is_pid(to)) {
        return p->badarg();
    }
    if (dest == p->pid && !p->sched.self_via_inbox) {
        p->mailbox_push(msg);
        return msg;
    }
    post_message(*p->vm, dest, msg);
    return msg;
}

Term fetch_signals(Process* p) {
    if (p->mailbox_save >= p->mailbox.size()) {
        SignalResult r = handle_signals(*p->vm, p);
        if (r.exit) {
            p->sched.exit_pending = true;
            p->sched.exit_reason = r.reason;
            return NON_VALUE;
        }
    }
    if (p->mailbox_save < p->mailbox.size()) return p->mailbox[p->mailbox_save];
    return NON_VALUE;
}

void advance_message(Process* p) { p->mailbox_save++; }

static void stop_timer(Process* p) {
    if (p->sched.timer_set) {
        p->vm->timers.cancel(p->sched.timer_id);
        p->sched.timer_set = false;
    }
    p->timed_out = false;
}

void remove_message(Process* p) {
    p->mailbox_erase(p->mailbox_save);
    p->mailbox_save = 0;
    stop_timer(p);
}

bool set_timeout(Process* p, Term timeout) {
    p->arity = 0;  // nothing is live in x registers across a receive
    if (timeout == am::infinity) return true;
    if (!valid_receive_timeout(timeout)) {
        p->error(am::timeout_value);
        return false;
    }
    if (small_value(timeout) == 0) {
        p->timed_out = true;
        return true;
    }
    if (!p->sched.timer_set && !p->timed_out) {
        p->sched.timer_set = true;
        p->sched.timer_id = next_ref_number();
        p->vm->timers.start_receive_timeout(p->pid, p->sched.timer_id, small_value(timeout));
    }
    return true;
}

void clear_timeout(Process* p) {
    stop_timer(p);
    p->mailbox_save = 0;
}

}  // namespace beam

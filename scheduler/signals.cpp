#include "scheduler/signals.hpp"

#include <algorithm>
#include <cstdio>

#include "bifs/bif_util.hpp"
#include "vm/interp_support.hpp"
#include "vm/term_print.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Signal* new_signal(SignalKind k, Term from) {
    auto* s = new Signal{k};
    s->from = from;
    return s;
}

void free_signal(Signal* s) {
    discard_buffer(s->data);
    delete s;
}

void ref_words_of(Term ref, Word out[3]) {
    const Term* w = boxed_ptr(ref);
    out[0] = w[1].raw;
    out[1] = w[2].raw;
    out[2] = w[3].raw;
}

Term ref_from_words(TermAllocator& a, const Word w[3]) {
    return make_ref_from_number(a, w[0] | (w[1] << 18) | (w[2] << 50));
}

bool same_ref(const Word a[3], const Word b[3]) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

// True if an element was erased.
template <class Vec, class Pred>
bool erase_if_first(Vec& v, Pred pred) {
    auto it = std::find_if(v.begin(), v.end(), pred);
    if (it == v.end()) return false;
    v.erase(it);
    return true;
}

// {'DOWN', Ref, process, Who, Reason}, built on `p`'s heap (the dying process, or the
// monitoring process itself for noproc).
Term down_message(Process* p, const MonitorEntry& m, Term dead_pid, Term reason) {
    Term who = m.name != NIL ? make_tuple(*p, {m.name, am::nonode_at_nohost}) : dead_pid;
    return make_tuple(*p, {am::DOWN, ref_from_words(*p, m.ref), am::process, who, reason});
}

void deliver_message_buffer(VM& vm, Term to, MessageBuffer buf) {
    Signal* s = new_signal(SignalKind::Message, NIL);
    s->data = buf;
    if (!deliver_signal(vm, to, s)) free_signal(s);
}

// {Ref, Result} to the sender of a request signal, built on `p`'s heap (the process that
// handles the request, alive or dying).
void reply(VM& vm, Process* p, const Signal* s, Term result) {
    post_message(vm, s->from, make_tuple(*p, {ref_from_words(*p, s->ref), result}));
}

// A late signal the dead process can no longer act on: answer it as OTP does.
void refuse(VM& vm, Process* dead, Signal* s, Term reason) {
    switch (s->kind) {
    case SignalKind::IsAlive:
        reply(vm, dead, s, am::false_);
        break;
    case SignalKind::GroupLeader:
        reply(vm, dead, s, am::badarg);
        break;
    case SignalKind::Link:
        // The linker learns that its new link is to a dead process.
        send_exit_signal(vm, dead->pid, s->from, am::noproc, true);
        break;
    case SignalKind::Monitor: {
        MonitorEntry m{};
        ref_words_of(s->data.term, m.ref);
        m.name = s->name;
        deliver_message_buffer(vm, s->from, copy_to_buffer(down_message(dead, m, dead->pid, am::noproc)));
        break;
    }
    default: break;
    }
    free_signal(s);
}

}  // namespace

bool deliver_signal(VM& vm, Term to, Signal* s) {
    Process* p = vm.procs.lookup(to);
    if (!p) return false;
    bool ok = p->sched.inbox.push(s);
    if (ok && vm.scheds) vm.scheds->activate(p);
    ProcessTable::release(p);
    return ok;
}

void post_message(VM& vm, Term to, Term msg) {
    Process* p = vm.procs.lookup(to);
    if (!p) return;
    Signal* s = new_signal(SignalKind::Message, NIL);
    s->data = copy_to_buffer(msg);
    if (p->sched.inbox.push(s)) {
        vm.scheds->activate(p);
    } else {
        free_signal(s);
    }
    ProcessTable::release(p);
}

void send_exit_signal(VM& vm, Term from, Term to, Term reason, bool linked) {
    Signal* s = new_signal(SignalKind::Exit, from);
    s->linked = linked;
    s->data = copy_to_buffer(reason);
    if (!deliver_signal(vm, to, s)) free_signal(s);
}

SignalResult handle_signals(VM& vm, Process* p) {
    SignalResult r;
    std::vector<Signal*> batch;
    p->sched.inbox.take(batch);
    ProcessSched& ps = p->sched;
    for (size_t i = 0; i < batch.size(); ++i) {
        Signal* s = batch[i];
        if (r.exit) {  // already dying: the rest are answered by exit_process via refuse()
            ps.leftover.push_back(s);
            continue;
        }
        switch (s->kind) {
        case SignalKind::Message:
            p->mailbox_push(adopt_buffer(p, s->data));
            r.new_messages++;
            break;
        case SignalKind::Exit: {
            Term reason = adopt_buffer(p, s->data);
            if (s->linked) {
                auto it = std::find(ps.links.begin(), ps.links.end(), s->from);
                if (it == ps.links.end()) break;  // unlinked meanwhile: ignore
                std::lock_guard lock(ps.info_mutex);
                ps.links.erase(it);
            }
            if (reason == am::kill && !s->linked) {
                r.exit = true;
                r.reason = am::killed;
            } else if (p->trap_exit) {
                p->mailbox_push(make_tuple(*p, {am::EXIT, s->from, reason}));
                r.new_messages++;
            } else if (reason != am::normal || s->from == p->pid) {
                r.exit = true;
                r.reason = reason;
            }
            break;
        }
        case SignalKind::Link:
            if (std::find(ps.links.begin(), ps.links.end(), s->from) == ps.links.end()) {
                std::lock_guard lock(ps.info_mutex);
                ps.links.push_back(s->from);
            }
            break;
        case SignalKind::Unlink: {
            std::lock_guard lock(ps.info_mutex);
            erase_if_first(ps.links, [&](Term t) { return t == s->from; });
            break;
        }
        case SignalKind::Monitor: {
            MonitorEntry m{};
            ref_words_of(s->data.term, m.ref);
            m.pid = s->from;
            m.name = s->name;
            std::lock_guard lock(ps.info_mutex);
            ps.monitored_by.push_back(m);
            break;
        }
        case SignalKind::Demonitor: {
            Word ref[3];
            ref_words_of(s->data.term, ref);
            std::lock_guard lock(ps.info_mutex);
            erase_if_first(ps.monitored_by, [&](const MonitorEntry& m) { return same_ref(m.ref, ref); });
            break;
        }
        case SignalKind::Down: {
            // The monitor is over: demonitor(Ref, [info]) must now say false. A monitor
            // already removed by demonitor gets no DOWN: OTP guarantees none arrives after
            // demonitor returns, which is also why demonitor(Ref, [flush]) of a live monitor
            // need not scan the mailbox.
            bool active;
            {
                std::lock_guard lock(ps.info_mutex);
                active = erase_if_first(ps.monitors, [&](const MonitorEntry& m) { return same_ref(m.ref, s->ref); });
            }
            if (!active) break;
            p->mailbox_push(adopt_buffer(p, s->data));
            r.new_messages++;
            break;
        }
        case SignalKind::Timeout:
            if (ps.timer_set && s->timer_id == ps.timer_id) {
                ps.timer_set = false;
                p->timed_out = true;
            }
            break;
        case SignalKind::GroupLeader:
            p->group_leader = s->data.term;  // an immediate pid
            reply(vm, p, s, am::true_);
            break;
        case SignalKind::IsAlive:
            reply(vm, p, s, am::true_);
            break;
        }
        free_signal(s);
    }
    if (!r.exit) p->sched.inbox.settle();
    return r;
}

bool send_request(VM& vm, SignalKind kind, const Process* from, Term to, Term ref, Term data) {
    Signal* s = new_signal(kind, from->pid);
    ref_words_of(ref, s->ref);
    s->data.term = data;  // an immediate (or NIL): nothing to copy
    Process* p = vm.procs.lookup(to);
    bool ok = p && p->sched.inbox.push(s);
    if (ok && vm.scheds) vm.scheds->activate_for(p, from->sched.prio);
    if (p) ProcessTable::release(p);
    if (!ok) free_signal(s);
    return ok;
}

Term crash_reason(Process* p) {
    Term reason = p->fvalue;
    if (p->fclass == ErrorClass::Exit) return reason;
    if (p->fclass == ErrorClass::Throw) reason = make_tuple(*p, {am::nocatch, reason});
    Term full = make_tuple(*p, {reason, p->ftrace});
    std::fflush(p->vm->out);
    std::fprintf(stderr, "=ERROR REPORT====\nError in process %s with exit value:\n%s\n\n",
                 display_string(p->pid).c_str(), display_string(full).c_str());
    return full;
}

// The signal queue is closed last, after links and monitors have been told: a request that
// finds it closed (is_process_alive/1, group_leader/2) can answer at once and still be
// ordered after this process's exit signals and DOWN messages, as OTP's answer
// "once termination has completed" is.
void exit_process(VM& vm, Process* p, Term reason) {
    ProcessSched& ps = p->sched;
    ps.state.fetch_or(run_state::EXITED, std::memory_order_acq_rel);
    if (ps.timer_set) vm.timers.cancel(ps.timer_id);
    vm.timers.cancel_for(p->pid);  // send_after/start_timer to a pid die with it

    for (Term linked : ps.links) send_exit_signal(vm, p->pid, linked, reason, true);
    for (const MonitorEntry& m : ps.monitored_by) {
        Signal* s = new_signal(SignalKind::Down, p->pid);
        std::copy(m.ref, m.ref + 3, s->ref);
        s->data = copy_to_buffer(down_message(p, m, p->pid, reason));
        if (!deliver_signal(vm, m.pid, s)) free_signal(s);
    }
    for (const MonitorEntry& m : ps.monitors) {
        Signal* s = new_signal(SignalKind::Demonitor, p->pid);
        s->data = copy_to_buffer(ref_from_words(*p, m.ref));
        if (!deliver_signal(vm, m.pid, s)) free_signal(s);
    }
    {
        std::lock_guard lock(ps.info_mutex);
        ps.links.clear();
        ps.monitors.clear();
        ps.monitored_by.clear();
    }
    std::vector<Signal*> late;
    ps.inbox.close(late);
    for (Signal* s : ps.leftover) refuse(vm, p, s, reason);
    ps.leftover.clear();
    for (Signal* s : late) refuse(vm, p, s, reason);
    bool user = !ps.system;
    vm.procs.remove(p);  // drops the table's reference; the scheduler drops its own after
    if (user && vm.scheds) vm.scheds->user_process_ended();
}

}  // namespace beam

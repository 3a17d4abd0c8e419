#include "scheduler/signals.hpp"
#include "scheduler/remote_signals.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "bifs/bif_util.hpp"
#include "vm/host_link.hpp"
#include "ets/ets_registry.hpp"
#include "scheduler/aliases.hpp"
#include "scheduler/native_monitors.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/suspend.hpp"
#include "vm/trace.hpp"
#include "vm/interp_support.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/seq_trace.hpp"
#include "vm/gc.hpp"
#include "vm/heap_offheap.hpp"
#include "vm/literal_release.hpp"
#include "vm/system_flags.hpp"
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
    if (s->credit) return_flow_credit(*s->credit, s->credit_units);
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
    Term who = m.name != NIL ? make_tuple(*p, {m.name, p->vm->node.name()}) : dead_pid;
    return make_tuple(*p, {am::DOWN, ref_from_words(*p, m.ref), am::process, who, reason});
}

// The DOWN message of a monitor made with {tag, Tag}: Tag in place of 'DOWN'.
Term retag_down(Process* p, Term down, const MessageBuffer& tag) {
    return make_tuple(*p, {copy_term(tag.term, *p), tuple_elem(down, 1), tuple_elem(down, 2), tuple_elem(down, 3),
                           tuple_elem(down, 4)});
}

// {Ref, Result} to the sender of a request signal, built on `p`'s heap (the process that
// handles the request, alive or dying).
void reply(VM& vm, Process* p, const Signal* s, Term result) {
    post_message(vm, s->from, make_tuple(*p, {ref_from_words(*p, s->ref), result}));
}

// The first element of a system task's answer.
Term task_tag(const Signal* s) {
    return s->task == TASK_TEST ? atom("system_task_test") : atom("garbage_collect");
}

// A late signal the dead process can no longer act on: answer it as OTP does.
void refuse(VM& vm, Process* dead, Signal* s, Term reason) {
    switch (s->kind) {
    case SignalKind::IsAlive:
        reply(vm, dead, s, am::false_);
        break;
    case SignalKind::GroupLeader:
    case SignalKind::SaveCalls:
        reply(vm, dead, s, am::badarg);
        break;
    case SignalKind::SystemTask:
        post_message(vm, s->from, make_tuple(*dead, {task_tag(s), copy_term(s->data.term, *dead), am::false_}));
        break;
    case SignalKind::Link:
        // The linker learns that its new link is to a dead process.
        send_exit_signal(vm, dead->pid, s->from, am::noproc, true);
        break;
    case SignalKind::Monitor: {
        // A Down signal, not a plain message: the monitor ends on the monitoring side, which
        // applies its tag and its alias's end there.
        MonitorEntry m{};
        ref_words_of(s->data.term, m.ref);
        m.name = s->name;
        Signal* d = new_signal(SignalKind::Down, dead->pid);
        std::copy(m.ref, m.ref + 3, d->ref);
        d->data = copy_to_buffer(down_message(dead, m, dead->pid, am::noproc));
        if (!deliver_signal(vm, s->from, d)) free_signal(d);
        break;
    }
    default: break;
    }
    free_signal(s);
}

}  // namespace

void release_signal(Signal* s) { free_signal(s); }

namespace {
// What a Monitor or Demonitor signal does at its target: a change to the list of those who
// monitor it, nothing the process itself looks at until it exits.
void apply_monitor_change(ProcessSched& ps, const Signal* s) {
    std::lock_guard lock(ps.info_mutex);
    if (s->kind == SignalKind::Monitor) {
        MonitorEntry m{};
        ref_words_of(s->data.term, m.ref);
        m.pid = s->from;
        m.name = s->name;
        ps.monitored_by.push_back(m);
    } else {
        erase_if_first(ps.monitored_by, [&](const MonitorEntry& m) { return same_ref(m.ref, s->ref); });
    }
}

// A Monitor or Demonitor applied at once to a target that is not running and has nothing
// queued (so no earlier signal of the sender's is overtaken), held as post_onto_heap holds a
// receiver. Queued, either would wake the target only for it to take the change in and wait
// again: two of the four signals of a gen_server:call. Not made runnable by it; a signal that
// came meanwhile (PENDING) is seen to by give_back. False, with nothing done, otherwise.
bool apply_monitor_change_idle(Schedulers& scheds, Process* p, const Signal* s) {
    if (!Schedulers::try_borrow(p)) return false;
    bool applied = !p->sched.inbox.has_signals();
    if (applied) apply_monitor_change(p->sched, s);
    scheds.give_back(p, false);
    return applied;
}
}  // namespace

bool deliver_signal(VM& vm, Term to, Signal* s) {
    if (!is_local_pid(to)) [[unlikely]] {
        RemoteSignals* r = vm.remote.load(std::memory_order_acquire);
        return r && r->route(to, s);
    }
    ProcessTable::Receiver p(vm.procs, to);
    if (!p) return false;
    if ((s->kind == SignalKind::Monitor || s->kind == SignalKind::Demonitor) && vm.scheds &&
        apply_monitor_change_idle(*vm.scheds, p.get(), s)) {
        free_signal(s);
        return true;
    }
    bool ok = p->sched.inbox.push(s);
    if (ok && vm.scheds) vm.scheds->activate(p.get());
    return ok;
}

namespace {
// A message straight onto the heap of a receiver that is not running, as erts allocates it
// there when it can take the receiver's main lock: one copy, where the buffer path copies it
// into a buffer and the receiver copies it again. The sender holds the receiver as a borrower
// does (RUNNING, which no scheduler takes from it) while it copies and delivers, so no
// collection can come in between. With nothing queued in its signal queue (so no earlier
// signal of this sender's can be overtaken) and no tracing to report it, the message goes
// into the mailbox at once, as handle_signals would put it there, without a signal; else a
// signal carrying it is queued. Returns -1, with nothing done, when the receiver is running
// or keeps its messages off the heap; else whether the message was delivered.
int post_onto_heap(Schedulers& scheds, Process* p, Term msg, uint8_t seq, uint64_t alias) {
    ProcessSched& ps = p->sched;
    if (p->message_queue_off_heap || !Schedulers::try_borrow(p)) return -1;
    bool delivered = true;
    // (Not under system_profile's runnable_procs, whose `active` event is for a process that
    // was waiting when its scheduler took it: this clears `waiting` before then.)
    if (!ps.inbox.has_signals() && !p->seq_trace && !ps.hibernating && trace_flags_of(p) == 0 &&
        !(p->vm->sysprof.flags.load(std::memory_order_relaxed) & profile_flag::RUNNABLE_PROCS)) {
        // A message to an alias that is no longer active is dropped, as the owner would.
        if (!alias || alias_accepts(p, alias)) {
            p->mailbox_push(copy_to_process(p, msg));
            ps.waiting = false;  // as a message taken in by handle_signals: it runs again
        }
    } else {
        Signal* s = new_signal(SignalKind::Message, NIL);
        s->seq = seq;
        s->alias = alias;
        s->data.term = copy_to_process(p, msg);
        s->on_heap = true;
        // A queue refuses only once its owner has exited, which needs RUNNING (held here);
        // the check keeps to push's contract. The copy is then garbage on the heap.
        delivered = ps.inbox.push(s);
        if (!delivered) free_signal(s);
    }
    // Letting go, queued to run (a signal that came meanwhile, PENDING, is taken in then).
    scheds.give_back_runnable(p);
    return delivered;
}
}  // namespace

bool post_message(VM& vm, Term to, Term msg, uint8_t seq, uint64_t alias) {
    if (!is_local_pid(to)) [[unlikely]] {
        RemoteSignals* r = vm.remote.load(std::memory_order_acquire);
        if (!r || !is_pid(to)) return false;
        r->send(nullptr, to, msg, NIL);
        return true;
    }
    ProcessTable::Receiver p(vm.procs, to);
    if (!p) return false;
    if (vm.scheds) {
        int direct = post_onto_heap(*vm.scheds, p.get(), msg, seq, alias);
        if (direct >= 0) return direct;
    }
    Signal* s = new_signal(SignalKind::Message, NIL);
    s->seq = seq;
    s->alias = alias;
    s->data = copy_to_buffer(msg);
    bool queued = p->sched.inbox.push(s);
    if (queued) {
        vm.scheds->activate(p.get());
    } else {
        free_signal(s);
    }
    return queued;
}

void send_exit_signal(VM& vm, Term from, Term to, Term reason, bool linked, bool normal_kills) {
    if (is_local_port(to)) {
        port_exit_signal(vm, from, to, reason, linked);
        return;
    }
    Signal* s = new_signal(SignalKind::Exit, from);
    s->linked = linked;
    s->normal_kills = normal_kills;
    s->data = copy_to_buffer(reason);
    if (!deliver_signal(vm, to, s)) free_signal(s);
}

namespace {
// The batch vector of the handle_signals running on this thread. Its buffer goes to the
// inbox it is swapped with and the inbox's comes back, so after the first messages neither
// side allocates. A nested call (none is known) gets a vector of its own.
thread_local std::vector<Signal*> tls_batch;
thread_local bool tls_batch_busy = false;

// A message (or DOWN) into the receiver's memory: onto its heap when it fits, except that
// message_queue_data = off_heap keeps messages out of the heap the GC copies.
Term take_message(Process* p, MessageBuffer& data) {
    return p->message_queue_off_heap ? adopt_buffer(p, data) : take_buffer(p, data);
}

}  // namespace

SignalResult handle_signals(VM& vm, Process* p) {
    SignalResult r;
    std::vector<Signal*> own;
    bool nested = tls_batch_busy;
    std::vector<Signal*>& batch = nested ? own : tls_batch;
    batch.clear();
    p->sched.inbox.take(batch);
    if (batch.empty()) {
        p->sched.self_via_inbox = false;
        return r;
    }
    tls_batch_busy = true;
    struct Release {
        bool nested;
        ~Release() { if (!nested) tls_batch_busy = false; }
    } release{nested};
    ProcessSched& ps = p->sched;
    ps.self_via_inbox = false;  // everything it sent itself is in this batch
    for (size_t i = 0; i < batch.size(); ++i) {
        Signal* s = batch[i];
        if (r.exit) {  // already dying: the rest are answered by exit_process via refuse()
            ps.leftover.push_back(s);
            continue;
        }
        switch (s->kind) {
        case SignalKind::Message: {
            if (s->alias && !alias_accepts(p, s->alias)) break;  // an inactive alias: dropped
            Term msg = s->on_heap ? std::exchange(s->data, MessageBuffer{}).term : take_message(p, s->data);
            Term seq_token = am::undefined;
            // A message from a process without a token matters only to a process with seq_trace
            // state (its token is cleared); the common case costs one compare.
            if (s->seq == seq_kind::TOKEN || (s->seq && p->seq_trace)) [[unlikely]]
                msg = seq_trace_arrival(p, s->seq, msg, seq_token);
            p->mailbox_push(msg, seq_token);
            r.new_messages++;
            break;
        }
        case SignalKind::Exit: {
            // An exit signal from a process clears a seq_trace token when received as an
            // EXIT message, as a message from a process without a token does.
            Term reason = adopt_buffer(p, s->data), seq_token = is_pid(s->from) ? NIL : am::undefined;
            if (s->seq) [[unlikely]] reason = seq_trace_arrival(p, s->seq, reason, seq_token);
            if (s->linked) {
                auto it = std::find(ps.links.begin(), ps.links.end(), s->from);
                if (it == ps.links.end()) break;  // unlinked meanwhile: ignore
                {
                    std::lock_guard lock(ps.info_mutex);
                    ps.links.erase(it);
                }
                // erl traces getting_unlinked only for a process the signal does not end.
                if (p->trap_exit || (reason == am::normal && !s->normal_kills))
                    trace_procs(p, "getting_unlinked", s->from);
            }
            if (reason == am::kill && !s->linked) {
                r.exit = true;
                r.reason = am::killed;
            } else if (p->trap_exit) {
                p->mailbox_push(make_tuple(*p, {am::EXIT, s->from, reason}), seq_token);
                r.new_messages++;
            } else if (reason != am::normal || s->normal_kills) {
                r.exit = true;
                r.reason = reason;
            }
            break;
        }
        case SignalKind::Link:
            if (std::find(ps.links.begin(), ps.links.end(), s->from) == ps.links.end()) {
                {
                    std::lock_guard lock(ps.info_mutex);
                    ps.links.push_back(s->from);
                }
                trace_procs(p, "getting_linked", s->from);
            }
            break;
        case SignalKind::Unlink: {
            bool was_linked;
            {
                std::lock_guard lock(ps.info_mutex);
                was_linked = erase_if_first(ps.links, [&](Term t) { return t == s->from; });
            }
            if (was_linked) trace_procs(p, "getting_unlinked", s->from);
            break;
        }
        case SignalKind::Monitor:
        case SignalKind::Demonitor:
            apply_monitor_change(ps, s);
            break;
        case SignalKind::Down: {
            // The monitor is over: demonitor(Ref, [info]) must now say false. A monitor
            // already removed by demonitor/1 delivers nothing, as OTP guarantees.
            auto it = std::find_if(ps.monitors.begin(), ps.monitors.end(),
                                   [&](const MonitorEntry& m) { return same_ref(m.ref, s->ref); });
            if (it == ps.monitors.end()) break;
            std::shared_ptr<MessageBuffer> tag = it->tag;
            {
                std::lock_guard lock(ps.info_mutex);
                ps.monitors.erase(it);
            }
            alias_monitor_ended(p, ref_number_of(s->ref));
            Term down = take_message(p, s->data);
            p->mailbox_push(tag ? retag_down(p, down, *tag) : down);
            r.new_messages++;
            break;
        }
        case SignalKind::Timeout:
            if (ps.timer_set && s->timer_id == ps.timer_id) {
                ps.timer_set = false;
                p->timed_out = true;
                trace_receive(p, am::timeout);  // erl traces a receive's timeout as a message
            }
            break;
        case SignalKind::GroupLeader:
            p->group_leader = s->data.term;  // an immediate pid, or another node's kept for good
            if (s->from == NIL) break;  // from another node: nobody waits for an answer
            reply(vm, p, s, am::true_);
            break;
        case SignalKind::IsAlive:
            reply(vm, p, s, am::true_);
            break;
        case SignalKind::SaveCalls:
            reply(vm, p, s, make_small(p->save_calls.exchange(uint32_t(small_value(s->data.term)))));
            break;
        case SignalKind::SystemTask:
            p->rare().system_tasks.push_back(s);  // run where the registers are known
            r.system_tasks = true;
            continue;
        case SignalKind::Monitoring: {
            MonitorEntry m{};
            std::copy(s->ref, s->ref + 3, m.ref);
            m.pid = s->from;
            if (s->data.term != NIL) {  // monitor/3's {tag, Tag}
                m.tag = std::shared_ptr<MessageBuffer>(new MessageBuffer(std::exchange(s->data, MessageBuffer{})),
                                                       [](MessageBuffer* b) {
                                                           discard_buffer(*b);
                                                           delete b;
                                                       });
            }
            std::lock_guard lock(ps.info_mutex);
            ps.monitors.push_back(m);
            break;
        }
        }
        free_signal(s);
    }
    if (!r.exit) p->sched.inbox.settle();
    return r;
}

bool send_system_task(VM& vm, const Process* from, Term to, SystemTaskKind kind, Term req_id, int prio) {
    Signal* s = new_signal(SignalKind::SystemTask, from->pid);
    s->data = copy_to_buffer(req_id);
    s->task = kind;
    Process* p = vm.procs.lookup(to);
    bool ok = p && p->sched.inbox.push(s);
    if (ok && vm.scheds) vm.scheds->activate_for(p, prio);
    if (p) ProcessTable::release(p);
    if (!ok) free_signal(s);
    return ok;
}

void run_system_tasks(VM& vm, Process* p) {
    if (!has_system_tasks(p)) return;
    auto releases = std::move(p->rare().literal_releases);
    p->rare().literal_releases.clear();
    for (auto& area : releases) release_literal_area(p, p->saved_x.data(), p->arity, std::move(area));
    if (p->gc_requests_held) return;
    std::vector<Signal*> tasks = std::move(p->rare().system_tasks);
    p->rare().system_tasks.clear();
    if (tasks.empty()) return;
    auto wants = [&](SystemTaskKind k) {
        return std::any_of(tasks.begin(), tasks.end(), [k](const Signal* s) { return s->task == k; });
    };
    if (wants(TASK_GC_MAJOR)) garbage_collect_full(p, p->saved_x.data(), p->arity, 0);
    else if (wants(TASK_GC_MINOR)) garbage_collect(p, p->saved_x.data(), p->arity, 0);
    for (Signal* s : tasks) {
        post_message(vm, s->from, make_tuple(*p, {task_tag(s), take_message(p, s->data), am::true_}));
        free_signal(s);
    }
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

namespace {

// Where erts sends its own error reports: the system_logger flag's process, by default the
// one registered as logger; nowhere when the flag is undefined. NIL: no such process.
Term system_logger(VM& vm) {
    Word flag = system_flags(vm).system_logger.load(std::memory_order_relaxed);
    Term t{flag};
    if (flag == 0 || t == atom("logger")) return vm.procs.whereis(&vm.root(), atom("logger"));
    if (t == am::undefined) return am::undefined;
    return t;
}

}  // namespace

bool send_to_system_logger(Process* p, std::string_view level, std::string_view format, Term args) {
    return send_to_system_logger(*p->vm, p->group_leader, p->pid, level, format, args);
}

bool send_to_system_logger(VM& vm, Term gl, Term pid, std::string_view level, std::string_view format, Term args) {
    Term to = system_logger(vm);
    if (to == am::undefined) return true;  // erts drops it
    if (!is_local_pid(to)) return false;
    LiteralArea a;
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                  std::chrono::system_clock::now().time_since_epoch()).count();
    // error_logger's tags: info_msg, warning_msg, error.
    Term el_tag = level == "info" ? atom("info_msg") : level == "warning" ? atom("warning_msg") : atom("error");
    Term el = map_from_pairs(a, {{atom("emulator"), am::true_}, {atom("tag"), el_tag}});
    // As erts: no gl key when there is no group leader (NIL, e.g. the dist carrier's reports):
    // logger's server crashes on `gl => []` (checked on erl 25.2.3).
    Term time = make_integer(a, int64_t(us));
    Term meta = gl == NIL ? map_from_pairs(a, {{atom("error_logger"), el}, {atom("pid"), pid}, {atom("time"), time}})
                          : map_from_pairs(a, {{atom("error_logger"), el},
                                               {atom("gl"), gl},
                                               {atom("pid"), pid},
                                               {atom("time"), time}});
    Term msg = make_tuple(a, {atom("log"), atom(level), make_string(a, format), args, meta});
    if (!post_message(vm, to, msg) && Term{system_flags(vm).system_logger.load()} == to) {
        // As erts: a system logger that is gone hands the job back to kernel's logger.
        system_flags(vm).system_logger.store(atom("logger").raw);
        Term logger = system_logger(vm);
        if (is_local_pid(logger)) post_message(vm, logger, msg);
    }
    return true;
}

namespace {

// Booted OTP: a crash report goes to logger as erts sends it, so logger formats it as on erl.
bool report_to_logger(Process* p, Term value) {
    Term args[2] = {p->pid, value};
    return send_to_system_logger(p, "error", "Error in process ~p with exit value:~n~p~n", make_list_from(*p, args, 2));
}

}  // namespace

Term crash_reason(Process* p) {
    Term reason = p->fvalue;
    if (p->fclass == ErrorClass::Exit) return reason;
    if (p->fclass == ErrorClass::Throw) reason = make_tuple(*p, {am::nocatch, reason});
    Term full = make_tuple(*p, {reason, p->ftrace});
    if (p->vm->otp_boot && report_to_logger(p, full)) return full;
    std::string report = "=ERROR REPORT====\nError in process " + display_string(p->pid) + " with exit value:\n" +
                         display_string(full) + "\n\n";
    if (p->vm->host && p->vm->host->log("error", report)) return full;  // an embedding host's (vm/host_link.hpp)
    std::fflush(p->vm->out);
    std::fwrite(report.data(), 1, report.size(), stderr);
    return full;
}

// The signal queue is closed last, after links and monitors have been told: a request that
// finds it closed (is_process_alive/1, group_leader/2) can answer at once and still be
// ordered after this process's exit signals and DOWN messages, as OTP's answer
// "once termination has completed" is.
void exit_process(VM& vm, Process* p, Term reason) {
    ProcessSched& ps = p->sched;
    if (vm.sysprof.flags.load(std::memory_order_relaxed) & profile_flag::RUNNABLE_PROCS) [[unlikely]]
        profile_process_exit(p);
    ps.state.fetch_or(run_state::EXITED, std::memory_order_acq_rel);
    if (ps.timer_set) vm.timers.cancel_receive_timeout(ps.timer_id);
    vm.timers.cancel_for(p->pid);  // send_after/start_timer to a pid die with it
    // The name goes first, as in erts (erts_do_exit_process): whoever gets this process's
    // EXIT or DOWN may register the name at once (a supervisor restarting a named child).
    Term name;
    {
        std::lock_guard lock(ps.info_mutex);
        name = ps.registered_name;
    }
    uint32_t traced = trace_flags_of(p);
    if (traced & trace_flag::PROCS) trace_emit(p, atom("exit"), {reason});
    if (name != NIL && vm.procs.unregister_name(p->ns, name, p->pid)) trace_procs(p, "unregister", name);
    // erl emits out_exited last, once its exit is complete; here it goes before the links and
    // monitors hear of the death, so a tracer that waits for a DOWN or EXIT has it already
    // (erl's trace_delivered waits for the exit instead).
    if (traced & trace_flag::EXITING) trace_emit(p, atom("out_exited"), {make_small(0)});

    if (vm.scheds) {
        vm.scheds->release_multi_scheduling(p->pid);
        vm.scheds->release_wall_time(p->pid);
    }
    ets_owner_exited(vm, p);  // its tables go to their heirs or are deleted (ets/ets_registry.hpp)
    // Natives watching it first (sockets it owned close, its waits on others end, NIF
    // resources' down callbacks run), before links and monitors hear of the exit: a
    // distribution connection it ends is down before its EXIT signals go.
    fire_native_monitors(p, reason);
    // Then its off-heap objects (binaries, atomics and counters arrays, NIF resources) are let
    // go, before any process hears of the exit: whoever gets its DOWN finds an atomics array
    // only it held gone (binary_to_term of a reference to it gives one that atomics:get
    // refuses), as in erl. Left to the freeing of its heap, which waits for every scheduler
    // to pass a quiescent point (scheduler/quiescence.hpp), such an array was now and then
    // still alive (conformance.atomics_counters). Nothing reads the heap's terms after this
    // but the code below, which copies the reason: it takes a copy of its own first. No
    // borrower looks at a process that exits.
    MessageBuffer own_reason = copy_to_buffer(reason);
    reason = own_reason.term;
    offheap_release_list(p->offheap);
    p->offheap = nullptr;
    for (Term linked : ps.links) {
        if (p->seq_trace) [[unlikely]] seq_link_exit(p, linked, reason);  // with its token
        else send_exit_signal(vm, p->pid, linked, reason, true);
    }
    for (const MonitorEntry& m : ps.monitored_by) {
        Signal* s = new_signal(SignalKind::Down, p->pid);
        std::copy(m.ref, m.ref + 3, s->ref);
        s->data = copy_to_buffer(down_message(p, m, p->pid, reason));
        if (!deliver_signal(vm, m.pid, s)) free_signal(s);
    }
    for (const MonitorEntry& m : ps.monitors) {
        Signal* s = new_signal(SignalKind::Demonitor, p->pid);
        std::copy(m.ref, m.ref + 3, s->ref);
        if (!deliver_signal(vm, m.pid, s)) free_signal(s);
    }
    {
        std::lock_guard lock(ps.info_mutex);
        ps.links.clear();
        ps.monitors.clear();
        ps.monitored_by.clear();
    }
    alias_drop_all(p);
    release_suspensions(vm, p);
    std::vector<Signal*> late;
    ps.inbox.close(late);
    for (Signal* s : ps.leftover) refuse(vm, p, s, reason);
    ps.leftover.clear();
    for (Signal* s : late) refuse(vm, p, s, reason);
    if (has_system_tasks(p)) {
        for (Signal* s : p->rare().system_tasks) refuse(vm, p, s, reason);
        p->rare().system_tasks.clear();
        auto releases = std::move(p->rare().literal_releases);
        p->rare().literal_releases.clear();
        for (auto& area : releases) release_literal_area(p, nullptr, 0, std::move(area));
    }
    bool user = !ps.system;
    // Booted OTP: everything hangs on init; without it the node is gone (erl would go on with
    // nothing to run).
    bool init_died = vm.otp_boot && p->pid == vm.init_pid;
    vm.procs.remove(p);
    if (init_died && vm.scheds) {
        std::fflush(vm.out);
        std::fprintf(stderr, "beamvm: init exited: %s\n", display_string(reason).c_str());
        vm.scheds->halt(1);
    }  // drops the table's reference; the scheduler drops its own after
    discard_buffer(own_reason);
    if (user && vm.scheds) vm.scheds->user_process_ended();
}

}  // namespace beam

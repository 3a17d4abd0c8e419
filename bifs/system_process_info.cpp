// erlang:process_info/1,2. For another process, the caller borrows it (scheduler/
// Schedulers::borrow: it is not running and cannot be scheduled meanwhile), first takes in the
// signals queued for it — so a monitor or link the caller made just before is visible, as OTP
// orders process_info after earlier signals — and then reads it as its owner would.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <span>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_backtrace.hpp"
#include "bifs/system_heap_options.hpp"
#include "bifs/system_process_info.hpp"
#include "scheduler/native_monitors.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/signals.hpp"
#include "scheduler/suspend.hpp"
#include "vm/copy_term.hpp"
#include "vm/gc.hpp"
#include "vm/gc_options.hpp"
#include "vm/interp.hpp"
#include "vm/module.hpp"
#include "vm/interp_support.hpp"
#include "vm/binary.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term mfa_tuple(Process* p, Term m, Term f, uint32_t a) { return make_tuple(*p, {m, f, make_small(a)}); }

Term current_function(Process* p, Process* q) {
    if (q->sched.hibernating) return mfa_tuple(p, am::erlang, atom("hibernate"), 3);
    if (q->pc == nif_resume_code()) {
        // In a NIF call that goes on later or on a dirty scheduler: its step, as erts names it.
        const NifContinuation& c = q->rare_if_any()->nif;
        return mfa_tuple(p, c.module, c.name, c.state == NifContinuation::State::Step ? c.argc : c.origin_arity);
    }
    if (ModuleCode* mc = p->vm->code_at(q->pc))
        if (const FunctionInfo* fi = mc->function_at(q->pc)) return mfa_tuple(p, mc->name, fi->name, fi->arity);
    return mfa_tuple(p, q->sched.initial_m, q->sched.initial_f, q->sched.initial_a);
}

template <class List>
Term monitors_list(Process* p, const List& ms, bool by) {
    std::vector<Term> items;
    for (const MonitorEntry& m : ms) {
        Term kind = is_port(m.pid) ? atom("port") : am::process;  // a port monitor's `pid` is the port
        if (by) items.push_back(m.pid);
        else if (m.name != NIL) items.push_back(make_tuple(*p, {kind, make_tuple(*p, {m.name, p->vm->node.name()})}));
        else items.push_back(make_tuple(*p, {kind, m.pid}));
    }
    return make_list_from(*p, items.data(), items.size());
}

// Newest first, as erl lists them: processes' monitors by their reference's number, the
// natives that show themselves (NIF resources) by their id, a number of the same counter.
Term monitored_by_list(Process* p, Process* q) {
    std::vector<std::pair<uint64_t, Term>> items;
    for (const MonitorEntry& m : q->sched.monitored_by)
        items.emplace_back(m.ref[0] | (m.ref[1] << 18) | (m.ref[2] << 50), m.pid);
    if (auto* natives = q->sched.native_monitors.get())
        for (auto& [id, watcher] : *natives)
            if (Term t = watcher->monitored_by_term(*p); is_value(t)) items.emplace_back(id, t);
    std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<Term> terms;
    for (auto& [key, t] : items) terms.push_back(t);
    return make_list_from(*p, terms.data(), terms.size());
}

Term status_of(Process* p, Process* q) {
    if (p == q) return atom("running");
    // q is borrowed (its RUNNING bit is ours): it is waiting or runnable.
    uint32_t st = q->sched.state.load(std::memory_order_acquire);
    if (st & run_state::EXITED) return atom("exiting");
    if (q->sched.suspend_count.load(std::memory_order_acquire) > 0) return atom("suspended");
    return q->sched.waiting || q->sched.hibernating ? atom("waiting") : atom("runnable");
}

// As OTP counts it: the process structure, its heap blocks and fragments, and its queue.
size_t memory_bytes(const Process* q) {
    return sizeof(Process) + gc::total_heap_words(q) * sizeof(Term) +
           q->mailbox_len.load(std::memory_order_relaxed) * sizeof(Term) + q->saved_x.capacity() * sizeof(Term);
}

// The RefcBins q references: {Address, Bytes, Refc} each (process_info(P, binary)).
Term binaries_list(Process* p, const Process* q) {
    std::vector<Term> items;
    for (Term* b = q->offheap; b; b = reinterpret_cast<Term*>(b[3].raw)) {
        auto* blob = reinterpret_cast<const BinaryBlob*>(b[2].raw);
        items.push_back(make_tuple(*p, {make_small(SWord(reinterpret_cast<uintptr_t>(blob) >> 1)),
                                        make_small(SWord(b[1].raw)),
                                        make_small(SWord(blob->refc.load(std::memory_order_relaxed)))}));
    }
    return make_list_from(*p, items.data(), items.size());
}

// {M, F, A, Location} of where q is: the first frame of its current stack trace.
Term current_location(Process* p, Process* q) {
    Term st = current_stacktrace(p, q, 1);
    if (is_list(st)) return head(st);
    Term mfa = current_function(p, q);
    return make_tuple(*p, {tuple_elem(mfa, 0), tuple_elem(mfa, 1), tuple_elem(mfa, 2), NIL});
}

// NON_VALUE: not an item (badarg).
Term item_value(Process* p, Process* q, Term item) {
    bool self = p == q;
    ProcessSched& qs = q->sched;
    if (item == atom("message_queue_len")) return make_small(SWord(q->mailbox_len.load(std::memory_order_relaxed)));
    if (item == atom("links")) return make_list_from(*p, qs.links.data(), qs.links.size());
    if (item == atom("monitors")) return monitors_list(p, qs.monitors, false);
    if (item == atom("monitored_by")) return monitored_by_list(p, q);
    if (item == atom("registered_name")) return qs.registered_name;
    if (item == atom("trap_exit")) return make_bool(q->trap_exit);
    if (item == atom("priority")) return q->priority;
    if (item == atom("status")) return status_of(p, q);
    if (item == atom("initial_call")) return mfa_tuple(p, qs.initial_m, qs.initial_f, qs.initial_a);
    if (item == atom("group_leader")) return q->group_leader == NIL ? q->pid : q->group_leader;
    if (item == atom("error_handler")) return q->error_handler;
    if (item == atom("suspending")) {
        // {Suspendee, ActiveCount, OutstandingCount}: outstanding while the suspendee still runs.
        std::vector<Term> items;
        for (const SuspendEntry& e : qs.suspending) {
            Term n = make_small(e.count), none = make_small(0);
            bool active = suspension_active(*p->vm, e);
            items.push_back(make_tuple(*p, {e.pid, active ? n : none, active ? none : n}));
        }
        return make_list_from(*p, items.data(), items.size());
    }
    if (item == atom("garbage_collection")) return garbage_collection_info(p, q);
    if (item == atom("min_heap_size")) return make_small(SWord(q->min_heap_size));
    if (item == atom("min_bin_vheap_size")) return make_small(SWord(q->min_bin_vheap_size));
    if (item == atom("max_heap_size")) return max_heap_size_term(p, q->max_heap);
    if (item == atom("fullsweep_after")) return make_small(q->fullsweep_after);
    if (item == atom("message_queue_data")) return message_queue_data_term(q->message_queue_off_heap);
    if (item == atom("catchlevel")) return make_small(SWord(q->catches));
    if (item == atom("parent")) return q->parent;
    if (item == atom("trace")) return make_small(SWord(trace_flags_as_erl(trace_flags_raw(q))));
    if (item == atom("sequential_trace_token")) return self ? seq_current_token(q) : copy_term(seq_current_token(q), *p);
    if (item == atom("magic_ref")) return NIL;                       // no NIF resources
    if (item == atom("binary")) return binaries_list(p, q);
    if (item == atom("garbage_collection_info")) return gc_info_list(*p, q);
    if (item == atom("current_location")) return current_location(p, q);
    if (item == atom("backtrace")) return make_binary(*p, backtrace_text(p, q));
    // The rest lives on q's heap: copied when q is another (borrowed) process.
    auto mine = [&](Term t) { return self ? t : copy_term(t, *p); };
    if (item == atom("current_function")) return current_function(p, q);
    if (item == atom("current_stacktrace")) return current_stacktrace(p, q);
    // A sensitive process shows neither its messages nor its dictionary (as erts).
    if ((item == atom("messages") || item == atom("dictionary")) && is_sensitive(q)) return NIL;
    if (item == atom("messages")) {
        std::vector<Term> msgs;
        for (Term m : q->mailbox) msgs.push_back(mine(m));
        return make_list_from(*p, msgs.data(), msgs.size());
    }
    if (item == atom("dictionary")) {
        // In get/0's order (q->dictionary is newest first): OTP returns both from one table walk,
        // and test_server matches get() against process_info(self(), dictionary).
        std::vector<Term> entries;
        list_elements(q->dictionary, entries);
        std::reverse(entries.begin(), entries.end());
        for (Term& e : entries) e = mine(e);
        return make_list_from(*p, entries.data(), entries.size());
    }
    if (item == atom("heap_size")) return make_small(SWord(q->hend - q->heap));
    if (item == atom("total_heap_size"))  // as erts: both generations and the heap fragments
        return make_small(SWord((q->hend - q->heap) + (q->old_hend - q->old_heap) + q->fragment_words));
    if (item == atom("stack_size")) return make_small(SWord(q->hend - q->stop));
    if (item == atom("reductions")) return make_small(q->reductions + q->slice_reds_used);
    if (item == atom("memory")) return make_small(SWord(memory_bytes(q)));
    return NON_VALUE;
}

// One {Item, Value}; for registered_name of an unregistered process OTP gives [].
Term item_pair(Process* p, Process* q, Term item) {
    if (item == atom("last_calls")) {
        // save_calls is accepted but calls are not recorded: only "off" can be answered.
        if (q->save_calls.load() != 0)
            return p->error(make_tuple(*p, {atom("not_implemented"), atom("last_calls")}));
        return make_tuple(*p, {item, am::false_});
    }
    Term v;
    {
        std::lock_guard lock(q->sched.info_mutex);
        v = item_value(p, q, item);
    }
    if (is_non_value(v)) return p->badarg();
    if (item == atom("registered_name") && v == NIL) return NIL;
    return make_tuple(*p, {item, v});
}

// When the target stays busy (a long native call) past Schedulers::borrow's tries, the call
// continues in `retry` (vm/erlang/beamvm_traps.erl), which gives up the time slice and asks
// again, as erts' process_info waits for the target to answer its request.
struct Retry {
    const char* function;
    uint32_t arity;
};

Term info_items(Process* p, Process* q, Term items);

// A process executing dirty is not borrowed before its NIF returns. erts answers for it
// meanwhile; here the items that read nothing its NIF may change (its heap, its signals)
// are answered at once: NON_VALUE if `items` asks for others.
Term dirty_items(Process* p, Process* q, Term items) {
    auto one = [&](Term item) -> Term {
        Term v = NON_VALUE;
        if (item == atom("status")) v = atom("running");
        else if (item == atom("current_function")) {
            // Its rare part exists: the NIF call it executes lives there (read after the
            // acquire load of sched.dirty that brought us here).
            const auto* r = q->rare_if_any();
            v = mfa_tuple(p, Term{r->dirty_module.load(std::memory_order_relaxed)},
                          Term{r->dirty_name.load(std::memory_order_relaxed)},
                          r->dirty_arity.load(std::memory_order_relaxed));
        }
        else if (item == atom("initial_call") || item == atom("priority") || item == atom("trap_exit"))
            v = item_value(p, q, item);
        return is_value(v) ? make_tuple(*p, {item, v}) : NON_VALUE;
    };
    if (is_atom(items)) return one(items);
    std::vector<Term> out;
    for (Term l = items; is_list(l); l = tail(l)) {
        Term r = is_atom(head(l)) ? one(head(l)) : NON_VALUE;
        if (is_non_value(r)) return r;
        out.push_back(r);
    }
    return make_list_from(*p, out.data(), out.size());
}

Term with_target(Process* p, Term pid, Term (*fn)(Process*, Process*, Term), Term arg, Retry retry) {
    if (!is_pid(pid)) return p->badarg();
    if (pid == p->pid) return fn(p, p, arg);
    VM& vm = *p->vm;
    Process* q = vm.procs.lookup(pid);
    if (!q) return am::undefined;
    if (fn == &info_items && q->sched.dirty.load(std::memory_order_acquire) != dirty_kind::NONE) {
        Term r = dirty_items(p, q, arg);
        if (is_value(r)) {
            ProcessTable::release(q);
            return r;
        }
    }
    if (!vm.scheds->borrow(q)) {
        // Gone once its exit is complete: its links and monitors have been told (exit_process
        // closes the signal queue last), so `undefined` follows its exit signals.
        bool gone = (q->sched.state.load() & run_state::EXITED) && q->sched.inbox.closed();
        ProcessTable::release(q);
        if (gone) return am::undefined;
        Export* again = p->ns->export_entry(atom("beamvm_traps"), atom(retry.function), retry.arity);
        return retry.arity == 1 ? p->trap(again, {pid}) : p->trap(again, {pid, arg});
    }
    SignalResult sr = handle_signals(vm, q);
    if (sr.exit) {
        vm.scheds->exit_borrowed(q, sr.reason);  // it is gone, as it would be once it ran
        ProcessTable::release(q);
        return am::undefined;
    }
    Term r = fn(p, q, arg);
    vm.scheds->give_back(q, sr.new_messages > 0 || q->timed_out || sr.system_tasks);
    ProcessTable::release(q);
    return r;
}

Term info_items(Process* p, Process* q, Term items) {
    if (is_atom(items)) return item_pair(p, q, items);
    std::vector<Term> out;
    for (Term l = items; is_list(l); l = tail(l)) {
        if (!is_atom(head(l))) return p->badarg();
        Term r = item_pair(p, q, head(l));
        if (is_non_value(r)) return r;
        // In a list, an unregistered process's name is {registered_name, []}.
        out.push_back(r == NIL ? make_tuple(*p, {head(l), NIL}) : r);
    }
    return make_list_from(*p, out.data(), out.size());
}

Term info_default(Process* p, Process* q, Term) {
    static const char* items[] = {"current_function", "initial_call", "status", "message_queue_len", "links",
                                  "dictionary", "trap_exit", "error_handler", "priority", "group_leader",
                                  "total_heap_size", "heap_size", "stack_size", "reductions",
                                  "garbage_collection", "suspending"};
    std::vector<Term> out;
    if (q->sched.registered_name != NIL) out.push_back(item_pair(p, q, atom("registered_name")));
    for (const char* it : items) {
        Term r = item_pair(p, q, atom(it));
        if (is_non_value(r)) return r;
        out.push_back(r);
    }
    return make_list_from(*p, out.data(), out.size());
}

// `undefined` for a process that is gone reaches the caller after the signals that process
// sent it before it went (erts answers from the dead process, behind its exit signals): with
// signals waiting, the caller takes them in first (a link's exit may end it there).
Term answer_after_signals(Process* p, Term r) {
    if (r != am::undefined || p->sched.inbox.idle()) return r;
    return p->trap(p->ns->export_entry(atom("beamvm_traps"), atom("after_signals"), 1), {r});
}

Term process_info_1(Process* p, const Term* a) {
    return answer_after_signals(p, with_target(p, a[0], &info_default, NIL, {"process_info", 1}));
}
Term process_info_2(Process* p, const Term* a) {
    // The item argument is checked first, whether or not the process lives (as erts).
    Term items = a[1];
    if (!is_atom(items)) {
        Term l = items;
        for (; is_list(l); l = tail(l))
            if (!is_atom(head(l))) return p->badarg();
        if (!is_nil(l)) return p->badarg();
    }
    return answer_after_signals(p, with_target(p, a[0], &info_items, a[1], {"process_info", 2}));
}

Term display_backtrace(Process* p, Process* q, Term) {
    std::fputs(backtrace_text(p, q).c_str(), stderr);
    return am::true_;
}

// erts_internal:process_display/2, which erlang:process_display/2 turns into its errors.
Term process_display_2(Process* p, const Term* a) {
    if (a[1] != atom("backtrace")) return atom("badopt");  // erts looks at the option first
    if (!is_local_pid(a[0])) return am::badarg;
    Term r = with_target(p, a[0], &display_backtrace, NIL, {"process_display", 2});
    return r == am::undefined ? am::badarg : r;
}

// erts_debug:get_internal_state({link_list | monitor_list, Pid}), which erl_link_SUITE reads:
// Pid's links as erts' #erl_link{type, pid, state, id} and its monitors as
// #erl_monitor{type, dir, ref, pid, extra}, after Pid has taken in its signals.
Term link_kind(Term other) {
    if (is_port(other)) return atom("port");
    return is_local_pid(other) ? am::process : atom("dist_process");
}

// The records of links to `others`; erts gives each link its address as id, here its place.
Term link_records_of(Process* p, std::span<const Term> others) {
    std::vector<Term> items;
    SWord id = 0;
    for (Term other : others)
        items.push_back(make_tuple(*p, {atom("erl_link"), link_kind(other), other, atom("linked"), make_small(++id)}));
    return make_list_from(*p, items.data(), items.size());
}

Term link_records(Process* p, Process* q, Term) { return link_records_of(p, q->sched.links); }

Term monitor_record(Process* p, const MonitorEntry& m, bool target) {
    Term ref = make_ref_from_number(*p, m.ref[0] | (m.ref[1] << 18) | (m.ref[2] << 50));
    return make_tuple(*p, {atom("erl_monitor"), link_kind(m.pid), atom(target ? "target" : "origin"), ref, m.pid,
                           m.name});  // the name monitored through, else []
}

Term monitor_records(Process* p, Process* q, Term) {
    std::vector<Term> items;
    for (const MonitorEntry& m : q->sched.monitors) items.push_back(monitor_record(p, m, false));
    for (const MonitorEntry& m : q->sched.monitored_by) items.push_back(monitor_record(p, m, true));
    return make_list_from(*p, items.data(), items.size());
}

const BifSpec table[] = {
    {"erts_internal", "process_display", 2, &process_display_2},
    {"erlang", "process_info", 1, &process_info_1},
    {"erlang", "process_info", 2, &process_info_2},
};

}  // namespace

std::span<const BifSpec> process_info_bifs() { return table; }

Term link_or_monitor_list(Process* p, Term request) {
    Term what = tuple_elem(request, 0), of = tuple_elem(request, 1);
    if (is_port(of)) {
        if (what != atom("link_list")) return p->badarg();
        std::optional<Term> links = port_info_item(*p->vm, p, of, atom("links"));
        if (!links) return am::undefined;
        std::vector<Term> others;
        for (Term l = *links; is_list(l); l = tail(l)) others.push_back(head(l));
        return link_records_of(p, others);
    }
    if (is_atom(of)) return am::undefined;  // a node's connection: none kept as erts keeps them
    if (!is_local_pid(of)) return p->badarg();
    auto fn = what == atom("link_list") ? &link_records : &monitor_records;
    return with_target(p, of, fn, request, {"internal_state", 2});
}

}  // namespace beam

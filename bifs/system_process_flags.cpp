// erlang:process_flag/2 and erts_internal:process_flag/3 (save_calls of another process).
#include "dist/dist_system.hpp"
#include "bifs/sandbox_checks.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_heap_options.hpp"
#include "bifs/system_processes.hpp"
#include "scheduler/signals.hpp"
#include "vm/gc_options.hpp"
#include "vm/map.hpp"
#include "vm/gc_internal.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

bool valid_save_calls(Term v) { return is_small(v) && small_value(v) >= 0 && small_value(v) <= 10000; }

// process_flag(monitor_nodes, B) and process_flag({monitor_nodes, Opts}, B): as erts, one
// count of subscriptions per option set; the old count is the answer, and false at zero
// stays zero. Opts is a map of connection_id, nodedown_reason, list (booleans) and
// node_type (visible, hidden or all).
Term monitor_nodes_flag(Process* p, Term flag, Term on) {
    if (on != am::true_ && on != am::false_) return p->badarg();
    uint32_t key = 0;  // 0: the plain flag; else 1 + option bits
    if (is_tuple(flag)) {
        Term opts = tuple_elem(flag, 1);
        if (!is_flat_map(opts) && !is_hash_map(opts)) return p->badarg();
        uint32_t bits = 0;
        bool bad = false;
        for (auto [key_term, value] : map_pairs(opts, MapOrder::Iteration)) {
            Term k = key_term, v = value;  // the lambda captures these (clang 14: not bindings)
            auto flag_bit = [&](uint32_t bit) {
                if (v == am::true_) bits |= bit;
                else if (v != am::false_) bad = true;
            };
            if (k == atom("connection_id")) flag_bit(1);
            else if (k == atom("nodedown_reason")) flag_bit(2);
            else if (k == atom("list")) flag_bit(4);
            else if (k == atom("node_type")) {
                if (v == atom("visible")) bits |= 8;
                else if (v == atom("hidden")) bits |= 16;
                else if (v == atom("all")) bits |= 24;
                else bad = true;
            } else bad = true;
        }
        if (bad) return p->badarg();
        key = 1 + bits;
    }
    dist::dist_of(*p->vm).subscribe_nodes(p->pid, key, on == am::true_);
    auto& subscriptions = p->rare().node_monitors;
    for (auto& [k, n] : subscriptions) {
        if (k != key) continue;
        uint32_t old = n;
        if (on == am::true_) ++n;
        else if (n > 0) --n;
        return make_small(old);
    }
    if (on == am::true_) subscriptions.push_back({key, 1});
    return make_small(0);
}

Term process_flag_2(Process* p, const Term* a) {
    if (a[0] == atom("trap_exit")) {
        if (!is_boolean_atom(a[1])) return p->badarg();
        Term old = make_bool(p->trap_exit);
        std::lock_guard lock(p->sched.info_mutex);
        p->trap_exit = a[1] == am::true_;
        return old;
    }
    if (a[0] == atom("priority")) {
        int prio = prio_of(a[1]);
        if (prio < 0) return p->badarg();
        Term old = p->priority;
        p->sched.prio = prio;
        p->priority = a[1];
        return old;
    }
    if (a[0] == atom("save_calls")) {
        // erts raises this one with the cause `none` in its error_info.
        if (!valid_save_calls(a[1])) return badarg_with_cause(p, "process_flag", a, 2, atom("none"));
        return make_small(p->save_calls.exchange(uint32_t(small_value(a[1]))));
    }
    if (a[0] == atom("min_heap_size")) {
        // Takes effect at the next collection (the block is not resized now), as in OTP.
        size_t words;
        if (!parse_heap_option(a[1], gc::DEFAULT_MIN_HEAP, &words)) return p->badarg();
        Term old = make_small(SWord(p->min_heap_size));
        std::lock_guard lock(p->sched.info_mutex);
        p->min_heap_size = words;
        return old;
    }
    if (a[0] == atom("min_bin_vheap_size")) {
        size_t words;
        if (!parse_heap_option(a[1], DEFAULT_MIN_BIN_VHEAP, &words)) return p->badarg();
        Term old = make_small(SWord(p->min_bin_vheap_size));
        std::lock_guard lock(p->sched.info_mutex);
        p->set_min_bin_vheap_size(words);
        return old;
    }
    if (a[0] == atom("max_heap_size")) {
        MaxHeapSize m;
        if (!parse_max_heap_size(a[1], &m) || !max_heap_fits(m, p->min_heap_size)) return p->badarg();
        Term old = max_heap_size_term(p, p->max_heap);
        std::lock_guard lock(p->sched.info_mutex);
        p->max_heap = capped_max_heap(*p->ns, m);  // a sandbox's cap stays (vm/sandbox.hpp)
        return old;
    }
    if (a[0] == atom("fullsweep_after")) {
        uint32_t n;
        if (!parse_fullsweep_after(a[1], &n)) return p->badarg();
        Term old = make_small(p->fullsweep_after);
        std::lock_guard lock(p->sched.info_mutex);
        p->fullsweep_after = n;
        return old;
    }
    if (a[0] == atom("message_queue_data")) {
        bool off_heap;
        if (!parse_message_queue_data(a[1], &off_heap)) return p->badarg();
        Term old = message_queue_data_term(p->message_queue_off_heap);
        std::lock_guard lock(p->sched.info_mutex);
        p->message_queue_off_heap = off_heap;
        return old;
    }
    if (a[0] == atom("sensitive")) {
        if (!is_boolean_atom(a[1])) return p->badarg();
        uint32_t before = a[1] == am::true_
                              ? p->trace_flags.fetch_or(trace_flag::SENSITIVE, std::memory_order_acq_rel)
                              : p->trace_flags.fetch_and(~trace_flag::SENSITIVE, std::memory_order_acq_rel);
        return make_bool(before & trace_flag::SENSITIVE);
    }
    if (a[0] == atom("scheduler")) {
        // Takes effect when the process is next queued (after it yields or waits); OTP
        // moves it at once. 0 unbinds.
        int n = p->vm->scheds ? p->vm->scheds->count() : 1;
        if (!is_small(a[1]) || small_value(a[1]) < 0 || small_value(a[1]) > n) return p->badarg();
        return make_small(p->sched.bound_scheduler.exchange(int(small_value(a[1]))));
    }
    if (a[0] == atom("monitor_nodes") || (is_tuple(a[0]) && tuple_arity(a[0]) == 2 &&
                                          tuple_elem(a[0], 0) == atom("monitor_nodes"))) {
        return monitor_nodes_flag(p, a[0], a[1]);
    }
    if (a[0] == atom("error_handler")) {
        // Undefined calls go to its undefined_function/3 and undefined_lambda/3 (vm/calls.cpp).
        if (!is_atom(a[1])) return p->badarg();
        Term old = p->error_handler;
        std::lock_guard lock(p->sched.info_mutex);
        p->error_handler = a[1];
        return old;
    }
    return p->badarg();
}

// erts_internal:process_flag(Pid, Flag, Value), behind erlang:process_flag/3, which only
// knows save_calls. Answers as erts does: `badtype` when Pid is no live local process; for
// the caller itself the old value or `badarg`; for another process a reference, with the
// answer ({Ref, Old} or {Ref, badarg}) already in the caller's mailbox (erts asks the target;
// save_calls is an atomic any process may set, so beamvm answers at once).
Term erts_process_flag_3(Process* p, const Term* a) {
    bool valid = a[1] == atom("save_calls") && valid_save_calls(a[2]);
    if (a[0] == p->pid) return valid ? make_small(p->save_calls.exchange(uint32_t(small_value(a[2])))) : am::badarg;
    if (!is_local_pid(a[0])) return atom("badtype");
    if (!valid) return am::badarg;
    // Behind every signal this process sent before (an exit among them), as erts' request:
    // the target answers {Ref, Old}, or badarg once it has exited (scheduler/signals.cpp).
    Term ref = make_new_ref(*p);
    if (!send_request(*p->vm, SignalKind::SaveCalls, p, a[0], ref, a[2])) return atom("badtype");
    return ref;
}

const BifSpec table[] = {
    {"erlang", "process_flag", 2, &process_flag_2},
    {"erts_internal", "process_flag", 3, &erts_process_flag_3},
};

}  // namespace

std::span<const BifSpec> process_flag_bifs() { return table; }

}  // namespace beam

// erlang:trace/3, the process half of erlang:trace_info/2, erlang:trace_delivered/1, and
// erl_tracer's two natives (OTP implements them as NIFs). vm/trace.hpp holds the model.
#include "bifs/system_trace.hpp"

#include <mutex>
#include <utility>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/scheduler.hpp"
#include "scheduler/signals.hpp"
#include "vm/map.hpp"
#include "vm/term_refs.hpp"
#include "vm/trace.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

using namespace trace_flag;

struct FlagName {
    const char* name;
    uint32_t bit;
};
// In the reverse of the order erl's trace_info(P, flags) lists them (erl_bif_trace.c conses
// them in this order).
constexpr FlagName flag_names[] = {
    {"timestamp", TIMESTAMP},
    {"strict_monotonic_timestamp", STRICT_MONOTONIC_TIMESTAMP},
    {"monotonic_timestamp", MONOTONIC_TIMESTAMP},
    {"send", SEND},
    {"receive", RECEIVE},
    {"set_on_spawn", SET_ON_SPAWN},
    {"call", CALL},
    {"procs", PROCS},
    {"set_on_first_spawn", SET_ON_FIRST_SPAWN},
    {"set_on_link", SET_ON_LINK},
    {"set_on_first_link", SET_ON_FIRST_LINK},
    {"running", RUNNING},
    {"exiting", EXITING},
    {"garbage_collection", GARBAGE_COLLECTION},
    {"arity", ARITY},
    {"return_to", RETURN_TO},
    {"silent", SILENT},
    {"scheduler_id", SCHEDULER_ID},
    {"ports", PORTS},
    {"running_ports", RUNNING_PORTS},
    {"running_procs", RUNNING_PROCS},
};

// OTP's TRACEE_FLAGS: what `all` sets.
constexpr uint32_t ALL_FLAGS = SEND | RECEIVE | PROCS | PORTS | CALL | ARITY | RETURN_TO | SILENT |
                               RUNNING | EXITING | GARBAGE_COLLECTION | TIMESTAMP | MONOTONIC_TIMESTAMP |
                               STRICT_MONOTONIC_TIMESTAMP | SET_ON_SPAWN | SET_ON_FIRST_SPAWN | SET_ON_LINK |
                               SET_ON_FIRST_LINK | RUNNING_PROCS | RUNNING_PORTS | SCHEDULER_ID;
// Flags that make sense for a port (OTP's ERTS_PORT_TRACEE_FLAGS) and for both kinds.
constexpr uint32_t MODIFIER_FLAGS = SILENT | TIMESTAMP | MONOTONIC_TIMESTAMP | STRICT_MONOTONIC_TIMESTAMP |
                                    SCHEDULER_ID | RECEIVE | SEND;
constexpr uint32_t PORT_FLAGS = MODIFIER_FLAGS | PORTS | RUNNING_PORTS;
constexpr uint32_t PROC_FLAGS = (ALL_FLAGS & ~PORT_FLAGS) | MODIFIER_FLAGS;

uint32_t flag_bit(Term a) {
    if (a == am::all) return ALL_FLAGS;
    for (const FlagName& f : flag_names)
        if (a == atom(f.name)) return f.bit;
    return 0;
}

struct ParsedFlags {
    uint32_t mask = 0;
    bool cpu_timestamp = false;
    TracerRef tracer;
    bool tracer_given = false;
};

// trace/3's flag list; false for anything erl refuses (badarg with cause badopt).
bool parse_flags(Process* p, Term list, ParsedFlags& out) {
    for (; is_list(list); list = tail(list)) {
        Term item = head(list);
        if (is_atom(item) && flag_bit(item)) {
            out.mask |= flag_bit(item);
        } else if (item == atom("cpu_timestamp")) {
            out.cpu_timestamp = true;
        } else if (is_tuple(item) && tuple_arity(item) >= 2 && tuple_elem(item, 0) == atom("tracer")) {
            if (tuple_arity(item) == 2) {
                out.tracer = make_tracer(p, tuple_elem(item, 1), NON_VALUE);
            } else if (tuple_arity(item) == 3) {
                out.tracer = make_tracer(p, tuple_elem(item, 1), tuple_elem(item, 2));
            } else {
                return false;
            }
            if (!out.tracer) return false;
            out.tracer_given = true;
        } else {
            return false;
        }
    }
    return is_nil(list);
}

// erts logs this when trace/3 meets a process traced by another tracer, then raises badarg.
Term one_tracer_per_process(Process* p) {
    Term text = make_string(*p, "** can only have one tracer per process\n");
    send_to_system_logger(p, "error", "~s~n", cons_at(p->alloc(2), text, NIL));
    return p->badarg();
}

// OTP's start_trace on a tracee's flags and tracer: false when it already has another live
// tracer.
bool start_trace_on(VM& vm, uint32_t& flags, TracerRef& current, const TracerRef& tracer, bool on, uint32_t mask) {
    if (tracer && (flags & ALL_FLAGS) && current && !current->same_as(*tracer)) {
        if (tracer_alive(vm, *current)) return false;
    }
    flags = on ? (flags | mask) : (flags & ~mask);
    if ((flags & ALL_FLAGS) == 0) {
        flags = 0;
        current = nullptr;
    } else if (tracer) {
        current = tracer;
    }
    return true;
}

bool start_trace(VM& vm, Process* tracee, const TracerRef& tracer, bool on, uint32_t mask) {
    uint32_t flags = trace_flags_raw(tracee);
    TracerRef current = tracer_of(tracee);
    if (!start_trace_on(vm, flags, current, tracer, on, mask)) return false;
    set_trace(tracee, flags, std::move(current));
    return true;
}

// trace(new... | all | processes | ports, ...): what new processes or ports will get.
void change_defaults(VM& vm, NewProcessTrace& t, const TracerRef& tracer, bool on, uint32_t mask) {
    std::lock_guard lock(vm.trace_mutex);
    uint32_t flags = t.flags.load(std::memory_order_relaxed);
    flags = on ? (flags | mask) : (flags & ~mask);
    if ((flags & ALL_FLAGS) == 0) {
        t.tracer = nullptr;
        flags = 0;
    } else if (tracer) {
        t.tracer = tracer;
    }
    t.flags.store(flags, std::memory_order_release);
}

Term trace_3(Process* p, const Term* a) {
    Term spec = a[0], how = a[1];
    ParsedFlags f;
    if (!parse_flags(p, a[2], f)) {
        p->badarg();
        p->fcause = atom("badopt");
        return NON_VALUE;
    }
    bool on;
    if (how == am::false_) {
        on = false;
    } else if (how == am::true_) {
        on = true;
        if (!f.tracer) f.tracer = make_tracer(p, p->pid, NON_VALUE);
    } else {
        return p->badarg();
    }
    VM& vm = *p->vm;
    if (is_pid(spec)) {
        if (f.cpu_timestamp) return p->badarg();
        Process* q = vm.procs.lookup(spec);
        if (!q) return p->badarg();
        bool ok = start_trace(vm, q, f.tracer, on, f.mask);
        ProcessTable::release(q);
        if (!ok) return one_tracer_per_process(p);
        return make_small(1);
    }
    if (is_port(spec)) {
        if (f.cpu_timestamp) return p->badarg();
        bool ok = true;
        if (!port_trace_state(vm, spec, [&](uint32_t& flags, TracerRef& current) {
                ok = start_trace_on(vm, flags, current, f.tracer, on, f.mask);
            }))
            return p->badarg();
        if (!ok) return one_tracer_per_process(p);
        return make_small(1);
    }
    bool existing = spec == am::all || spec == atom("existing") || spec == atom("processes") ||
                    spec == atom("existing_processes") || spec == atom("ports") || spec == atom("existing_ports");
    bool fresh = spec == am::all || spec == atom("new") || spec == atom("processes") ||
                 spec == atom("new_processes") || spec == atom("ports") || spec == atom("new_ports");
    if (!existing && !fresh) return p->badarg();
    if (f.cpu_timestamp && spec != am::all) return p->badarg();
    bool ports_spec = spec == atom("ports") || spec == atom("existing_ports") || spec == atom("new_ports");
    bool procs_spec = spec == atom("processes") || spec == atom("existing_processes") || spec == atom("new_processes");
    SWord matches = 0;
    if (existing) {
        // As erl_bif_trace.c: the modifier flags alone go to processes, ports or both as the
        // spec says; every flag given goes to each tracee chosen.
        bool procs = (f.mask & (PROC_FLAGS & ~MODIFIER_FLAGS)) && !ports_spec;
        bool ports = (f.mask & (PORT_FLAGS & ~MODIFIER_FLAGS)) && !procs_spec;
        bool mods = false;
        if (f.mask & MODIFIER_FLAGS) {
            if (ports_spec) ports = true;
            else if (procs_spec) procs = true;
            else mods = true;
        }
        if (procs || mods) {
            for (Term pid : vm.procs.pids()) {
                Process* q = vm.procs.lookup(pid);
                if (!q) continue;
                if (!q->sched.system && start_trace(vm, q, f.tracer, on, f.mask)) ++matches;
                ProcessTable::release(q);
            }
        }
        if (ports || mods) {
            each_port_trace_state(vm, [&](uint32_t& flags, TracerRef& current) {
                if (start_trace_on(vm, flags, current, f.tracer, on, f.mask)) ++matches;
            });
        }
    }
    if (fresh) {
        if ((f.mask & PROC_FLAGS) && !ports_spec) change_defaults(vm, vm.new_process_trace, f.tracer, on, f.mask & PROC_FLAGS);
        if ((f.mask & PORT_FLAGS) && !procs_spec) change_defaults(vm, vm.new_port_trace, f.tracer, on, f.mask & PORT_FLAGS);
    }
    if (f.cpu_timestamp) vm.cpu_timestamp.store(on, std::memory_order_relaxed);
    return make_small(matches);
}

Term flags_list(Process* p, uint32_t flags) {
    Term list = NIL;
    // erl lists them last flag first.
    for (const FlagName& f : flag_names)
        if (flags & f.bit) list = cons_at(p->alloc(2), atom(f.name), list);
    return list;
}

// trace_info for a pid or for new / new_processes.
Term process_trace_info(Process* p, uint32_t flags, const TracerRef& tracer, Term item) {
    Term tracer_term = tracer ? tracer->to_term(*p) : NIL;
    if (item == atom("flags")) return make_tuple(*p, {item, flags_list(p, flags)});
    if (item == atom("tracer")) return make_tuple(*p, {item, tracer_term});
    return p->badarg();
}

Term trace_info_2(Process* p, const Term* a) {
    Term what = a[0], item = a[1];
    VM& vm = *p->vm;
    if (is_pid(what)) {
        if (item != atom("flags") && item != atom("tracer")) return p->badarg();
        Process* q = vm.procs.lookup(what);
        if (!q) return am::undefined;  // erl: the bare atom for a process that is gone
        uint32_t flags = trace_flags_raw(q);
        TracerRef tracer = tracer_of(q);
        ProcessTable::release(q);
        if (tracer && !tracer_alive(vm, *tracer)) flags = 0, tracer = nullptr;
        return process_trace_info(p, flags & ALL_FLAGS, tracer, item);
    }
    auto defaults_info = [&](NewProcessTrace& t) {
        std::lock_guard lock(vm.trace_mutex);
        if (t.tracer && !tracer_alive(vm, *t.tracer)) {
            // The tracer is gone: new processes or ports are no longer traced (erl's new_clear).
            t.tracer = nullptr;
            t.flags.store(0, std::memory_order_release);
        }
        return process_trace_info(p, t.flags.load(std::memory_order_relaxed), t.tracer, item);
    };
    if (what == atom("new") || what == atom("new_processes")) return defaults_info(vm.new_process_trace);
    if (what == atom("new_ports")) return defaults_info(vm.new_port_trace);
    if (is_port(what)) {
        // erl looks the port up before the item (a pid's item first).
        uint32_t flags = 0;
        TracerRef tracer;
        if (!port_trace_state(vm, what, [&](uint32_t& fl, TracerRef& t) { flags = fl, tracer = t; }))
            return am::undefined;
        if (item != atom("flags") && item != atom("tracer")) return p->badarg();
        if (tracer && !tracer_alive(vm, *tracer)) flags = 0, tracer = nullptr;
        return process_trace_info(p, flags & ALL_FLAGS, tracer, item);
    }
    return trace_info_function(p, what, item);
}

// trace_delivered(Tracee): beamvm posts every trace message when it is made, so the answer
// can go once the other schedulers have finished the slices they are running (erl waits for
// thread progress: a process being scheduled out there has made its `out` event by then),
// for any pid (alive, dead, traced or not) or `all`. It goes through the caller's signal
// queue, behind the trace messages already there, so a tracer that calls it sees them
// first, as on erl.
Term trace_delivered_1(Process* p, const Term* a) {
    Term what = a[0];
    if (what != am::all && !is_pid(what)) return p->badarg();
    if (p->vm->scheds) p->vm->scheds->await_running_slices();
    Term ref = make_new_ref(*p);
    p->sched.self_via_inbox = true;  // later messages to itself stay behind it
    post_message(*p->vm, p->pid, make_tuple(*p, {atom("trace_delivered"), what, ref}));
    return ref;
}

// erl_tracer:enabled(TraceTag, TracerState, Tracee): `trace` while the tracer (a pid or port)
// exists, `remove` once it is gone.
Term tracer_enabled_3(Process* p, const Term* a) {
    Tracer t;
    t.module = atom("erl_tracer");
    t.state = a[1];
    if (!is_pid(a[1]) && !is_port(a[1])) return p->badarg();
    return tracer_alive(*p->vm, t) ? atom("trace") : atom("remove");
}

// erl_tracer:trace(TraceTag, TracerState, Tracee, TraceTerm, Opts): sends the trace message
// {trace[_ts], Tracee, TraceTag, TraceTerm[, Extra][, Timestamp]} to TracerState.
Term tracer_trace_5(Process* p, const Term* a) {
    Term tag = a[0], dest = a[1], tracee = a[2], data = a[3], opts = a[4];
    if (!is_pid(dest) && !is_port(dest)) return p->badarg();
    if (!is_map(opts)) return p->badarg();
    std::vector<Term> elems{atom("trace"), tracee, tag, data};
    auto opt = [&](const char* key) {
        const Term* v = map_get(opts, atom(key));
        return v ? *v : NON_VALUE;
    };
    Term extra = opt("extra");
    if (is_value(extra)) elems.push_back(extra);
    Term msr = opt("match_spec_result");
    if (is_value(msr) && msr != am::true_) elems.push_back(msr);
    Term ts = opt("timestamp");
    if (is_value(ts)) {
        uint32_t flag = ts == atom("monotonic") ? MONOTONIC_TIMESTAMP
                        : ts == atom("strict_monotonic") ? STRICT_MONOTONIC_TIMESTAMP
                        : ts == atom("cpu_timestamp") ? CPU_TIMESTAMP
                                                      : TIMESTAMP;
        elems[0] = atom("trace_ts");
        elems.push_back(trace_timestamp(*p, flag));
    }
    Term msg = make_tuple_from(*p, elems.data(), elems.size());
    if (is_pid(dest)) {
        if (dest == p->pid) {
            p->mailbox_push(msg);
        } else {
            post_message(*p->vm, dest, msg);
        }
    } else {
        port_send(*p->vm, p, dest, make_tuple(*p, {p->pid, make_tuple(*p, {atom("command"), msg})}));
    }
    return am::ok;
}

constexpr BifSpec table[] = {
    {"erlang", "trace", 3, &trace_3},
    {"erlang", "trace_info", 2, &trace_info_2},
    {"erlang", "trace_delivered", 1, &trace_delivered_1},
    {"erl_tracer", "enabled", 3, &tracer_enabled_3},
    {"erl_tracer", "trace", 5, &tracer_trace_5},
};

}  // namespace

std::span<const BifSpec> trace_bifs() { return table; }

// The match-spec actions enable_trace/1,2, disable_trace/1,2 and trace/2,3 of a traced call
// (vm/trace_calls.cpp), run by p. The tracer given is p's own unless trace/2,3 names one.
Term trace_flags_action(Process* p, std::string_view name, const std::vector<Term>& args) {
    VM& vm = *p->vm;
    bool with_pid = (name == "trace") ? args.size() == 3 : args.size() == 2;
    Term target = with_pid ? args[0] : p->pid;
    if (is_atom(target)) target = vm.procs.whereis(p->ns, target);  // a registered name
    Process* q = target == p->pid ? p : (is_pid(target) ? vm.procs.lookup(target) : nullptr);
    if (!q) return NON_VALUE;
    auto done = [&](Term r) {
        if (q != p) ProcessTable::release(q);
        return r;
    };
    TracerRef own = tracer_of(p);
    if (name != "trace") {
        uint32_t bit = flag_bit(args[with_pid ? 1 : 0]) & PROC_FLAGS;
        if (!bit) return done(NON_VALUE);
        if (name == "enable_trace" && !own) return done(am::true_);
        start_trace(vm, q, name == "enable_trace" ? own : nullptr, name == "enable_trace", bit);
        return done(am::true_);
    }
    // As erts (set_tracee_flags): the tracer is the one named in the lists (the enable
    // list's wins), else the tracer of the process running the specification; without one
    // the target loses every flag. The answer says whether flags or tracer changed.
    ParsedFlags off, on;
    if (!parse_flags(p, args[with_pid ? 1 : 0], off) || !parse_flags(p, args[with_pid ? 2 : 1], on) ||
        off.cpu_timestamp || on.cpu_timestamp)
        return done(NON_VALUE);
    TracerRef tracer = on.tracer ? on.tracer : off.tracer ? off.tracer : own;
    if (tracer && !tracer_alive(vm, *tracer)) return done(am::false_);
    uint32_t before = trace_flags_raw(q);
    TracerRef before_tracer = tracer_of(q);
    uint32_t flags = tracer ? ((before & ~(off.mask & PROC_FLAGS)) | (on.mask & PROC_FLAGS)) : 0;
    if (!flags) tracer = nullptr;
    bool same_tracer = (!tracer && !before_tracer) || (tracer && before_tracer && tracer->same_as(*before_tracer));
    set_trace(q, flags, tracer);
    return done(make_bool(!same_tracer || flags != before));
}

}  // namespace beam

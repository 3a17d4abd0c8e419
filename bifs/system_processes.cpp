// Process BIFs: spawning, links, monitors, exit signals, registered names, sending.
// Mirrors OTP 25's erlang module. Everything another process must learn travels as a signal
// (scheduler/signals.cpp); a BIF only changes its own process's tables directly.
#include <algorithm>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_heap_options.hpp"
#include "bifs/system_processes.hpp"
#include "scheduler/signals.hpp"
#include "vm/gc_options.hpp"
#include "vm/gc_internal.hpp"
#include "vm/interp_support.hpp"
#include "vm/module.hpp"
#include "vm/term_order.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

struct SpawnOpts {
    bool link = false;
    bool monitor = false;
    int prio = 2;
    size_t min_heap = gc::DEFAULT_MIN_HEAP;  // rounded as OTP does
    MaxHeapSize max_heap;
    uint32_t fullsweep_after = DEFAULT_FULLSWEEP_AFTER;
    bool message_queue_off_heap = false;
    Namespace* ns = nullptr;  // where the child runs: the parent's unless beamvm:namespace_spawn
};

int prio_of(Term t) {
    if (t == atom("max")) return 0;
    if (t == atom("high")) return 1;
    if (t == am::normal) return 2;
    if (t == atom("low")) return 3;
    return -1;
}
Term prio_atom(int prio) {
    static const char* names[] = {"max", "high", "normal", "low"};
    return atom(names[prio]);
}

bool parse_spawn_opts(Term opts, SpawnOpts* o) {
    for (; is_list(opts); opts = tail(opts)) {
        Term opt = head(opts);
        if (opt == atom("link")) o->link = true;
        else if (opt == atom("monitor")) o->monitor = true;
        else if (is_tuple(opt) && tuple_arity(opt) == 2) {
            Term k = tuple_elem(opt, 0), v = tuple_elem(opt, 1);
            if (k == atom("priority")) {
                if ((o->prio = prio_of(v)) < 0) return false;
            } else if (k == atom("min_heap_size")) {
                if (!parse_heap_option(v, gc::DEFAULT_MIN_HEAP, &o->min_heap)) return false;
            } else if (k == atom("min_bin_vheap_size")) {
                // Checked, then dropped: OTP 25's spawn_opt leaves the process at the default
                // (process_info reports 46422 whatever was asked); process_flag does set it.
                size_t ignored;
                if (!parse_heap_option(v, DEFAULT_MIN_BIN_VHEAP, &ignored)) return false;
            } else if (k == atom("max_heap_size")) {
                if (!parse_max_heap_size(v, &o->max_heap)) return false;
            } else if (k == atom("fullsweep_after")) {
                if (!parse_fullsweep_after(v, &o->fullsweep_after)) return false;
            } else if (k == atom("message_queue_data")) {
                if (!parse_message_queue_data(v, &o->message_queue_off_heap)) return false;
            } else if (k == atom("monitor")) {
                // {monitor, MonitorOpts}: a monitor; its options (aliases, tags) are not
                // supported yet, so only an empty option list is accepted.
                if (!is_nil(v)) return false;
                o->monitor = true;
            } else {
                return false;
            }
        } else {
            return false;
        }
    }
    // Checked once all options are read: OTP refuses the pair in either order.
    return is_nil(opts) && max_heap_fits(o->max_heap, o->min_heap);
}

void add_link_local(Process* p, Term other) {
    auto& links = p->sched.links;
    if (std::find(links.begin(), links.end(), other) != links.end()) return;
    std::lock_guard lock(p->sched.info_mutex);
    links.push_back(other);
}

// Common tail of every spawn BIF: `setup` fills the new process's initial call.
template <class Setup>
Term do_spawn(Process* p, const SpawnOpts& o, Setup setup) {
    VM& vm = *p->vm;
    Process* child = vm.new_process(o.ns ? *o.ns : *p->ns, o.min_heap, p->group_leader == NIL ? p->pid : p->group_leader);
    setup(child);
    child->max_heap = o.max_heap;
    child->fullsweep_after = o.fullsweep_after;
    child->message_queue_off_heap = o.message_queue_off_heap;
    child->sched.prio = o.prio;
    child->priority = prio_atom(o.prio);
    child->sched.home = Schedulers::current_index() < 0 ? 0 : Schedulers::current_index();
    Term result = child->pid;
    // The child has not run yet, so both sides of a link or monitor are set up here at once.
    if (o.link) {
        add_link_local(p, child->pid);
        child->sched.links.push_back(p->pid);
    }
    if (o.monitor) {
        uint64_t n = next_ref_number();
        Term ref = make_ref_from_number(*p, n);
        MonitorEntry m{};
        const Term* w = boxed_ptr(ref);
        m.ref[0] = w[1].raw, m.ref[1] = w[2].raw, m.ref[2] = w[3].raw;
        m.pid = child->pid;
        {
            std::lock_guard lock(p->sched.info_mutex);
            p->sched.monitors.push_back(m);
        }
        m.pid = p->pid;
        child->sched.monitored_by.push_back(m);
        result = make_tuple(*p, {child->pid, ref});
    }
    vm.start_process(child);
    ProcessTable::release(child);
    return result;
}

bool is_local_node(Term node) { return node == am::nonode_at_nohost; }

Term spawn_fun(Process* p, Term fun, const SpawnOpts& o) {
    if (!is_any_fun(fun) || !is_function_of_arity(fun, make_small(0))) return p->badarg();
    return do_spawn(p, o, [&](Process* c) { p->vm->setup_fun_call(c, fun); });
}

Term spawn_mfa(Process* p, Term m, Term f, Term args, const SpawnOpts& o) {
    if (!is_atom(m) || !is_atom(f) || !proper_list_length(args)) return p->badarg();
    return do_spawn(p, o, [&](Process* c) { p->vm->setup_call(c, m, f, args); });
}

}  // namespace

Term spawn_in_namespace(Process* p, Namespace& ns, Term m, Term f, Term args, bool link) {
    return spawn_mfa(p, m, f, args, {.link = link, .ns = &ns});
}

namespace {

Term spawn_1(Process* p, const Term* a) { return spawn_fun(p, a[0], {}); }
Term spawn_3(Process* p, const Term* a) { return spawn_mfa(p, a[0], a[1], a[2], {}); }
Term spawn_2(Process* p, const Term* a) { return is_local_node(a[0]) ? spawn_fun(p, a[1], {}) : p->badarg(); }
Term spawn_4(Process* p, const Term* a) {
    return is_local_node(a[0]) ? spawn_mfa(p, a[1], a[2], a[3], {}) : p->badarg();
}
Term spawn_link_1(Process* p, const Term* a) { return spawn_fun(p, a[0], {.link = true}); }
Term spawn_link_3(Process* p, const Term* a) { return spawn_mfa(p, a[0], a[1], a[2], {.link = true}); }
Term spawn_monitor_1(Process* p, const Term* a) { return spawn_fun(p, a[0], {.monitor = true}); }
Term spawn_monitor_3(Process* p, const Term* a) { return spawn_mfa(p, a[0], a[1], a[2], {.monitor = true}); }
Term spawn_opt_2(Process* p, const Term* a) {
    SpawnOpts o;
    if (!parse_spawn_opts(a[1], &o)) return p->badarg();
    return spawn_fun(p, a[0], o);
}
Term spawn_opt_4(Process* p, const Term* a) {
    SpawnOpts o;
    if (!parse_spawn_opts(a[3], &o)) return p->badarg();
    return spawn_mfa(p, a[0], a[1], a[2], o);
}

Term link_1(Process* p, const Term* a) {
    Term other = a[0];
    if (!is_pid(other)) return p->badarg();
    if (other == p->pid) return am::true_;
    auto* s = new Signal{SignalKind::Link};
    s->from = p->pid;
    if (!deliver_signal(*p->vm, other, s)) {
        delete s;
        // As OTP: a caller that does not trap exits gets a noproc error; one that traps gets
        // {'EXIT', Pid, noproc} through the link, which then is gone.
        if (!p->trap_exit) return p->error(am::noproc);
        add_link_local(p, other);
        send_exit_signal(*p->vm, other, p->pid, am::noproc, true);
        return am::true_;
    }
    add_link_local(p, other);
    return am::true_;
}

Term unlink_1(Process* p, const Term* a) {
    Term other = a[0];
    if (!is_pid(other)) return p->badarg();
    auto& links = p->sched.links;
    auto it = std::find(links.begin(), links.end(), other);
    if (it != links.end()) {
        {
            std::lock_guard lock(p->sched.info_mutex);
            links.erase(it);
        }
        auto* s = new Signal{SignalKind::Unlink};
        s->from = p->pid;
        if (!deliver_signal(*p->vm, other, s)) delete s;
    }
    return am::true_;
}

Term monitor_2(Process* p, const Term* a) {
    if (a[0] != am::process) return p->badarg();
    Term target = a[1], name = NIL;
    if (is_tuple(target) && tuple_arity(target) == 2) {
        if (!is_atom(tuple_elem(target, 0)) || !is_atom(tuple_elem(target, 1))) return p->badarg();
        name = tuple_elem(target, 0);
        target = name;
    }
    if (is_atom(target)) {
        name = target;
        target = p->vm->procs.whereis(p->ns, name);
    } else if (!is_pid(target)) {
        return p->badarg();
    }
    uint64_t n = next_ref_number();
    Term ref = make_ref_from_number(*p, n);
    MonitorEntry m{};
    const Term* w = boxed_ptr(ref);
    m.ref[0] = w[1].raw, m.ref[1] = w[2].raw, m.ref[2] = w[3].raw;
    m.pid = target;
    m.name = name;
    Term who = name != NIL ? make_tuple(*p, {name, am::nonode_at_nohost}) : target;
    if (target == am::undefined || target == p->pid) {
        if (target == p->pid) return ref;  // monitoring oneself never fires
        p->mailbox_push(make_tuple(*p, {am::DOWN, ref, am::process, who, am::noproc}));
        return ref;
    }
    auto* s = new Signal{SignalKind::Monitor};
    s->from = p->pid;
    s->name = name;
    s->data = copy_to_buffer(ref);
    if (!deliver_signal(*p->vm, target, s)) {
        discard_buffer(s->data);
        delete s;
        p->mailbox_push(make_tuple(*p, {am::DOWN, ref, am::process, who, am::noproc}));
        return ref;
    }
    std::lock_guard lock(p->sched.info_mutex);
    p->sched.monitors.push_back(m);
    return ref;
}

// Removes {'DOWN', Ref, ...} from the mailbox; true if there was one.
bool flush_down(Process* p, Term ref) {
    for (size_t i = 0; i < p->mailbox.size(); ++i) {
        Term m = p->mailbox[i];
        if (is_tuple(m) && tuple_arity(m) == 5 && tuple_elem(m, 0) == am::DOWN && eq_exact(tuple_elem(m, 1), ref)) {
            p->mailbox_erase(i);
            if (p->mailbox_save > i) p->mailbox_save--;
            return true;
        }
    }
    return false;
}

Term demonitor(Process* p, Term ref, Term opts) {
    if (!is_boxed_sub(ref, Sub::Ref)) return p->badarg();
    bool flush = false, info = false;
    for (; is_list(opts); opts = tail(opts)) {
        if (head(opts) == atom("flush")) flush = true;
        else if (head(opts) == atom("info")) info = true;
        else return p->badarg();
    }
    if (!is_nil(opts)) return p->badarg();
    const Term* w = boxed_ptr(ref);
    auto& mons = p->sched.monitors;
    auto it = std::find_if(mons.begin(), mons.end(), [&](const MonitorEntry& m) {
        return m.ref[0] == w[1].raw && m.ref[1] == w[2].raw && m.ref[2] == w[3].raw;
    });
    bool found = it != mons.end();
    if (found) {
        Term target = it->pid;
        {
            std::lock_guard lock(p->sched.info_mutex);
            mons.erase(it);
        }
        auto* s = new Signal{SignalKind::Demonitor};
        s->from = p->pid;
        s->data = copy_to_buffer(ref);
        if (!deliver_signal(*p->vm, target, s)) {
            discard_buffer(s->data);
            delete s;
        }
    }
    // An active monitor's DOWN is dropped on arrival now (scheduler/signals.cpp), so only a
    // monitor that had already fired can have left one in the mailbox: no scan otherwise,
    // which keeps a call with a long message queue from being linear in it.
    if (flush && !found) flush_down(p, ref);
    return info ? make_bool(found) : am::true_;
}

Term demonitor_1(Process* p, const Term* a) { return demonitor(p, a[0], NIL); }
Term demonitor_2(Process* p, const Term* a) { return demonitor(p, a[0], a[1]); }

Term exit_2(Process* p, const Term* a) {
    Term to = a[0];
    if (!is_pid(to)) return p->badarg();
    if (to == p->pid) {
        // Handled like any exit signal, but at once: a kill or a non-normal reason ends the
        // caller now; trapping turns it into a message.
        if (a[1] == am::kill) return p->raise(ErrorClass::Exit, am::killed);
        if (p->trap_exit) {
            p->mailbox_push(make_tuple(*p, {am::EXIT, p->pid, a[1]}));
            return am::true_;
        }
        return p->raise(ErrorClass::Exit, a[1]);
    }
    send_exit_signal(*p->vm, p->pid, to, a[1], false);
    return am::true_;
}

Term register_2(Process* p, const Term* a) {
    Term name = a[0], pid = a[1];
    if (!is_atom(name) || name == am::undefined || !is_local_pid(pid)) return p->badarg();
    Process* target = pid == p->pid ? p : p->vm->procs.lookup(pid);
    if (!target) return p->badarg();
    // A name lives in the namespace of the process it names, and a namespace names only its
    // own processes (docs/namespaces.md).
    bool ok = target->ns == p->ns && p->vm->procs.register_name(name, target);
    if (target != p) ProcessTable::release(target);
    return ok ? am::true_ : p->badarg();
}

Term unregister_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return p->vm->procs.unregister_name(p->ns, a[0]) ? am::true_ : p->badarg();
}

Term whereis_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return p->vm->procs.whereis(p->ns, a[0]);
}

Term registered_0(Process* p, const Term*) {
    auto names = p->vm->procs.registered(p->ns);
    return make_list_from(*p, names.data(), names.size());
}

Term processes_0(Process* p, const Term*) {
    auto pids = p->vm->procs.pids();
    return make_list_from(*p, pids.data(), pids.size());
}

// As OTP: the answer must take every signal this process sent to Pid before into account
// (unlink then exit(Pid, kill) then is_process_alive(Pid) is false). When Pid has signals
// not yet acted on, or is exiting, the question travels as a signal behind them and
// erts_internal:is_process_alive/1 (OTP's Erlang code) waits for the answer.
Term is_process_alive_1(Process* p, const Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    if (a[0] == p->pid) return am::true_;
    Process* q = p->vm->procs.lookup(a[0]);
    if (!q) return am::false_;
    bool settled = !(q->sched.state.load(std::memory_order_acquire) & run_state::EXITED) && q->sched.inbox.idle();
    ProcessTable::release(q);
    if (settled) return am::true_;
    return p->trap(p->ns->export_entry(atom("erts_internal"), atom("is_process_alive"), 1), {a[0]});
}

// erts_internal:is_process_alive(Pid, Ref): Pid answers {Ref, Alive} to the caller.
Term erts_is_process_alive_2(Process* p, const Term* a) {
    if (!is_local_pid(a[0]) || !is_boxed_sub(a[1], Sub::Ref)) return p->badarg();
    if (!send_request(*p->vm, SignalKind::IsAlive, p, a[0], a[1], NIL))
        post_message(*p->vm, p->pid, make_tuple(*p, {a[1], am::false_}));
    return am::ok;
}

Term send_2(Process* p, const Term* a) { return send_message(p, a[0], a[1]); }
Term send_3(Process* p, const Term* a) {
    Term opts = a[2];
    for (; is_list(opts); opts = tail(opts))
        if (head(opts) != atom("noconnect") && head(opts) != atom("nosuspend")) return p->badarg();
    if (!is_nil(opts)) return p->badarg();
    Term r = send_message(p, a[0], a[1]);
    return is_value(r) ? am::ok : r;
}

// erts_internal:group_leader(GL, Pid), behind OTP's erlang:group_leader/2: true when set at
// once, false when erlang.beam must ask Pid with group_leader/3 and wait for the answer,
// badarg for a process that does not exist. Another process's group leader is only ever
// changed by that process (it is a GC root, read without locks): always through a signal.
Term erts_group_leader_2(Process* p, const Term* a) {
    if (!is_pid(a[0])) return am::badarg;
    if (!is_local_pid(a[1])) return p->badarg();
    if (a[1] == p->pid) {
        p->group_leader = a[0];
        return am::true_;
    }
    if (!is_local_pid(a[0])) return am::badarg;  // the signal carries the pid as an immediate
    Process* q = p->vm->procs.lookup(a[1]);
    if (!q) return am::badarg;
    bool exited = q->sched.state.load(std::memory_order_acquire) & run_state::EXITED;
    ProcessTable::release(q);
    return exited ? am::badarg : am::false_;
}

// erts_internal:group_leader(GL, Pid, Ref): Pid sets its group leader and answers
// {Ref, true}, or {Ref, badarg} if it has exited.
Term erts_group_leader_3(Process* p, const Term* a) {
    if (!is_local_pid(a[0]) || !is_local_pid(a[1]) || !is_boxed_sub(a[2], Sub::Ref)) return p->badarg();
    if (!send_request(*p->vm, SignalKind::GroupLeader, p, a[1], a[2], a[0]))
        post_message(*p->vm, p->pid, make_tuple(*p, {a[2], am::badarg}));
    return am::ok;
}

Term yield_0(Process* p, const Term*) { return am::true_; }

const BifSpec table[] = {
    {"erlang", "spawn", 1, &spawn_1},
    {"erlang", "spawn", 2, &spawn_2},
    {"erlang", "spawn", 3, &spawn_3},
    {"erlang", "spawn", 4, &spawn_4},
    {"erlang", "spawn_link", 1, &spawn_link_1},
    {"erlang", "spawn_link", 3, &spawn_link_3},
    {"erlang", "spawn_monitor", 1, &spawn_monitor_1},
    {"erlang", "spawn_monitor", 3, &spawn_monitor_3},
    {"erlang", "spawn_opt", 2, &spawn_opt_2},
    {"erlang", "spawn_opt", 4, &spawn_opt_4},
    {"erlang", "link", 1, &link_1},
    {"erlang", "unlink", 1, &unlink_1},
    {"erlang", "monitor", 2, &monitor_2},
    {"erlang", "demonitor", 1, &demonitor_1},
    {"erlang", "demonitor", 2, &demonitor_2},
    {"erlang", "exit", 2, &exit_2},
    {"erlang", "register", 2, &register_2},
    {"erlang", "unregister", 1, &unregister_1},
    {"erlang", "whereis", 1, &whereis_1},
    {"erlang", "registered", 0, &registered_0},
    {"erlang", "processes", 0, &processes_0},
    {"erlang", "is_process_alive", 1, &is_process_alive_1},
    {"erlang", "send", 2, &send_2},
    {"erlang", "send", 3, &send_3},
    {"erts_internal", "group_leader", 2, &erts_group_leader_2},
    {"erts_internal", "group_leader", 3, &erts_group_leader_3},
    {"erts_internal", "is_process_alive", 2, &erts_is_process_alive_2},
    {"erlang", "yield", 0, &yield_0},
};

}  // namespace

std::span<const BifSpec> process_bifs() { return table; }

}  // namespace beam

// Process BIFs: spawning, links, exit signals, registered names, sending. Monitors and
// aliases: bifs/system_monitors.cpp; spawn_request: bifs/system_spawn_request.cpp.
// Mirrors OTP 25's erlang module. Everything another process must learn travels as a signal
// (scheduler/signals.cpp); a BIF only changes its own process's tables directly.
#include <algorithm>

#include "dist/dist_system.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/sandbox_checks.hpp"
#include "vm/trace.hpp"
#include "bifs/system_heap_options.hpp"
#include "bifs/system_processes.hpp"
#include "bifs/system_spawn.hpp"
#include "scheduler/aliases.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/signals.hpp"
#include "vm/gc_options.hpp"
#include "vm/gc_internal.hpp"
#include "vm/system_flags.hpp"
#include "vm/interp_support.hpp"
#include "vm/module.hpp"
#include "vm/term_order.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term prio_atom(int prio) {
    static const char* names[] = {"max", "high", "normal", "low"};
    return atom(names[prio]);
}

}  // namespace

int prio_of(Term t) {
    if (t == atom("max")) return 0;
    if (t == atom("high")) return 1;
    if (t == am::normal) return 2;
    if (t == atom("low")) return 3;
    return -1;
}

int parse_spawn_opts(Term opts, SpawnOpts* o, bool request) {
    int result = 0;
    for (; is_list(opts); opts = tail(opts)) {
        Term opt = head(opts);
        bool ok = true;
        if (opt == atom("link")) o->link = true;
        else if (opt == atom("monitor")) {
            o->monitor = true;
            o->monitor_opts = {};
        } else if (is_tuple(opt) && tuple_arity(opt) == 2) {
            Term k = tuple_elem(opt, 0), v = tuple_elem(opt, 1);
            if (k == atom("priority")) {
                int prio = prio_of(v);
                ok = prio >= 0;
                if (ok) o->prio = prio;
            } else if (k == atom("min_heap_size")) {
                ok = parse_heap_option(v, gc::DEFAULT_MIN_HEAP, &o->min_heap);
            } else if (k == atom("min_bin_vheap_size")) {
                // Checked, then dropped: OTP 25's spawn_opt leaves the process at the default
                // (process_info reports 46422 whatever was asked); process_flag does set it.
                size_t ignored;
                ok = parse_heap_option(v, DEFAULT_MIN_BIN_VHEAP, &ignored);
            } else if (k == atom("max_heap_size")) {
                ok = parse_max_heap_size(v, &o->max_heap);
            } else if (k == atom("fullsweep_after")) {
                ok = parse_fullsweep_after(v, &o->fullsweep_after);
            } else if (k == atom("message_queue_data")) {
                ok = parse_message_queue_data(v, &o->message_queue_off_heap);
            } else if (k == atom("scheduler")) {
                // Checked against the number of schedulers when the process is made.
                ok = is_small(v) && small_value(v) >= 0 && small_value(v) <= 1024;
                if (ok) o->scheduler = int(small_value(v));
            } else if (k == atom("monitor")) {
                MonitorOpts mo;
                ok = parse_monitor_opts(v, &mo);
                if (ok) o->monitor = true, o->monitor_opts = mo;
            } else if (request && k == atom("reply_tag")) {
                o->reply_tag = v;
            } else if (request && k == atom("reply")) {
                if (v == atom("yes")) o->reply_success = true, o->reply_error = true;
                else if (v == atom("no")) o->reply_success = false, o->reply_error = false;
                else if (v == atom("error_only")) o->reply_success = false, o->reply_error = true;
                else if (v == atom("success_only")) o->reply_success = true, o->reply_error = false;
                else ok = false;
            } else {
                ok = false;
            }
        } else {
            ok = false;
        }
        if (!ok) result = -1;  // OTP reads on: later options still count (reply tag)
    }
    if (!is_nil(opts)) return 1;
    // Checked once all options are read: OTP refuses the pair in either order.
    if (!max_heap_fits(o->max_heap, o->min_heap)) return -1;
    return result;
}

namespace {

// {M, F, Args} of a child that has not run yet, for the spawn trace messages (the arguments
// are on the child's heap; the trace message copies them at once).
Term initial_call_term(Process* p, Process* child) {
    const std::vector<Term>& x = child->saved_x;
    if (x.size() == 3) return make_tuple(*p, {x[0], x[1], x[2]});
    Term args = cons_at(p->alloc(2), x[0], cons_at(p->alloc(2), NIL, NIL));
    return make_tuple(*p, {am::erlang, atom("apply"), args});
}

void add_link_local(Process* p, Term other) {
    auto& links = p->sched.links;
    if (std::find(links.begin(), links.end(), other) != links.end()) return;
    std::lock_guard lock(p->sched.info_mutex);
    links.push_back(other);
}

// A bad option list, or a bad option in it: badarg with cause badopt, as erl (spawn_opt,
// send/3).
Term bad_options(Process* p) {
    p->badarg();
    p->fcause = atom("badopt");
    return NON_VALUE;
}

// A spawn by a token holder: the child inherits the token (vm/seq_trace.hpp). The request as
// spawn_request made it, or with the options erl's spawn BIFs pass on (link, monitor).
void seq_spawn(Process* p, Process* child, const SpawnOpts& o, Term req_ref) {
    Term tag = is_value(o.reply_tag) ? o.reply_tag : atom("spawn_reply");
    if (is_value(o.request_call)) {
        // As erl starts it: erts_internal:spawn_init({M, F, Args}).
        const Term& c = o.request_call;
        Term mfa = make_tuple(*p, {tuple_elem(c, 0), tuple_elem(c, 1), tuple_elem(c, 2)});
        Term initial = make_tuple(*p, {atom("erts_internal"), atom("spawn_init"), make_list_from(*p, &mfa, 1)});
        seq_trace_spawn(p, child, initial, tuple_elem(c, 3), tag, req_ref, true);
        return;
    }
    Term opts = NIL;
    if (o.monitor) {
        Term monitor = atom("monitor");
        opts = make_list_from(*p, &monitor, 1, opts);
    }
    if (o.link) {
        Term link = atom("link");
        opts = make_list_from(*p, &link, 1, opts);
    }
    bool async = is_value(req_ref);
    Term ref = async ? req_ref : make_new_ref(*p);
    seq_trace_spawn(p, child, initial_call_term(p, child), opts, tag, ref, async);
}

// Common tail of every spawn BIF: `setup` fills the new process's initial call.
template <class Setup>
Term do_spawn(Process* p, const SpawnOpts& o, Setup setup, Term req_ref = NON_VALUE) {
    VM& vm = *p->vm;
    if (o.scheduler > (vm.scheds ? vm.scheds->count() : 1)) return bad_options(p);  // {scheduler, N} past the last
    // erl's +P: a full process table makes spawn raise system_limit (the count is relaxed, so
    // racing spawns may pass it by a few, as erts' table is sized, not counted, exactly).
    if (int64_t(vm.procs.count()) >= vm.emu_options.process_limit) {
        // erts' report: its text ("Too many processes\n") through the format "~s~n".
        send_to_system_logger(p, "error", "~s~n", cons_at(p->alloc(2), make_string(*p, "Too many processes\n"), NIL));
        return p->error(am::system_limit);
    }
    Namespace& target = o.ns ? *o.ns : *p->ns;
    // A namespace's max_processes (vm/sandbox.hpp): its live processes are counted by a scan of
    // the process table, paid only by namespaces that have the limit.
    if (uint64_t limit = target.policy().max_processes; limit != SandboxPolicy::UNLIMITED) [[unlikely]]
        if (vm.namespaces.processes_of(target).size() >= limit) return sandbox_limit_reached(p, "processes");
    Process* child = vm.new_process(target, o.min_heap, p->group_leader == NIL ? p->pid : p->group_leader);
    child->parent = p->pid;
    setup(child);
    if (trace_flags_of(p) | trace_flags_of(child)) trace_on_spawn(p, child, initial_call_term(p, child), o.link);
    if (p->seq_trace) [[unlikely]] seq_spawn(p, child, o, req_ref);
    child->max_heap = capped_max_heap(target, o.max_heap);
    child->fullsweep_after = o.fullsweep_after;
    child->message_queue_off_heap = o.message_queue_off_heap;
    child->sched.bound_scheduler.store(o.scheduler, std::memory_order_relaxed);
    child->sched.prio = o.prio;
    child->priority = prio_atom(o.prio);
    child->sched.home = Schedulers::current_index() < 0 ? 0 : Schedulers::current_index();
    Term result = child->pid;
    // The child has not run yet, so both sides of a link or monitor are set up here at once.
    if (o.link) {
        add_link_local(p, child->pid);
        child->sched.links.push_back(p->pid);
        trace_procs(child, "getting_linked", p->pid);
    }
    if (o.monitor) {
        uint64_t n = is_value(req_ref) ? ref_number(req_ref) : next_ref_number();
        Term ref = is_value(req_ref) ? req_ref : make_ref_from_number(*p, n);
        MonitorEntry m{};
        const Term* w = boxed_ptr(ref);
        m.ref[0] = w[1].raw, m.ref[1] = w[2].raw, m.ref[2] = w[3].raw;
        m.pid = p->pid;
        child->sched.monitored_by.push_back(m);
        m.pid = child->pid;
        apply_monitor_opts(p, m, n, o.monitor_opts);
        {
            std::lock_guard lock(p->sched.info_mutex);
            p->sched.monitors.push_back(m);
        }
        result = make_tuple(*p, {child->pid, ref});
    }
    vm.start_process(child);
    ProcessTable::release(child);
    return result;
}


// spawn/1, spawn_link/1 and spawn_opt/2 start any fun, or {M, F}, as erlang:apply(F, []) (OTP's
// erlang.erl does so): with a fun of another arity the new process fails with badarity.
// spawn_monitor/1 takes only a fun of arity 0.
Term spawn_fun(Process* p, Term fun, const SpawnOpts& o, bool any_arity = true) {
    bool mf = is_tuple(fun) && tuple_arity(fun) == 2 && is_atom(tuple_elem(fun, 0)) && is_atom(tuple_elem(fun, 1));
    if (is_any_fun(fun) && is_function_of_arity(fun, make_small(0)))
        return do_spawn(p, o, [&](Process* c) { p->vm->setup_fun_call(c, fun); });
    if (!any_arity || !(is_any_fun(fun) || mf)) return p->badarg();
    Term elems[] = {fun, NIL};
    Term args = make_list_from(*p, elems, 2);
    return do_spawn(p, o, [&](Process* c) { p->vm->setup_call(c, am::erlang, atom("apply"), args); });
}

}  // namespace

Term spawn_mfa(Process* p, Term m, Term f, Term args, const SpawnOpts& o, Term req_ref) {
    if (!is_atom(m) || !is_atom(f) || !proper_list_length(args)) return p->badarg();
    return do_spawn(p, o, [&](Process* c) { p->vm->setup_call(c, m, f, args); }, req_ref);
}

Term spawn_in_namespace(Process* p, Namespace& ns, Term m, Term f, Term args, bool link) {
    SpawnOpts o = SpawnOpts::of(*p->vm, link, false);
    o.ns = &ns;
    return spawn_mfa(p, m, f, args, o);
}

namespace {

Term spawn_1(Process* p, const Term* a) { return spawn_fun(p, a[0], SpawnOpts::of(*p->vm, false, false)); }
Term spawn_3(Process* p, const Term* a) { return spawn_mfa(p, a[0], a[1], a[2], SpawnOpts::of(*p->vm, false, false)); }
Term spawn_link_1(Process* p, const Term* a) { return spawn_fun(p, a[0], SpawnOpts::of(*p->vm, true, false)); }
Term spawn_link_3(Process* p, const Term* a) { return spawn_mfa(p, a[0], a[1], a[2], SpawnOpts::of(*p->vm, true, false)); }
Term spawn_monitor_1(Process* p, const Term* a) { return spawn_fun(p, a[0], SpawnOpts::of(*p->vm, false, true), false); }
Term spawn_monitor_3(Process* p, const Term* a) { return spawn_mfa(p, a[0], a[1], a[2], SpawnOpts::of(*p->vm, false, true)); }
Term spawn_opt_2(Process* p, const Term* a) {
    SpawnOpts o(*p->vm);
    if (!is_any_fun(a[0])) return p->badarg();  // erlang.erl looks at the fun before the options
    if (parse_spawn_opts(a[1], &o, false) != 0) return bad_options(p);
    return spawn_fun(p, a[0], o);
}
Term spawn_opt_4(Process* p, const Term* a) {
    SpawnOpts o(*p->vm);
    if (parse_spawn_opts(a[3], &o, false) != 0) return bad_options(p);
    return spawn_mfa(p, a[0], a[1], a[2], o);
}

Term link_1(Process* p, const Term* a) {
    Term other = a[0];
    if (is_local_port(other)) {  // as OTP: noproc for a closed port, or an 'EXIT' message when trapping
        if (port_link(*p->vm, other, p->pid)) {
            add_link_local(p, other);
            trace_procs(p, "link", other);
            return am::true_;
        }
        if (!p->trap_exit) return p->error(am::noproc);
        trace_procs(p, "link", other);
        p->mailbox_push(make_tuple(*p, {am::EXIT, other, am::noproc}));
        return am::true_;
    }
    if (!is_pid(other)) return p->badarg();
    if (other == p->pid) return am::true_;
    // Another node's pid: links keep it outside the heap.
    if (!is_local_pid(other) && p->vm->node.is_alive()) other = dist::dist_of(*p->vm).stable_id(other);
    // erl traces `link` whether or not the link existed, before the other side hears of it.
    // set_on_link is not applied here: OTP 25 applies it to spawn_link only (do_spawn).
    trace_procs(p, "link", other);
    auto* s = new Signal{SignalKind::Link};
    s->from = p->pid;
    if (!deliver_signal(*p->vm, other, s)) {
        delete s;
        // As OTP: a caller that does not trap exits gets a noproc error; one that traps gets
        // {'EXIT', Pid, noproc} at once, and no link.
        if (!p->trap_exit) return p->error(am::noproc);
        p->mailbox_push(make_tuple(*p, {am::EXIT, other, am::noproc}));
        return am::true_;
    }
    add_link_local(p, other);
    return am::true_;
}

Term unlink_1(Process* p, const Term* a) {
    Term other = a[0];
    if (is_local_port(other)) {
        {
            std::lock_guard lock(p->sched.info_mutex);
            std::erase(p->sched.links, other);
        }
        port_unlink(*p->vm, other, p->pid);
        trace_procs(p, "unlink", other);
        return am::true_;
    }
    if (!is_pid(other)) return p->badarg();
    if (!is_local_pid(other) && p->vm->node.is_alive()) other = dist::dist_of(*p->vm).stable_id(other);
    trace_procs(p, "unlink", other);  // whether or not they were linked, as erl
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

// exit/2 (OTP: send_exit_signal_bif in bif.c). To oneself it is OTP's "very strange" case: a
// normal reason ends the caller too unless it traps exits, and the caller ends before exit/2
// returns, by its exit signal, so no catch sees it: the signal goes through the queue like
// any other and the caller waits for it (erts_internal:await_result/1 on a reference that
// never comes, as erts traps to await_exit).
Term exit_2(Process* p, const Term* a) {
    Term to = a[0];
    if (is_local_port(to)) {
        port_exit_signal(*p->vm, p->pid, to, a[1], false);
        return am::true_;
    }
    if (!is_pid(to)) return p->badarg();
    if (to == p->pid) {
        if (a[1] == am::kill || !p->trap_exit) {
            send_exit_signal(*p->vm, p->pid, to, a[1], false, /*normal_kills=*/true);
            return p->trap(p->ns->export_entry(atom("erts_internal"), atom("await_result"), 1),
                           {make_new_ref(*p)});
        }
        // Trapped: an 'EXIT' message. Behind what it sent itself through the signal queue,
        // if anything (scheduler/process_sched.hpp, self_via_inbox), to stay in order.
        if (p->sched.self_via_inbox) send_exit_signal(*p->vm, p->pid, to, a[1], false, /*normal_kills=*/true);
        else p->mailbox_push(make_tuple(*p, {am::EXIT, p->pid, a[1]}));
        return am::true_;
    }
    if (sandbox_restricted(p) && !sandbox_may_signal(p, to)) [[unlikely]]
        return am::true_;  // a root server its namespace may not see: dropped (bifs/sandbox_checks.hpp)
    send_exit_signal(*p->vm, p->pid, to, a[1], false);
    return am::true_;
}

// badarg with erts' cause for register/2: registered_name when the process or port has a
// name, notalive for a pid of no live process, none otherwise (a bad name, a name taken).
Term register_failed(Process* p, Term cause) {
    p->badarg();
    p->fcause = cause;
    return NON_VALUE;
}

Term register_2(Process* p, const Term* a) {
    Term name = a[0], pid = a[1];
    if (!is_atom(name) || name == am::undefined) return register_failed(p, atom("none"));
    if (is_local_port(pid)) {
        if (port_register(*p->vm, p->ns, name, pid)) return am::true_;
        return register_failed(p, p->vm->procs.port_name(pid) != NIL ? atom("registered_name") : atom("none"));
    }
    if (!is_local_pid(pid)) return register_failed(p, atom("none"));
    Process* target = pid == p->pid ? p : p->vm->procs.lookup(pid);
    if (!target) return register_failed(p, atom("notalive"));
    // A name lives in the namespace of the process it names, and a namespace names only its
    // own processes (docs/namespaces.md).
    bool ok = target->ns == p->ns && p->vm->procs.register_name(name, target);
    Term cause = atom("none");
    if (ok) {
        trace_procs(target, "register", name);
    } else {
        std::lock_guard info(target->sched.info_mutex);
        if (target->sched.registered_name != NIL) cause = atom("registered_name");
    }
    if (target != p) ProcessTable::release(target);
    return ok ? am::true_ : register_failed(p, cause);
}

Term unregister_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    Term was = NIL;
    if (!p->vm->procs.unregister_name(p->ns, a[0], NIL, &was)) return p->badarg();
    if (Process* q = was == p->pid ? p : p->vm->procs.lookup(was)) {
        trace_procs(q, "unregister", a[0]);
        if (q != p) ProcessTable::release(q);
    }
    return am::true_;
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
    // Looked up once: gen_server:call sends with [noconnect] at every call (interning the names
    // at each was 0.6% of svc_genserver_ets's profile).
    static const Term noconnect = atom("noconnect"), nosuspend = atom("nosuspend");
    Term opts = a[2];
    for (; is_list(opts); opts = tail(opts))
        if (head(opts) != noconnect && head(opts) != nosuspend) return bad_options(p);
    if (!is_nil(opts)) return bad_options(p);
    Term r = send_message(p, a[0], a[1]);
    return is_value(r) ? am::ok : r;
}

// erts_internal:group_leader(GL, Pid), behind OTP's erlang:group_leader/2: true when set at
// once, false when erlang.beam must ask Pid with group_leader/3 and wait for the answer,
// badarg for a process that does not exist. Another process's group leader is only ever
// changed by that process (it is a GC root, read without locks): always through a signal.
Term erts_group_leader_2(Process* p, const Term* a) {
    if (is_boxed_sub(a[1], Sub::ExtPid) && is_pid(a[0]) && p->vm->node.is_alive()) {
        // Another node's process: a GROUP_LEADER signal, answered by nobody.
        auto* s = new Signal{SignalKind::GroupLeader};
        s->from = p->pid;
        s->data = copy_to_buffer(a[0]);
        if (!deliver_signal(*p->vm, a[1], s)) release_signal(s);
        return am::true_;
    }
    if (!is_pid(a[0]) || !is_local_pid(a[1])) return am::badarg;  // erts answers, erlang.erl raises
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

// erlang:exit_signal/2: exit/2 without its old special case for the caller itself (ending it
// at once even for `normal`): a signal to oneself is taken in like any other.
Term exit_signal_2(Process* p, const Term* a) {
    if (!is_pid(a[0])) return p->badarg();
    send_exit_signal(*p->vm, p->pid, a[0], a[1], false);
    return am::true_;
}

const BifSpec table[] = {
    {"erlang", "exit_signal", 2, &exit_signal_2},
    {"erlang", "spawn", 1, &spawn_1},
    {"erlang", "spawn", 3, &spawn_3},
    {"erlang", "spawn_link", 1, &spawn_link_1},
    {"erlang", "spawn_link", 3, &spawn_link_3},
    {"erlang", "spawn_monitor", 1, &spawn_monitor_1},
    {"erlang", "spawn_monitor", 3, &spawn_monitor_3},
    {"erlang", "spawn_opt", 2, &spawn_opt_2},
    {"erlang", "spawn_opt", 4, &spawn_opt_4},
    {"erlang", "link", 1, &link_1},
    {"erlang", "unlink", 1, &unlink_1},
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

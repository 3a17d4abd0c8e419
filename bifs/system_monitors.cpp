// Monitors and aliases: monitor/2,3, demonitor/1,2, alias/1, unalias/1 (OTP 25). A monitor
// lives in two tables, the monitoring process's `monitors` and the target's `monitored_by`,
// joined by its reference; the target's side is set up by a Monitor signal. An alias is a
// reference its owner receives messages through (scheduler/aliases.hpp); monitor/3's
// {alias, _} makes the monitor's own reference one.
#include <algorithm>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_monitors.hpp"
#include "dist/dist_system.hpp"
#include "scheduler/aliases.hpp"
#include "scheduler/signals.hpp"
#include "vm/interp_support.hpp"
#include "vm/term_order.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

bool parse_monitor_opts(Term opts, MonitorOpts* o) {
    for (; is_list(opts); opts = tail(opts)) {
        Term opt = head(opts);
        if (!is_tuple(opt) || tuple_arity(opt) != 2) return false;
        Term k = tuple_elem(opt, 0), v = tuple_elem(opt, 1);
        if (k == am::alias) {
            o->alias = true;
            if (v == am::explicit_unalias) o->alias_kind = AliasKind::Explicit;
            else if (v == am::demonitor) o->alias_kind = AliasKind::Demonitor;
            else if (v == am::reply_demonitor) o->alias_kind = AliasKind::ReplyDemonitor;
            else return false;
        } else if (k == am::tag) {
            o->tag = v;
        } else {
            return false;
        }
    }
    return is_nil(opts);
}

void apply_monitor_opts(Process* p, MonitorEntry& m, uint64_t ref, const MonitorOpts& o) {
    if (is_value(o.tag)) {
        m.tag = std::shared_ptr<MessageBuffer>(new MessageBuffer(copy_to_buffer(o.tag)), [](MessageBuffer* b) {
            discard_buffer(*b);
            delete b;
        });
    }
    if (o.alias) alias_activate(p, ref, o.alias_kind);
}

namespace {

// monitor(process, Target, Opts): Target is a pid, a registered name, or {Name, Node}. As OTP,
// a target that does not exist (or a name not registered) gets a DOWN with noproc at once.
Term monitor_process(Process* p, Term target, const MonitorOpts& opts) {
    Term name = NIL;
    RemoteSignals* remote = nullptr;
    if (is_tuple(target) && tuple_arity(target) == 2) {
        if (!is_atom(tuple_elem(target, 0)) || !is_atom(tuple_elem(target, 1))) return p->badarg();
        if (tuple_elem(target, 1) != p->vm->node.name()) {
            // Another node's registered name: OTP refuses it on a node that is not alive.
            if (!p->vm->node.is_alive()) return p->badarg();
            remote = &dist::dist_of(*p->vm);
            name = tuple_elem(target, 0);
            target = remote->stable_id(target);  // signals to {Name, Node} are routed by name
        } else {
            target = tuple_elem(target, 0);
        }
    } else if (is_boxed_sub(target, Sub::ExtPid) && p->vm->node.is_alive()) {
        remote = &dist::dist_of(*p->vm);
        target = remote->stable_id(target);
    }
    if (remote) {
    } else if (is_atom(target)) {
        name = target;
        target = p->vm->procs.whereis(p->ns, name);
    } else if (!is_pid(target)) {  // a pid of an old incarnation: noproc below
        return p->badarg();
    }
    uint64_t n = next_ref_number();
    Term ref = make_ref_from_number(*p, n);
    MonitorEntry m{};
    const Term* w = boxed_ptr(ref);
    m.ref[0] = w[1].raw, m.ref[1] = w[2].raw, m.ref[2] = w[3].raw;
    m.pid = target;
    m.name = name;
    if (target == p->pid) return ref;  // as OTP: no monitor (it could never fire), no alias
    auto noproc = [&] {
        // The monitor ends as it starts: a demonitor-kind alias is never active.
        if (opts.alias && opts.alias_kind == AliasKind::Explicit) alias_activate(p, n, opts.alias_kind);
        Term who = name != NIL ? make_tuple(*p, {name, p->vm->node.name()}) : target;
        Term tag = is_value(opts.tag) ? opts.tag : am::DOWN;
        p->mailbox_push(make_tuple(*p, {tag, ref, am::process, who, am::noproc}));
        return ref;
    };
    if (target == am::undefined) return noproc();
    auto* s = new Signal{SignalKind::Monitor};
    s->from = p->pid;
    s->name = name;
    s->data = copy_to_buffer(ref);
    if (!deliver_signal(*p->vm, target, s)) {
        discard_buffer(s->data);
        delete s;
        return noproc();
    }
    apply_monitor_opts(p, m, n, opts);
    std::lock_guard lock(p->sched.info_mutex);
    p->sched.monitors.push_back(m);
    return ref;
}

// monitor(time_offset, clock_service): a message when the time offset changes. beamvm runs in
// OTP's no_time_warp mode, where it never does: the monitor is a reference that never fires.
Term monitor_time_offset(Process* p, Term target, const MonitorOpts& opts) {
    if (target != am::clock_service) return p->badarg();
    uint64_t n = next_ref_number();
    if (opts.alias) alias_activate(p, n, opts.alias_kind);
    return make_ref_from_number(*p, n);
}

Term monitor_2(Process* p, const Term* a) {
    if (a[0] == am::port) return monitor_port(p, a[1], {});
    if (a[0] == am::time_offset) return monitor_time_offset(p, a[1], {});
    if (a[0] != am::process) return p->badarg();
    return monitor_process(p, a[1], {});
}

Term monitor_3(Process* p, const Term* a) {
    MonitorOpts opts;
    if (!parse_monitor_opts(a[2], &opts)) return p->badarg();  // OTP: badarg with cause badopt
    if (a[0] == am::port) return monitor_port(p, a[1], opts);
    if (a[0] == am::time_offset) return monitor_time_offset(p, a[1], opts);
    if (a[0] != am::process) return p->badarg();
    return monitor_process(p, a[1], opts);
}

// demonitor(Ref, [flush]) removes the monitor's message, whatever its tag, as OTP's
// {_, Ref, _, _, _}.
bool flush_down(Process* p, Term ref) {
    for (size_t i = 0; i < p->mailbox.size(); ++i) {
        Term m = p->mailbox[i];
        if (is_tuple(m) && tuple_arity(m) == 5 && eq_exact(tuple_elem(m, 1), ref)) {
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
        if (head(opts) == am::flush) flush = true;
        else if (head(opts) == am::info) info = true;
        else return p->badarg();
    }
    if (!is_nil(opts)) return p->badarg();
    bool found = remove_monitor(p, ref_number(ref));
    // An active monitor's DOWN is dropped on arrival once it is removed (scheduler/signals.cpp)
    // and a DOWN that arrived ended the monitor, so only a monitor that was no longer active
    // can have left a message: no scan otherwise, which keeps a gen_server:call with a long
    // message queue from being linear in it (receive_SUITE call_with_huge_message_queue).
    if (flush && !found) flush_down(p, ref);
    return info ? make_bool(found) : am::true_;
}

Term demonitor_1(Process* p, const Term* a) { return demonitor(p, a[0], NIL); }
Term demonitor_2(Process* p, const Term* a) { return demonitor(p, a[0], a[1]); }

Term alias_1(Process* p, const Term* a) {
    AliasKind kind = AliasKind::Explicit;
    Term opts = a[0];
    for (; is_list(opts); opts = tail(opts)) {
        if (head(opts) == am::explicit_unalias) kind = AliasKind::Explicit;
        else if (head(opts) == am::reply) kind = AliasKind::Reply;
        else return p->badarg();
    }
    if (!is_nil(opts)) return p->badarg();
    uint64_t n = next_ref_number();
    alias_activate(p, n, kind);
    return make_ref_from_number(*p, n);
}

Term unalias_1(Process* p, const Term* a) {
    if (is_boxed_sub(a[0], Sub::ExtRef)) return am::false_;  // never an alias of this process
    if (!is_boxed_sub(a[0], Sub::Ref)) return p->badarg();
    return make_bool(alias_deactivate(p, ref_number(a[0])));
}

const BifSpec table[] = {
    {"erlang", "monitor", 2, &monitor_2},
    {"erlang", "monitor", 3, &monitor_3},
    {"erlang", "demonitor", 1, &demonitor_1},
    {"erlang", "demonitor", 2, &demonitor_2},
    {"erlang", "alias", 1, &alias_1},
    {"erlang", "unalias", 1, &unalias_1},
};

}  // namespace

std::span<const BifSpec> monitor_bifs() { return table; }

}  // namespace beam

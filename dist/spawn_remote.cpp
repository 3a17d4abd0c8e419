// spawn_request across nodes (OTP 23+): SPAWN_REQUEST asks the other node to start a process,
// SPAWN_REPLY answers with its pid (and whether the link and monitor asked for are set up)
// or an error. erlang.erl builds spawn/4, spawn_link/4, spawn_monitor/4 and spawn_opt/5 on
// another node from erts_internal:dist_spawn_request/4 and the reply message.
#include <algorithm>

#include "bifs/bif_util.hpp"
#include "bifs/system_spawn.hpp"
#include "dist/carrier.hpp"
#include "dist/control_ops.hpp"
#include "dist/dist_system.hpp"
#include "dist/spawn_remote.hpp"
#include "scheduler/signals.hpp"
#include "vm/ext_term.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam::dist {

namespace {
void words_of(Term ref, Word out[3]) {
    const Term* w = boxed_ptr(ref);
    out[0] = w[1].raw, out[1] = w[2].raw, out[2] = w[3].raw;
}
}  // namespace

// {29, ReqId, From, GroupLeader, {M, F, Arity}, Opts} + Args: the process starts with
// M:F(Args) and the group leader of the requester's choice; the reply goes out before it
// runs, so no exit or 'DOWN' from it can overtake it.
bool Carrier::handle_spawn_request(LiteralArea& area, Term c, Term args) {
    if (tuple_arity(c) < 6) return false;
    Term req = tuple_elem(c, 1), from = tuple_elem(c, 2), gl = tuple_elem(c, 3), mfa = tuple_elem(c, 4),
         opts = tuple_elem(c, 5);
    if (!is_pid(from) || !is_pid(gl) || !is_tuple(mfa) || tuple_arity(mfa) != 3 || !is_value(args)) return false;
    VM& vm = dist_.vm;
    DistEntry& e = *entry_;
    Term m = tuple_elem(mfa, 0), f = tuple_elem(mfa, 1);
    auto reply = [&](Term flags, Term result) {
        dist_.transmit(e, make_tuple(area, {make_small(op::SPAWN_REPLY), req, from, flags, result}), NON_VALUE, false);
    };
    SpawnOpts o(vm);
    if (parse_spawn_opts(opts, &o, true) != 0 || !is_atom(m) || !is_atom(f) || !proper_list_length(args)) {
        reply(make_small(0), atom("badopt"));
        return true;
    }
    Term remote = dist_.stable_id(from);
    Term leader = is_local_pid(gl) ? gl : dist_.stable_id(gl);
    Process* child = vm.new_process(vm.root(), o.min_heap, leader);
    vm.setup_call(child, m, f, args);
    child->max_heap = o.max_heap;
    child->fullsweep_after = o.fullsweep_after;
    child->message_queue_off_heap = o.message_queue_off_heap;
    child->sched.prio = o.prio;
    int flags = 0;
    if (o.link) {
        child->sched.links.push_back(remote);
        std::lock_guard lock(e.mu);
        e.links.push_back({child->pid, remote});
        flags |= op::SPAWN_FLAG_LINK;
    }
    if (o.monitor && is_ref(req)) {
        // The requester monitors the child with its ReqId; the child's table holds a
        // reference of this node standing for it.
        InMonitor im{};
        im.local = child->pid;
        im.remote = remote;
        im.name = NIL;
        std::vector<uint8_t> bytes;
        EncodeOptions eo;
        eo.node = &vm.node;
        (void)encode_external(req, bytes, eo);
        im.ref.assign(bytes.begin(), bytes.end());
        Term surrogate = make_new_ref(area);
        words_of(surrogate, im.surrogate);
        MonitorEntry me{};
        std::copy(im.surrogate, im.surrogate + 3, me.ref);
        me.pid = remote;
        child->sched.monitored_by.push_back(me);
        std::lock_guard lock(e.mu);
        e.in_monitors.push_back(std::move(im));
        flags |= op::SPAWN_FLAG_MONITOR;
    }
    reply(make_small(flags), child->pid);
    vm.start_process(child);
    ProcessTable::release(child);
    return true;
}

// {31, ReqId, To, Flags, Result}: the requester learns its child's pid (with the link and
// monitor it asked for now in place) or the error, as the message spawn_request promised.
bool Carrier::handle_spawn_reply(Term c) {
    if (tuple_arity(c) < 5) return false;
    Term req = tuple_elem(c, 1), to = tuple_elem(c, 2), flags = tuple_elem(c, 3), result = tuple_elem(c, 4);
    if (!is_boxed_sub(req, Sub::Ref) || !is_local_pid(to) || !is_small(flags)) return true;
    VM& vm = dist_.vm;
    DistEntry& e = *entry_;
    Word w[3];
    words_of(req, w);
    PendingSpawn ps{};
    {
        std::lock_guard lock(e.mu);
        auto it = std::find_if(e.spawns.begin(), e.spawns.end(), [&](auto& s) {
            return s.ref[0] == w[0] && s.ref[1] == w[1] && s.ref[2] == w[2];
        });
        if (it == e.spawns.end()) {
            auto ab = std::find(e.abandoned.begin(), e.abandoned.end(), std::array<Word, 3>{w[0], w[1], w[2]});
            if (ab == e.abandoned.end()) return true;
            e.abandoned.erase(ab);
            ps.requester = NIL;  // abandoned: undone below, nobody is told
        } else {
            ps = *it;
            e.spawns.erase(it);
        }
    }
    if (ps.requester == NIL) {
        // As erts: a child linked for an abandoned request gets exit signal `abandoned`; a
        // monitor made for it is taken back.
        if (is_pid(result)) {
            LiteralArea area;
            SWord fl = small_value(flags);
            if (fl & op::SPAWN_FLAG_LINK)
                dist_.transmit(e, make_tuple(area, {make_small(op::PAYLOAD_EXIT), to, result}), atom("abandoned"), false);
            if (fl & op::SPAWN_FLAG_MONITOR)
                dist_.transmit(e, make_tuple(area, {make_small(op::DEMONITOR_P), to, result, req}), NON_VALUE, false);
        }
        return true;
    }
    bool ok = is_pid(result);
    if (ok) {
        Term child = dist_.stable_id(result);
        SWord fl = small_value(flags);
        if (fl & op::SPAWN_FLAG_LINK) {
            {
                std::lock_guard lock(e.mu);
                e.links.push_back({to, child});
            }
            auto* s = new Signal{SignalKind::Link};
            s->from = child;
            if (!deliver_signal(vm, to, s)) release_signal(s);
        }
        if (fl & op::SPAWN_FLAG_MONITOR) {
            {
                std::lock_guard lock(e.mu);
                OutMonitor om{};
                om.local = to;
                std::copy(w, w + 3, om.ref);
                om.remote = child;
                om.name = NIL;
                e.out_monitors.push_back(om);
            }
            auto* s = new Signal{SignalKind::Monitoring};
            s->from = child;
            std::copy(w, w + 3, s->ref);
            if (ps.monitor_tag) s->data = copy_to_buffer(ps.monitor_tag->term);
            if (!deliver_signal(vm, to, s)) release_signal(s);
        }
    }
    if (ok ? !ps.reply_success : !ps.reply_error) return true;
    LiteralArea area;
    Term tag = ps.reply_tag ? ps.reply_tag->term : atom("spawn_reply");
    post_message(vm, to, make_tuple(area, {tag, req, ok ? am::ok : am::error, result}));
    return true;
}

Term spawn_request(Process* p, Term node, Term mfa, Term opts, bool as_spawn_opt) {
    DistSystem& d = dist_of(*p->vm);
    VM& vm = *p->vm;
    PendingSpawn ps{};
    bool monitor = false;
    for (Term l = opts; is_list(l); l = tail(l)) {
        Term o = head(l);
        if (o == atom("monitor")) monitor = true;
        if (!is_tuple(o) || tuple_arity(o) != 2) continue;
        Term k = tuple_elem(o, 0), v = tuple_elem(o, 1);
        auto buffer = [](Term t) {
            return std::shared_ptr<MessageBuffer>(new MessageBuffer(copy_to_buffer(t)), [](MessageBuffer* b) {
                discard_buffer(*b);
                delete b;
            });
        };
        if (k == atom("monitor")) {
            monitor = true;
            for (Term mo = v; is_list(mo); mo = tail(mo)) {
                Term x = head(mo);
                if (is_tuple(x) && tuple_arity(x) == 2 && tuple_elem(x, 0) == atom("tag"))
                    ps.monitor_tag = buffer(tuple_elem(x, 1));
            }
        }
        if (k == atom("reply_tag")) {
            ps.reply_tag = buffer(v);
        } else if (k == atom("reply")) {
            if (v == atom("no")) ps.reply_success = ps.reply_error = false;
            else if (v == atom("error_only")) ps.reply_success = false;
            else if (v == atom("success_only")) ps.reply_error = false;
            else if (v != atom("yes")) return am::badarg;
        }
    }
    // The reply options are this node's business; the other node gets the rest.
    std::vector<Term> remote_opts;
    for (Term l = opts; is_list(l); l = tail(l)) {
        Term o = head(l);
        bool local_only = is_tuple(o) && tuple_arity(o) == 2 &&
                          (tuple_elem(o, 0) == atom("reply_tag") || tuple_elem(o, 0) == atom("reply"));
        if (!local_only) remote_opts.push_back(o);
    }
    Term ref = make_new_ref(*p);
    words_of(ref, ps.ref);
    ps.requester = p->pid;
    Term m = tuple_elem(mfa, 0), f = tuple_elem(mfa, 1), args = tuple_elem(mfa, 2);
    Term gl = p->group_leader == NIL ? p->pid : p->group_leader;
    auto e = d.find_or_insert(node);
    {
        std::lock_guard lock(e->mu);
        e->spawns.push_back(ps);
    }
    LiteralArea area;
    Term control = make_tuple(area, {make_small(op::SPAWN_REQUEST), ref, p->pid, gl,
                                     make_tuple(area, {m, f, make_small(SWord(proper_list_length(args).value_or(0)))}),
                                     make_list_from(area, remote_opts.data(), remote_opts.size())});
    if (!d.transmit_spawn(*e, control, args, ps.ref)) {
        {
            std::lock_guard lock(e->mu);
            std::erase_if(e->spawns, [&](auto& s) { return s.ref[0] == ps.ref[0] && s.ref[1] == ps.ref[1] && s.ref[2] == ps.ref[2]; });
        }
        if (ps.reply_error) {
            Term tag = ps.reply_tag ? ps.reply_tag->term : atom("spawn_reply");
            p->mailbox_push(make_tuple(*p, {tag, ref, am::error, atom("noconnection")}));
        }
    }
    (void)vm;
    if (as_spawn_opt) return make_tuple(*p, {ref, make_bool(monitor)});
    return ref;
}

bool abandon_spawn(Process* p, Term req_id) {
    Word w[3];
    words_of(req_id, w);
    for (auto& e : dist_of(*p->vm).all_entries()) {
        std::lock_guard lock(e->mu);
        auto it = std::find_if(e->spawns.begin(), e->spawns.end(), [&](auto& s) {
            return s.requester == p->pid && s.ref[0] == w[0] && s.ref[1] == w[1] && s.ref[2] == w[2];
        });
        if (it == e->spawns.end()) continue;
        e->spawns.erase(it);
        e->abandoned.push_back({w[0], w[1], w[2]});
        return true;
    }
    return false;
}

}  // namespace beam::dist

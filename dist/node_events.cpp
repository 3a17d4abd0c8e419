// A connection ends, and who hears of it: every link across it ends with an exit signal of
// reason noconnection, every monitor with a 'DOWN' of reason noconnection, monitor_node's
// callers get {nodedown, Node}, and monitor_nodes subscribers {nodedown, Node[, Info]}.
// Also {nodeup, ...} when one comes up.
#include <algorithm>

#include "bifs/bif_util.hpp"
#include "dist/dist_system.hpp"
#include "dist/proc_channel.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/signals.hpp"
#include "vm/copy_term.hpp"
#include "vm/map.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam::dist {

void DistSystem::connection_lost(DistEntry& e, uint32_t conn_id, Term reason) {
    std::vector<CrossLink> links;
    std::vector<OutMonitor> outs;
    std::vector<InMonitor> ins;
    std::vector<std::pair<Term, uint32_t>> node_monitors;
    std::vector<PendingSpawn> spawns;
    bool was_up, hidden;
    std::shared_ptr<ProcChannel> proc;
    {
        std::lock_guard lock(e.mu);
        if (e.conn_id != conn_id || e.state == ConnState::Idle) return;
        was_up = e.state == ConnState::Up;
        hidden = e.hidden;
        e.state = ConnState::Idle;
        e.port.reset();
        proc.swap(e.proc);
        e.pending.clear();
        links.swap(e.links);
        outs.swap(e.out_monitors);
        ins.swap(e.in_monitors);
        node_monitors.swap(e.node_monitors);
        spawns.swap(e.spawns);
        e.abandoned.clear();
    }
    // A carrier process outlives its connection only when something else ended it (a
    // malformed packet): erts then kills it. One that exited is past caring.
    if (proc) {
        {
            std::lock_guard lock(controllers_mu_);
            auto it = controllers_.find(proc->controller.raw);
            if (it != controllers_.end() && --it->second == 0) controllers_.erase(it);
        }
        send_exit_signal(vm, proc->controller, proc->controller, am::kill, false);
    }
    Term noconnection = atom("noconnection");
    for (const CrossLink& l : links) {
        auto* s = new Signal{SignalKind::Exit};
        s->from = l.remote;
        s->linked = true;
        s->data = copy_to_buffer(noconnection);
        if (!deliver_signal(vm, l.local, s)) release_signal(s);
    }
    LiteralArea scratch;
    for (const OutMonitor& m : outs) {
        auto* s = new Signal{SignalKind::Down};
        s->from = m.remote;
        std::copy(m.ref, m.ref + 3, s->ref);
        Term who = m.name != NIL ? make_tuple(scratch, {m.name, e.node}) : m.remote;
        Term ref = make_ref_from_number(scratch, m.ref[0] | (m.ref[1] << 18) | (m.ref[2] << 50));
        s->data = copy_to_buffer(make_tuple(scratch, {am::DOWN, ref, am::process, who, noconnection}));
        if (!deliver_signal(vm, m.local, s)) release_signal(s);
    }
    for (const InMonitor& m : ins) {
        auto* s = new Signal{SignalKind::Demonitor};
        s->from = m.remote;
        std::copy(m.surrogate, m.surrogate + 3, s->ref);
        if (!deliver_signal(vm, m.local, s)) release_signal(s);
    }
    // Spawn requests that will never be answered: {Tag, ReqId, error, noconnection}.
    for (const PendingSpawn& sp : spawns) {
        if (!sp.reply_error) continue;
        Term tag = sp.reply_tag ? sp.reply_tag->term : atom("spawn_reply");
        Term ref = make_ref_from_number(scratch, sp.ref[0] | (sp.ref[1] << 18) | (sp.ref[2] << 50));
        post_message(vm, sp.requester, make_tuple(scratch, {tag, ref, am::error, noconnection}));
    }
    Term down = make_tuple(scratch, {atom("nodedown"), e.node});
    for (auto& [pid, count] : node_monitors)
        for (uint32_t i = 0; i < count; ++i) post_message(vm, pid, down);
    if (reason == NIL || reason == am::normal) reason = atom("connection_closed");  // as erts
    if (was_up) node_event(e.node, hidden, conn_id, false, reason);
    not_alive_when_unconnected();  // dist/this_node.cpp: if net_kernel has exited
}

void DistSystem::subscribe_nodes(Term pid, uint32_t key, bool on) {
    std::lock_guard lock(subs_mu_);
    if (on) {
        subs_.emplace_back(pid, key);
        return;
    }
    auto it = std::find(subs_.begin(), subs_.end(), std::pair{pid, key});
    if (it != subs_.end()) subs_.erase(it);
}

Term DistSystem::monitoring_nodes(Process* p) {
    std::vector<std::pair<Term, uint32_t>> subs;
    {
        std::lock_guard lock(subs_mu_);
        std::erase_if(subs_, [&](auto& s) {
            Process* q = vm.procs.lookup(s.first);
            if (q) ProcessTable::release(q);
            return q == nullptr;
        });
        subs = subs_;
    }
    Term list = NIL;
    for (auto [pid, key] : subs) {
        Term opts = NIL;
        if (key != 0) {
            uint32_t bits = key - 1;
            if (bits & 24) {
                Term type = atom((bits & 24) == 24 ? "all" : (bits & 8) ? "visible" : "hidden");
                opts = cons_at(p->alloc(2), make_tuple(*p, {atom("node_type"), type}), opts);
            }
            if (bits & 2) opts = cons_at(p->alloc(2), atom("nodedown_reason"), opts);
        }
        list = cons_at(p->alloc(2), make_tuple(*p, {pid, opts}), list);
    }
    return list;
}

// Option bits of a subscription key (bifs/system_process_flags.cpp): 1 connection_id,
// 2 nodedown_reason, 4 list, 8 visible, 16 hidden.
void DistSystem::node_event(Term node, bool hidden, uint32_t conn_id, bool up, Term reason) {
    std::vector<std::pair<Term, uint32_t>> subs;
    {
        std::lock_guard lock(subs_mu_);
        subs = subs_;
    }
    LiteralArea scratch;
    Term tag = atom(up ? "nodeup" : "nodedown");
    std::vector<Term> gone;
    for (auto [pid, key] : subs) {
        Term msg;
        if (key == 0) {
            if (hidden) continue;  // the plain subscription hears of visible nodes only
            msg = make_tuple(scratch, {tag, node});
        } else {
            uint32_t bits = key - 1;
            bool want = hidden ? (bits & 16) : ((bits & 8) || !(bits & 16));
            if (!want) continue;
            // In erts' list order: connection_id, nodedown_reason, node_type (a map sorts them).
            // This node's own up and down have no connection: its id is undefined.
            std::vector<std::pair<Term, Term>> info;
            if (bits & 1)
                info.emplace_back(atom("connection_id"),
                                  conn_id == ~uint32_t(0) ? atom("undefined") : make_small(SWord(conn_id)));
            if ((bits & 2) && !up) info.emplace_back(atom("nodedown_reason"), reason);
            if (bits & 24) info.emplace_back(atom("node_type"), atom(hidden ? "hidden" : "visible"));
            Term extra;
            if (bits & 4) {  // the list option: [{Key, Value}] in place of the map
                extra = NIL;
                for (auto it = info.rbegin(); it != info.rend(); ++it) {
                    Term pair = make_tuple(scratch, {it->first, it->second});
                    extra = cons_at(scratch.alloc(2), pair, extra);
                }
            } else {
                extra = map_from_pairs(scratch, std::move(info));
            }
            msg = make_tuple(scratch, {tag, node, extra});
        }
        if (!post_message(vm, pid, msg)) gone.push_back(pid);
    }
    if (!gone.empty()) {
        std::lock_guard lock(subs_mu_);
        std::erase_if(subs_, [&](auto& s) { return std::find(gone.begin(), gone.end(), s.first) != gone.end(); });
    }
}

}  // namespace beam::dist

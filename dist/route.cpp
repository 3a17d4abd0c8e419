// Outgoing: a signal from a local process to another node's process becomes a control
// message on the connection to that node (and the link or monitor it makes is remembered on
// the DistEntry, for when the connection is lost).
#include <algorithm>
#include <atomic>

#include "bifs/bif_util.hpp"
#include "dist/control_ops.hpp"
#include "dist/dist_system.hpp"
#include "scheduler/signals.hpp"
#include "vm/bignum.hpp"
#include "vm/ext_ids.hpp"
#include "vm/ext_term.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam::dist {

namespace {
std::atomic<uint64_t> unlink_ids{1};

Term ref_term(TermAllocator& a, const Word w[3]) { return make_ref_from_number(a, w[0] | (w[1] << 18) | (w[2] << 50)); }
bool same(const Word a[3], const Word b[3]) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }
void words_of(Term ref, Word out[3]) {
    const Term* w = boxed_ptr(ref);
    out[0] = w[1].raw, out[1] = w[2].raw, out[2] = w[3].raw;
}
Term small(int v) { return make_small(v); }
}  // namespace

bool DistSystem::route(Term to, Signal* s) {
    if (is_tuple(to) && tuple_arity(to) == 2) return route_named(tuple_elem(to, 1), tuple_elem(to, 0), s);
    if (!is_boxed_sub(to, Sub::ExtPid)) return false;
    Term node = ext_id_node(to);
    if (node == vm.node.name()) return false;  // an old incarnation of this node: no such process
    auto e = find_or_insert(node);
    LiteralArea area;
    Term from = s->from;
    bool from_pid = is_local_pid(from);
    switch (s->kind) {
    case SignalKind::Message: {
        Term msg = s->data.term;
        Term control = from_pid ? make_tuple(area, {small(op::SEND_SENDER), from, to})
                                : make_tuple(area, {small(op::SEND), am::undefined, to});
        transmit(*e, control, msg);
        break;
    }
    case SignalKind::Exit: {
        if (!from_pid) break;  // ports have no links to other nodes
        Term reason = s->data.term;
        if (s->linked) {
            Term remote = stable_id(to);
            std::lock_guard lock(e->mu);
            auto it = std::find_if(e->links.begin(), e->links.end(), [&](auto& l) { return l.local == from && l.remote == remote; });
            if (it != e->links.end()) e->links.erase(it);
        }
        transmit(*e, make_tuple(area, {small(s->linked ? op::PAYLOAD_EXIT : op::PAYLOAD_EXIT2), from, to}), reason,
                 !s->linked);
        break;
    }
    case SignalKind::Link: {
        Term remote = stable_id(to);
        {
            std::lock_guard lock(e->mu);
            e->links.push_back({from, remote});
        }
        if (!transmit(*e, make_tuple(area, {small(op::LINK), from, to}), NON_VALUE)) {
            // Unreachable: the link is made and ends at once, with noconnection.
            {
                std::lock_guard lock(e->mu);
                auto it = std::find_if(e->links.begin(), e->links.end(), [&](auto& l) { return l.local == from && l.remote == remote; });
                if (it != e->links.end()) e->links.erase(it);
            }
            auto* x = new Signal{SignalKind::Exit};
            x->from = remote;
            x->linked = true;
            x->data = copy_to_buffer(atom("noconnection"));
            if (!deliver_signal(vm, from, x)) release_signal(x);
        }
        break;
    }
    case SignalKind::Unlink: {
        Term remote = stable_id(to);
        {
            std::lock_guard lock(e->mu);
            auto it = std::find_if(e->links.begin(), e->links.end(), [&](auto& l) { return l.local == from && l.remote == remote; });
            if (it != e->links.end()) e->links.erase(it);
        }
        Term id = make_integer_u(area, unlink_ids.fetch_add(1));
        transmit(*e, make_tuple(area, {small(op::UNLINK_ID), id, from, to}), NON_VALUE, false);
        break;
    }
    case SignalKind::Monitor: {
        Term ref = s->data.term;
        OutMonitor m{};
        m.local = from;
        words_of(ref, m.ref);
        m.remote = stable_id(to);
        m.name = NIL;
        {
            std::lock_guard lock(e->mu);
            e->out_monitors.push_back(m);
        }
        if (!transmit(*e, make_tuple(area, {small(op::MONITOR_P), from, to, ref}), NON_VALUE)) {
            {
                std::lock_guard lock(e->mu);
                std::erase_if(e->out_monitors, [&](auto& x) { return same(x.ref, m.ref); });
            }
            auto* d = new Signal{SignalKind::Down};
            d->from = m.remote;
            std::copy(m.ref, m.ref + 3, d->ref);
            d->data = copy_to_buffer(make_tuple(area, {am::DOWN, ref, am::process, m.remote, atom("noconnection")}));
            if (!deliver_signal(vm, from, d)) release_signal(d);
        }
        break;
    }
    case SignalKind::Demonitor: {
        {
            std::lock_guard lock(e->mu);
            std::erase_if(e->out_monitors, [&](auto& x) { return same(x.ref, s->ref); });
        }
        transmit(*e, make_tuple(area, {small(op::DEMONITOR_P), from, to, ref_term(area, s->ref)}), NON_VALUE, false);
        break;
    }
    case SignalKind::Down: {
        // The monitored local process ended: the remote monitor hears of it under its own
        // reference, which the surrogate stood for.
        Term msg = s->data.term;
        if (!is_tuple(msg) || tuple_arity(msg) != 5) break;
        InMonitor m;
        {
            std::lock_guard lock(e->mu);
            auto it = std::find_if(e->in_monitors.begin(), e->in_monitors.end(), [&](auto& x) { return same(x.surrogate, s->ref); });
            if (it == e->in_monitors.end()) break;
            m = std::move(*it);
            e->in_monitors.erase(it);
        }
        DecodeOptions o;
        o.node = &vm.node;
        auto ref = decode_external(area, std::span(reinterpret_cast<const uint8_t*>(m.ref.data()), m.ref.size()), nullptr, o);
        if (!ref) break;
        Term who = m.name != NIL ? m.name : from;
        transmit(*e, make_tuple(area, {small(op::PAYLOAD_MONITOR_P_EXIT), who, to, *ref}), tuple_elem(msg, 4), false);
        break;
    }
    case SignalKind::GroupLeader:
        transmit(*e, make_tuple(area, {small(op::GROUP_LEADER), s->data.term, to}), NON_VALUE);
        break;
    default:
        return false;
    }
    release_signal(s);
    return true;
}

bool DistSystem::route_named(Term node, Term name, Signal* s) {
    auto e = find_or_insert(node);
    LiteralArea area;
    Term from = s->from;
    if (s->kind == SignalKind::Monitor) {
        Term ref = s->data.term;
        OutMonitor m{};
        m.local = from;
        words_of(ref, m.ref);
        m.remote = NIL;
        m.name = name;
        {
            std::lock_guard lock(e->mu);
            e->out_monitors.push_back(m);
        }
        if (!transmit(*e, make_tuple(area, {small(op::MONITOR_P), from, name, ref}), NON_VALUE)) {
            {
                std::lock_guard lock(e->mu);
                std::erase_if(e->out_monitors, [&](auto& x) { return same(x.ref, m.ref); });
            }
            auto* d = new Signal{SignalKind::Down};
            d->from = NIL;
            std::copy(m.ref, m.ref + 3, d->ref);
            Term who = make_tuple(area, {name, node});
            d->data = copy_to_buffer(make_tuple(area, {am::DOWN, ref, am::process, who, atom("noconnection")}));
            if (!deliver_signal(vm, from, d)) release_signal(d);
        }
    } else if (s->kind == SignalKind::Demonitor) {
        {
            std::lock_guard lock(e->mu);
            std::erase_if(e->out_monitors, [&](auto& x) { return same(x.ref, s->ref); });
        }
        transmit(*e, make_tuple(area, {small(op::DEMONITOR_P), from, name, ref_term(area, s->ref)}), NON_VALUE, false);
    } else {
        return false;
    }
    release_signal(s);
    return true;
}

void DistSystem::send(Process* p, Term to, Term msg, Term) {
    LiteralArea area;
    Term from = p ? p->pid : NIL;
    Term from_or_undefined = p ? from : am::undefined;
    if (is_boxed_sub(to, Sub::ExtPid)) {
        Term node = ext_id_node(to);
        if (node == vm.node.name()) return;
        auto e = find_or_insert(node);
        Term control = p ? make_tuple(area, {small(op::SEND_SENDER), from, to})
                         : make_tuple(area, {small(op::SEND), am::undefined, to});
        transmit(*e, control, msg);
    } else if (is_tuple(to) && tuple_arity(to) == 2) {
        auto e = find_or_insert(tuple_elem(to, 1));
        transmit(*e, make_tuple(area, {small(op::REG_SEND), from_or_undefined, am::undefined, tuple_elem(to, 0)}), msg);
    } else if (is_ref(to)) {
        Term node = is_ext_ref(to) ? ext_id_node(to) : NIL;
        if (node == NIL) return;
        auto e = find_or_insert(node);
        transmit(*e, make_tuple(area, {small(op::ALIAS_SEND), from_or_undefined, to}), msg);
    }
}

}  // namespace beam::dist

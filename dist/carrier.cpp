// Incoming control messages (erl_dist_protocol, "Protocol between Connected Nodes"): each
// becomes the signal a local sender would have sent, from the remote pid (kept stable by
// DistSystem::stable_id, since link and monitor tables hold it).
#include "dist/carrier.hpp"

#include <algorithm>

#include "bifs/bif_util.hpp"
#include "bifs/system_spawn.hpp"
#include "dist/control_ops.hpp"
#include "dist/dist_flags.hpp"
#include "dist/dist_system.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/signals.hpp"
#include "scheduler/slice_output.hpp"
#include "vm/binary.hpp"
#include "vm/copy_term.hpp"
#include "vm/ext_ids.hpp"
#include "vm/ext_term.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam::dist {

namespace {
thread_local Port* tls_port_held = nullptr;

struct HoldMarker {
    explicit HoldMarker(Port* p) : prev(tls_port_held) { tls_port_held = p; }
    ~HoldMarker() { tls_port_held = prev; }
    Port* prev;
};

void words_of(Term ref, Word out[3]) {
    const Term* w = boxed_ptr(ref);
    out[0] = w[1].raw, out[1] = w[2].raw, out[2] = w[3].raw;
}
bool same(const Word a[3], const Word b[3]) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }

std::string encoded(Term t, const NodeIdentity& node) {
    std::vector<uint8_t> bytes;
    EncodeOptions o;
    o.node = &node;
    (void)encode_external(t, bytes, o);
    return std::string(bytes.begin(), bytes.end());
}

Signal* exit_signal(Term from, Term reason, bool linked) {
    auto* s = new Signal{SignalKind::Exit};
    s->from = from;
    s->linked = linked;
    s->data = copy_to_buffer(reason);
    return s;
}
}  // namespace

Port* Carrier::port_held() { return tls_port_held; }

bool Carrier::hold(const std::shared_ptr<Port>& port, const PacketPieces& pk) {
    // Packets up to this size wait; a larger one is written at once, after what is held.
    constexpr size_t HOLD_MAX = 16 * 1024;
    // What a slice may hold before it is written anyway.
    constexpr size_t HELD_MAX = 64 * 1024;
    if (pk.size > HOLD_MAX || !in_time_slice()) {
        flush_output();
        return false;
    }
    if (held_.empty()) flush_at_slice_end(port);
    const uint32_t n = uint32_t(pk.size);
    const uint8_t len[4] = {uint8_t(n >> 24), uint8_t(n >> 16), uint8_t(n >> 8), uint8_t(n)};
    held_.insert(held_.end(), len, len + 4);
    for (auto piece : pk.view()) held_.insert(held_.end(), piece.begin(), piece.end());
    if (held_.size() >= HELD_MAX) flush_output();
    return true;
}

void Carrier::flush_output() {
    if (held_.empty() || !port_ || !port_->driver) return;
    if (!port_->driver->output_framed(held_)) {
        // A carrier whose framing is not packet 4 (none known): each packet by itself.
        for (size_t at = 0; at + 4 <= held_.size();) {
            size_t n = size_t(held_[at]) << 24 | size_t(held_[at + 1]) << 16 | size_t(held_[at + 2]) << 8 | held_[at + 3];
            std::span<const uint8_t> body(held_.data() + at + 4, n);
            port_->driver->output_gather(std::span(&body, 1), n);
            at += 4 + n;
        }
    }
    held_.clear();
}

Carrier::Carrier(DistSystem& d, std::shared_ptr<DistEntry> e, uint32_t conn_id, Port* port, uint64_t flags,
                 Term carrier_id)
    : dist_(d), entry_(std::move(e)), conn_id_(conn_id), port_(port), carrier_id_(carrier_id),
      rx_((flags & (flag::DIST_HDR_ATOM_CACHE | flag::FRAGMENTS)) != 0, (flags & flag::FRAGMENTS) != 0) {}

void Carrier::port_closed(Term reason) {
    HoldMarker hold(port_);
    dist_.connection_lost(*entry_, conn_id_, reason);
}

bool Carrier::received(const uint8_t* data, size_t size) {
    if (size == 0) return true;  // a tick
    HoldMarker hold(port_);
    std::string why;
    if (decode(data, size, why)) return true;
    if (why.empty()) why = "a malformed control message";
    // As erts: the connection is closed (the driver ends its port) and the packet logged.
    LiteralArea area;
    size_t shown = std::min<size_t>(size, 256);
    Term args[3] = {entry_->node, make_string(area, why), make_binary(area, data, shown)};
    send_to_system_logger(dist_.vm, NIL, carrier_id_, "error",
                          "** Got invalid data on distribution channel from ~w (~ts), offending packet "
                          "(first bytes): ~w~n",
                          make_list_from(area, args, 3));
    return false;
}

bool Carrier::decode(const uint8_t* data, size_t size, std::string& why) {
    auto kind = parse_packet(std::span(data, size), rx_, msg_);
    if (!kind) {
        why = kind.error().message;
        return false;
    }
    if (*kind != PacketKind::Complete) return true;
    std::span<const uint8_t> rest = msg_.data();
    DecodeOptions o;
    o.node = &dist_.vm.node;
    o.versionless = msg_.versionless;
    o.atom_cache = msg_.atoms;
    // The terms live in the carrier's scratch area until the signals made of them are sent.
    LiteralArea& area = scratch_;
    struct Reset {
        LiteralArea& a;
        ~Reset() { a.reset(); }
    } reset{area};
    size_t used = 0;
    auto control = decode_external(area, rest, &used, o);
    if (!control) {
        why = "control message: " + control.error().message;
        return false;
    }
    rest = rest.subspan(used);
    Term payload = NON_VALUE;
    if (!rest.empty()) {
        auto p = decode_external(area, rest, &used, o);
        if (!p) {
            why = "payload: " + p.error().message;
            return false;
        }
        if (used != rest.size()) {
            why = "bytes after the payload";
            return false;
        }
        payload = *p;
    }
    return dispatch(area, *control, payload);
}

bool Carrier::dispatch(LiteralArea& area, Term c, Term payload) {
    if (!is_tuple(c) || tuple_arity(c) < 1 || !is_small(tuple_elem(c, 0))) return false;
    VM& vm = dist_.vm;
    DistEntry& e = *entry_;
    auto arg = [&](unsigned i) { return i < tuple_arity(c) ? tuple_elem(c, i) : NON_VALUE; };
    // As erts: a signal's sender must be a pid of the peer itself, and its receiver a pid of
    // this node, or of an earlier incarnation of it (ignored, noproc for LINK). Anything else
    // is an invalid message; relaying it would let a peer send signals to third nodes in
    // another node's name (found by tests/dist/hostile_peer.sh: a mutated LINK whose ghost
    // receiver's node became the observer's made the observer drop its connection to us).
    auto from_peer = [&](Term t) { return is_boxed_sub(t, Sub::ExtPid) && ext_id_node(t) == e.node; };
    auto to_us = [&](Term t) {
        return is_local_pid(t) || (is_boxed_sub(t, Sub::ExtPid) && ext_id_node(t) == vm.node.name());
    };
    SWord op = small_value(tuple_elem(c, 0));
    switch (op) {
    case op::SEND: case op::SEND_TT: case op::SEND_SENDER: case op::SEND_SENDER_TT: {
        Term to = arg(2);
        if (!is_value(payload) || !is_pid(to)) return false;
        if (is_local_pid(to)) post_message(vm, to, payload, 0);
        return true;
    }
    case op::REG_SEND: case op::REG_SEND_TT: {
        Term name = arg(3);
        if (!is_value(payload) || !is_atom(name)) return false;
        Term to = vm.procs.whereis(&vm.root(), name);
        if (is_local_pid(to)) post_message(vm, to, payload, 0);
        return true;
    }
    case op::ALIAS_SEND: case op::ALIAS_SEND_TT: {
        Term alias = arg(2);
        if (!is_value(payload)) return false;
        if (!is_boxed_sub(alias, Sub::Ref)) return true;  // another node's: not ours to deliver
        uint64_t n = ref_number(alias);
        Term owner = vm.aliases.owner(n);
        if (owner == NIL) return true;
        auto* s = new Signal{SignalKind::Message};
        s->alias = n;
        s->data = copy_to_buffer(payload);
        if (!deliver_signal(vm, owner, s)) release_signal(s);
        return true;
    }
    case op::LINK: {
        Term from = arg(1), to = arg(2);
        if (!from_peer(from) || !to_us(to)) return false;
        Term remote = dist_.stable_id(from);
        auto* s = new Signal{SignalKind::Link};
        s->from = remote;
        if (!is_local_pid(to) || !deliver_signal(vm, to, s)) {
            release_signal(s);
            dist_.transmit(e, make_tuple(area, {make_small(op::PAYLOAD_EXIT), to, from}), atom("noproc"), false);
            return true;
        }
        std::lock_guard lock(e.mu);
        e.links.push_back({to, remote});
        return true;
    }
    case op::UNLINK_ID: case op::UNLINK: {
        bool with_id = op == op::UNLINK_ID;
        Term from = arg(with_id ? 2 : 1), to = arg(with_id ? 3 : 2);
        if (!from_peer(from) || !to_us(to)) return false;
        Term remote = dist_.stable_id(from);
        {
            std::lock_guard lock(e.mu);
            auto it = std::find_if(e.links.begin(), e.links.end(), [&](auto& l) { return l.local == to && l.remote == remote; });
            if (it != e.links.end()) e.links.erase(it);
        }
        auto* s = new Signal{SignalKind::Unlink};
        s->from = remote;
        if (!is_local_pid(to) || !deliver_signal(vm, to, s)) release_signal(s);
        if (with_id) dist_.transmit(e, make_tuple(area, {make_small(op::UNLINK_ID_ACK), arg(1), to, from}), NON_VALUE, false);
        return true;
    }
    case op::UNLINK_ID_ACK:
        return true;
    case op::EXIT: case op::EXIT_TT: case op::PAYLOAD_EXIT: case op::PAYLOAD_EXIT_TT:
    case op::EXIT2: case op::EXIT2_TT: case op::PAYLOAD_EXIT2: case op::PAYLOAD_EXIT2_TT: {
        bool linked = op == op::EXIT || op == op::EXIT_TT || op == op::PAYLOAD_EXIT || op == op::PAYLOAD_EXIT_TT;
        bool in_payload = op >= op::PAYLOAD_EXIT;
        Term from = arg(1), to = arg(2);
        Term reason = in_payload ? payload : arg(op == op::EXIT_TT || op == op::EXIT2_TT ? 4 : 3);
        if (!from_peer(from) || !to_us(to) || !is_value(reason)) return false;
        if (!is_local_pid(to)) return true;  // an earlier incarnation's process: gone
        Term remote = dist_.stable_id(from);
        if (linked) {
            std::lock_guard lock(e.mu);
            auto it = std::find_if(e.links.begin(), e.links.end(), [&](auto& l) { return l.local == to && l.remote == remote; });
            if (it != e.links.end()) e.links.erase(it);  // the process itself ignores an unlinked one
        }
        Signal* s = exit_signal(remote, reason, linked);
        if (!deliver_signal(vm, to, s)) release_signal(s);
        return true;
    }
    case op::MONITOR_P: {
        Term from = arg(1), target = arg(2), ref = arg(3);
        if (!from_peer(from) || !(to_us(target) || is_atom(target)) || !is_ref(ref)) return false;
        Term remote = dist_.stable_id(from);
        Term name = is_atom(target) ? target : NIL;
        Term to = is_atom(target) ? vm.procs.whereis(&vm.root(), target) : target;
        InMonitor m{};
        m.remote = remote;
        m.name = name;
        m.local = to;
        m.ref = encoded(ref, vm.node);
        Term surrogate = make_new_ref(area);
        words_of(surrogate, m.surrogate);
        auto* s = new Signal{SignalKind::Monitor};
        s->from = remote;
        s->name = name;
        s->data = copy_to_buffer(surrogate);
        if (!is_local_pid(to) || !deliver_signal(vm, to, s)) {
            release_signal(s);
            Term who = is_atom(target) ? target : to;
            dist_.transmit(e, make_tuple(area, {make_small(op::PAYLOAD_MONITOR_P_EXIT), who, from, ref}),
                           atom("noproc"), false);
            return true;
        }
        std::lock_guard lock(e.mu);
        e.in_monitors.push_back(std::move(m));
        return true;
    }
    case op::DEMONITOR_P: {
        Term from = arg(1), ref = arg(3);
        if (!from_peer(from) || !is_ref(ref)) return false;
        std::string key = encoded(ref, vm.node);
        InMonitor m;
        {
            std::lock_guard lock(e.mu);
            auto it = std::find_if(e.in_monitors.begin(), e.in_monitors.end(), [&](auto& x) { return x.ref == key; });
            if (it == e.in_monitors.end()) return true;
            m = std::move(*it);
            e.in_monitors.erase(it);
        }
        auto* s = new Signal{SignalKind::Demonitor};
        s->from = m.remote;
        std::copy(m.surrogate, m.surrogate + 3, s->ref);
        if (!deliver_signal(vm, m.local, s)) release_signal(s);
        return true;
    }
    case op::MONITOR_P_EXIT: case op::PAYLOAD_MONITOR_P_EXIT: {
        Term who = arg(1), to = arg(2), ref = arg(3);
        Term reason = op == op::PAYLOAD_MONITOR_P_EXIT ? payload : arg(4);
        if (!is_local_pid(to) || !is_boxed_sub(ref, Sub::Ref) || !is_value(reason)) return true;
        Word w[3];
        words_of(ref, w);
        OutMonitor m{};
        {
            std::lock_guard lock(e.mu);
            auto it = std::find_if(e.out_monitors.begin(), e.out_monitors.end(), [&](auto& x) { return same(x.ref, w); });
            if (it == e.out_monitors.end()) return true;
            m = *it;
            e.out_monitors.erase(it);
        }
        Term item = m.name != NIL ? make_tuple(area, {m.name, e.node}) : who;
        auto* s = new Signal{SignalKind::Down};
        s->from = m.remote != NIL ? m.remote : NIL;
        std::copy(w, w + 3, s->ref);
        s->data = copy_to_buffer(make_tuple(area, {am::DOWN, ref, am::process, item, reason}));
        if (!deliver_signal(vm, to, s)) release_signal(s);
        return true;
    }
    case op::GROUP_LEADER: {
        Term from = arg(1), to = arg(2);
        if (!is_pid(from) || !to_us(to)) return false;
        if (!is_local_pid(to)) return true;
        auto* s = new Signal{SignalKind::GroupLeader};
        s->from = NIL;  // nobody waits for an answer
        s->data = MessageBuffer{nullptr, dist_.stable_id(from), nullptr};
        if (!deliver_signal(vm, to, s)) release_signal(s);
        return true;
    }
    case op::SPAWN_REQUEST: case op::SPAWN_REQUEST_TT:
        return handle_spawn_request(area, c, payload);
    case op::SPAWN_REPLY: case op::SPAWN_REPLY_TT:
        return handle_spawn_reply(c);
    default:
        return false;
    }
}

}  // namespace beam::dist

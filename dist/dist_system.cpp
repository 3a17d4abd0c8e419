// The node table and the life of a connection: pending (net_kernel is setting it up), up
// (a port carries it), lost. See dist/dist_system.hpp.
#include "bifs/bif_util.hpp"
#include "dist/dist_system.hpp"

#include <algorithm>

#include "dist/carrier.hpp"
#include "dist/proc_channel.hpp"
#include "dist/wire_frame.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/signals.hpp"
#include "vm/copy_term.hpp"
#include "vm/ext_term.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam::dist {

DistSystem::DistSystem(VM& v) : vm(v) {}
DistSystem::~DistSystem() = default;

DistSystem& dist_of(VM& vm) {
    std::call_once(vm.dist_once, [&] {
        auto d = std::make_shared<DistSystem>(vm);
        vm.dist_layer = d;
        vm.remote.store(d.get(), std::memory_order_release);
    });
    return static_cast<DistSystem&>(*vm.remote.load(std::memory_order_acquire));
}

std::shared_ptr<DistEntry> DistSystem::find(Term node) {
    std::lock_guard lock(table_mu_);
    auto it = table_.find(node.raw);
    return it == table_.end() ? nullptr : it->second;
}

std::shared_ptr<DistEntry> DistSystem::find_or_insert(Term node) {
    std::lock_guard lock(table_mu_);
    auto& e = table_[node.raw];
    if (!e) e = std::make_shared<DistEntry>(node);
    return e;
}

std::vector<std::shared_ptr<DistEntry>> DistSystem::all_entries() {
    std::vector<std::shared_ptr<DistEntry>> out;
    std::lock_guard lock(table_mu_);
    for (auto& [_, e] : table_) out.push_back(e);
    return out;
}

std::vector<std::shared_ptr<DistEntry>> DistSystem::connected(bool visible, bool hidden) {
    std::vector<std::shared_ptr<DistEntry>> out;
    std::lock_guard lock(table_mu_);
    for (auto& [_, e] : table_) {
        std::lock_guard el(e->mu);
        if (e->state == ConnState::Up && (e->hidden ? hidden : visible)) out.push_back(e);
    }
    // erts lists the most recently connected first; the table has no order, so by name.
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return atom_name(a->node) < atom_name(b->node); });
    return out;
}

std::vector<std::pair<Term, Term>> DistSystem::carriers() {
    std::vector<std::pair<Term, Term>> out;
    for (auto& e : connected(true, true)) {
        std::lock_guard lock(e->mu);
        if (e->state != ConnState::Up) continue;
        if (e->port) out.emplace_back(e->node, e->port->id);
        else if (e->proc) out.emplace_back(e->node, e->proc->controller);
    }
    return out;
}

bool DistSystem::node_creation(Term node, uint32_t* creation) {
    auto e = find(node);
    if (!e) return false;
    std::lock_guard lock(e->mu);
    if (e->state == ConnState::Idle && e->creation == 0) return false;
    *creation = e->creation;
    return true;
}

Term DistSystem::stable_id(Term id) {
    std::string key;
    std::vector<uint8_t> bytes;
    EncodeOptions o;
    o.node = &vm.node;
    if (!encode_external(id, bytes, o)) return id;
    key.assign(bytes.begin(), bytes.end());
    std::lock_guard lock(stable_mu_);
    auto [it, fresh] = stable_.try_emplace(key, NIL);
    if (fresh) it->second = copy_term(id, stable_area_);
    return it->second;
}

uint32_t DistSystem::new_connection(DistEntry& e) {
    std::lock_guard lock(e.mu);
    if (e.state == ConnState::Idle) {
        e.state = ConnState::Pending;
        e.conn_id = (e.conn_id + 1) & 0xFFFFFF;  // erts' connection ids are 24 bits
    }
    return e.conn_id;
}

bool DistSystem::abort_pending(DistEntry& e, uint32_t conn_id) {
    {
        std::lock_guard lock(e.mu);
        if (e.state != ConnState::Pending || e.conn_id != conn_id) return false;
    }
    connection_lost(e, conn_id);
    return true;
}

void DistSystem::auto_connect(DistEntry& e) {
    // erts asks net_kernel with {auto_connect, Node, DHandle}; without a net_kernel this
    // node is not alive and the connection is refused at once.
    Term nk = vm.procs.whereis(&vm.root(), atom("net_kernel"));
    if (!is_local_pid(nk)) {
        connection_lost(e, e.conn_id);
        return;
    }
    LiteralArea scratch;
    Term handle = make_tuple(scratch, {make_small(SWord(e.conn_id)), e.node});
    post_message(vm, nk, make_tuple(scratch, {atom("auto_connect"), e.node, handle}));
}

namespace {
// The encoding of the message this thread is sending: its buffers stay from one message to the
// next (two vectors per message, and their growth, were 4.5% of a sending node's time).
struct SendScratch {
    Queued q;
    AtomCacheRefs refs;
    bool busy = false;
};
thread_local SendScratch tls_send;
}  // namespace

bool DistSystem::transmit(DistEntry& e, Term control, Term payload, bool connect, const Word* spawn_ref) {
    // On a connection that is up, and agreed on DIST_HDR_ATOM_CACHE, atoms go through its
    // cache. A message that waits for a connection is written without references.
    std::shared_ptr<Port> port;
    std::shared_ptr<ProcChannel> proc;
    uint64_t flags = 0;
    {
        std::lock_guard lock(e.mu);
        if (e.state == ConnState::Up) port = e.port, proc = e.proc, flags = e.flags;
    }
    std::unique_ptr<SendScratch> own;  // a nested send (none is known) gets buffers of its own
    SendScratch* sc = &tls_send;
    if (sc->busy) sc = (own = std::make_unique<SendScratch>()).get();
    sc->busy = true;
    struct Release {
        SendScratch* sc;
        ~Release() { sc->busy = false; }
    } release{sc};
    Queued& q = sc->q;
    q.control.clear();
    q.payload.clear();
    sc->refs.clear();
    EncodeOptions o;
    o.node = &vm.node;
    if ((port || proc) && (flags & flag::DIST_HDR_ATOM_CACHE)) o.atom_refs = &sc->refs;
    if (!encode_external(control, q.control, o)) return false;
    if (is_value(payload) && !encode_external(payload, q.payload, o)) return false;
    q.spawn_request = spawn_ref != nullptr;
    if (spawn_ref) std::copy(spawn_ref, spawn_ref + 3, q.spawn_ref);
    if (port) return write_on(e, port, flags, q, sc->refs.atoms());
    if (proc) return queue_on(e, *proc, q, sc->refs.atoms());
    return transmit_encoded(e, Queued(q), connect);
}

bool DistSystem::transmit_spawn(DistEntry& e, Term control, Term payload, const Word ref[3]) {
    return transmit(e, control, payload, true, ref);
}

void DistSystem::fail_spawn(DistEntry& e, const Word ref[3], Term reason) {
    PendingSpawn ps;
    {
        std::lock_guard lock(e.mu);
        auto it = std::find_if(e.spawns.begin(), e.spawns.end(), [&](auto& s) {
            return s.ref[0] == ref[0] && s.ref[1] == ref[1] && s.ref[2] == ref[2];
        });
        if (it == e.spawns.end()) return;
        ps = *it;
        e.spawns.erase(it);
    }
    if (!ps.reply_error) return;
    LiteralArea area;
    Term tag = ps.reply_tag ? ps.reply_tag->term : atom("spawn_reply");
    Term r = make_ref_from_number(area, ref[0] | (ref[1] << 18) | (ref[2] << 50));
    post_message(vm, ps.requester, make_tuple(area, {tag, r, am::error, reason}));
}

bool DistSystem::transmit_encoded(DistEntry& e, Queued&& q, bool connect) {
    std::shared_ptr<Port> port;
    std::shared_ptr<ProcChannel> proc;
    uint64_t flags;
    {
        std::unique_lock lock(e.mu);
        switch (e.state) {
        case ConnState::Idle: {
            if (!connect || !vm.node.is_alive()) return false;
            e.state = ConnState::Pending;
            e.conn_id = (e.conn_id + 1) & 0xFFFFFF;
            e.pending.push_back(std::move(q));
            lock.unlock();
            auto_connect(e);
            return true;
        }
        case ConnState::Pending:
            e.pending.push_back(std::move(q));
            return true;
        case ConnState::Up:
            port = e.port;
            proc = e.proc;
            flags = e.flags;
            break;
        }
    }
    if (proc) return queue_on(e, *proc, q, {});
    return write_on(e, port, flags, q, {});
}

bool DistSystem::queue_on(DistEntry& e, ProcChannel& ch, const Queued& q, std::span<const Term> atoms) {
    if (q.spawn_request && !(ch.flags & flag::SPAWN)) {
        fail_spawn(e, q.spawn_ref, atom("notsup"));
        return true;
    }
    ch.queue(q, atoms);
    return true;
}

bool DistSystem::attach_process(DistEntry& e, Term pid, uint64_t flags, uint32_t creation) {
    std::vector<Queued> queued;
    std::shared_ptr<ProcChannel> ch;
    {
        std::lock_guard lock(e.mu);
        if (e.state != ConnState::Pending) return false;
        ch = std::make_shared<ProcChannel>(*this, find(e.node), e.conn_id, pid, flags);
        e.state = ConnState::Up;
        e.flags = flags;
        e.creation = creation;
        e.hidden = !(flags & flag::PUBLISHED);
        e.proc = ch;
        queued.swap(e.pending);
        // Queued under e.mu: nothing sent from now on (it waits for e.mu) overtakes them.
        for (const Queued& q : queued)
            if (!q.spawn_request || (flags & flag::SPAWN)) ch->queue(q, {});
    }
    for (const Queued& q : queued)
        if (q.spawn_request && !(flags & flag::SPAWN)) fail_spawn(e, q.spawn_ref, atom("notsup"));
    {
        std::lock_guard lock(controllers_mu_);
        ++controllers_[pid.raw];
    }
    // The controller's exit ends the connection; one already gone ends it at once.
    if (native_monitor(vm, pid, ch) == 0) ch->on_exit(pid, 0);
    return true;
}

bool DistSystem::is_controller(Term pid) {
    std::lock_guard lock(controllers_mu_);
    return controllers_.count(pid.raw) != 0;
}

bool DistSystem::write_on(DistEntry& e, const std::shared_ptr<Port>& port, uint64_t flags, const Queued& q,
                          std::span<const Term> atoms) {
    if (q.spawn_request && !(flags & flag::SPAWN)) {
        fail_spawn(e, q.spawn_ref, atom("notsup"));
        return true;
    }
    if (Port* held = Carrier::port_held(); held == port.get()) {
        write_frames(port, q, flags, atoms);  // a reply from the carrier's own reader
        return true;
    }
    std::lock_guard pl(port->lock);
    if (port->closed) return false;
    write_frames(port, q, flags, atoms);
    return true;
}

void DistSystem::write_frames(const std::shared_ptr<Port>& port_ref, const Queued& q, uint64_t flags,
                              std::span<const Term> atoms) {
    Port& port = *port_ref;
    if (!port.driver) return;
    FrameOptions fo;
    fo.header_mode = (flags & (flag::DIST_HDR_ATOM_CACHE | flag::FRAGMENTS)) != 0;
    fo.fragments = (flags & flag::FRAGMENTS) != 0;
    // All of one message's fragments are written under the port's lock, so no two messages'
    // fragments interleave and any nonzero id is unique among unfinished ones.
    fo.sequence_id = 1;
    auto* carrier = static_cast<Carrier*>(port.dist.get());
    if (!atoms.empty()) {
        // The header that tells the receiver which atom each reference stands for is made
        // here, under the port's lock, in the order the messages go out.
        if (!carrier) return;
        carrier->send_cache_header(atoms, fo.cache_header);
    }
    (void)for_each_packet(q.control, q.payload, fo, [&](const PacketPieces& pk) {
        // Small packets sent in a time slice wait for its end (scheduler/slice_output.hpp).
        if (carrier && carrier->hold(port_ref, pk)) return;
        port.driver->output_gather(pk.view(), pk.size);
    });
}

bool DistSystem::attach_port(Process*, DistEntry& e, Term port_id, uint64_t flags, uint32_t creation) {
    LockedPort lp = ports_of(vm).lock_port(port_id);
    if (!lp || !lp->driver || lp->dist) return false;
    std::vector<Queued> queued;
    {
        std::lock_guard lock(e.mu);
        if (e.state != ConnState::Pending) return false;
        e.state = ConnState::Up;
        e.flags = flags;
        e.creation = creation;
        e.hidden = !(flags & flag::PUBLISHED);
        e.port = lp.port;
        queued.swap(e.pending);
        auto carrier = std::make_shared<Carrier>(*this, find(e.node), e.conn_id, lp.get(), flags, port_id);
        lp->dist = carrier;
    }
    // What was sent while the connection was pending goes first, in order; the port's lock
    // is held, so nothing sent from now on overtakes it.
    for (const Queued& q : queued) {
        if (q.spawn_request && !(flags & flag::SPAWN)) fail_spawn(e, q.spawn_ref, atom("notsup"));
        else write_frames(lp.port, q, flags, {});
    }
    return true;
}

bool DistSystem::monitor_node(Term pid, DistEntry& e, bool on) {
    std::unique_lock lock(e.mu);
    auto it = std::find_if(e.node_monitors.begin(), e.node_monitors.end(), [&](auto& m) { return m.first == pid; });
    if (!on) {
        if (it != e.node_monitors.end() && --it->second == 0) e.node_monitors.erase(it);
        return true;
    }
    bool connect = e.state == ConnState::Idle;
    if (connect) {
        // As erts: monitoring a node sets up a connection to it.
        if (!vm.node.is_alive()) return false;
        e.state = ConnState::Pending;
        e.conn_id = (e.conn_id + 1) & 0xFFFFFF;
    }
    if (it != e.node_monitors.end()) ++it->second;
    else e.node_monitors.emplace_back(pid, 1);
    lock.unlock();
    if (connect) auto_connect(e);
    return true;
}

}  // namespace beam::dist

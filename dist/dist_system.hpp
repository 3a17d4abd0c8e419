// The distribution layer of one VM (design notes §12): the table of other nodes, the
// connections net_kernel sets up, and the control messages that carry signals between this
// node's processes and theirs. OTP's own Erlang code (net_kernel, dist_util, inet_tcp_dist)
// makes the connections; it hands each finished one to erlang:setnode/3, after which the
// tcp_inet port is this layer's carrier (PortDriver's DistChannel): this layer writes control
// messages to it and reads what comes from it.
#pragma once

#include <atomic>
#include <memory>
#include <span>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "dist/dist_entry.hpp"
#include "scheduler/remote_signals.hpp"
#include "vm/heap.hpp"

namespace beam {
class VM;
class Process;
namespace dist {

class ProcChannel;

class DistSystem final : public RemoteSignals {
public:
    explicit DistSystem(VM& vm);
    ~DistSystem() override;

    // ---- RemoteSignals (scheduler/remote_signals.hpp) ----
    bool route(Term to, Signal* s) override;
    void send(Process* from, Term to, Term msg, Term token) override;
    Term stable_id(Term external_id) override;
    bool route_named(Term node, Term name, Signal* s) override;
    bool node_creation(Term node, uint32_t* creation) override;

    // Every entry (spawn_request_abandon/1 looks for its request in each).
    std::vector<std::shared_ptr<DistEntry>> all_entries();

    // ---- the node table ----
    std::shared_ptr<DistEntry> find(Term node);
    std::shared_ptr<DistEntry> find_or_insert(Term node);
    // Nodes with a connection up, hidden or visible as asked.
    std::vector<std::shared_ptr<DistEntry>> connected(bool visible, bool hidden);
    // erlang:system_info(dist_ctrl): each connection that is up, {Node, its carrier port or
    // controlling process}.
    std::vector<std::pair<Term, Term>> carriers();

    // ---- this node's own life (dist/this_node.cpp) ----
    // erlang:setnode/2: this node is `name`; subscribers hear {nodeup, Name, ...}; the node
    // stays alive while `net_kernel` lives.
    void this_node_alive(Term name, uint32_t creation, Term net_kernel);
    // net_kernel has exited with `reason`: every connection ends, then the node is not alive.
    void net_kernel_exited(Term reason);

    // ---- what net_kernel and dist_util call (dist/dist_bifs.cpp) ----
    // erts_internal:new_connection/1: Pending (a new connection id) unless one is pending or up.
    uint32_t new_connection(DistEntry& e);
    // erts_internal:abort_pending_connection/2: true if it was pending with that id.
    bool abort_pending(DistEntry& e, uint32_t conn_id);
    // erts_internal:create_dist_channel/3 with a port carrier: false (badarg) unless pending
    // and the port is an open tcp_inet-like driver port that carries no other connection.
    bool attach_port(Process* caller, DistEntry& e, Term port, uint64_t flags, uint32_t creation);
    // The same with a local process as carrier (dist/proc_channel.hpp): false unless
    // pending and the process is alive. The channel made is in e.proc.
    bool attach_process(DistEntry& e, Term pid, uint64_t flags, uint32_t creation);
    // Whether `pid` carries a connection (erts' distribution-process flag): the dist_ctrl_*
    // natives answer any other caller notsup before they look at their arguments.
    bool is_controller(Term pid);
    // The connection is gone (its port closed, or net_kernel gave up): every link and monitor
    // across it ends with noconnection; monitor_node's callers get {nodedown, Node}.
    // `reason`: why (the carrier port's exit reason; normal, or none, is connection_closed).
    void connection_lost(DistEntry& e, uint32_t conn_id, Term reason = NIL);
    // monitor_node(Node, Flag) from `pid`. False if the node is unreachable now (the caller
    // then gets {nodedown, Node} at once).
    bool monitor_node(Term pid, DistEntry& e, bool on);
    // process_flag(monitor_nodes | {monitor_nodes, Opts}, Bool): `key` is the option set
    // (bifs/system_process_flags.cpp's encoding: 0 plain, else 1 + option bits).
    void subscribe_nodes(Term pid, uint32_t key, bool on);
    // erts_debug:get_internal_state(monitoring_nodes): [{Pid, Opts}], one per live
    // subscription, Opts as erts lists them ([nodedown_reason, {node_type, T}] when set).
    Term monitoring_nodes(Process* p);
    // {nodeup, ...} / {nodedown, ...} to every subscriber whose options take it.
    void node_event(Term node, bool hidden, uint32_t conn_id, bool up, Term reason);

    // A control message (and payload, NON_VALUE for none) to the node: framed and written on
    // the connection, queued if pending, auto-connected if idle and `connect`. False when
    // the node cannot be reached (not alive, or auto-connect refused).
    // spawn_ref: the message is SPAWN_REQUEST with this ReqId (see transmit_spawn).
    bool transmit(DistEntry& e, Term control, Term payload, bool connect = true, const Word* spawn_ref = nullptr);
    // The same for SPAWN_REQUEST ReqId: a node that cannot spawn (no SPAWN flag, e.g. a C
    // node) is not sent it; the requester gets {Tag, ReqId, error, notsup}.
    bool transmit_spawn(DistEntry& e, Term control, Term payload, const Word ref[3]);
    // Answers a pending spawn request with an error reason (and forgets it).
    void fail_spawn(DistEntry& e, const Word ref[3], Term reason);

    VM& vm;

private:
    friend class Receiver;
    bool transmit_encoded(DistEntry& e, Queued&& q, bool connect);
    // Writes an encoded message on the connection's port (flags: the connection's); `atoms`
    // are what its ATOM_CACHE_REFs stand for. False when the port has closed.
    bool write_on(DistEntry& e, const std::shared_ptr<Port>& port, uint64_t flags, const Queued& q,
                  std::span<const Term> atoms);
    void write_frames(const std::shared_ptr<Port>& port, const Queued& q, uint64_t flags, std::span<const Term> atoms);
    // The same for a connection carried by a process: queued for its controller.
    bool queue_on(DistEntry& e, ProcChannel& ch, const Queued& q, std::span<const Term> atoms);
    void auto_connect(DistEntry& e);

    std::mutex subs_mu_;
    // After net_kernel exited and once no connection is left: nonode@nohost, {nodedown, ...}.
    void not_alive_when_unconnected();
    std::atomic<bool> net_kernel_gone_{false};
    std::atomic<Word> nodedown_reason_{0};
    std::mutex controllers_mu_;
    std::unordered_map<Word, int> controllers_;  // carrier process -> connections it carries
    std::vector<std::pair<Term, uint32_t>> subs_;  // one entry per subscription
    std::mutex table_mu_;
    std::unordered_map<Word, std::shared_ptr<DistEntry>> table_;
    std::mutex stable_mu_;
    LiteralArea stable_area_;  // other nodes' ids kept in link and monitor tables
    std::unordered_map<std::string, Term> stable_;  // by encoding
};

// The VM's distribution layer, created (and made the VM's RemoteSignals) on first use.
DistSystem& dist_of(VM& vm);

}  // namespace dist
}  // namespace beam

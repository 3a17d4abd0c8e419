// One other node as this node knows it (erts' DistEntry): the state of the connection to it,
// what was negotiated in the handshake, what waits for the connection to come up, and every
// link and monitor that crosses it, so that losing the connection can end them as erl does
// (noconnection exits and 'DOWN's, {nodedown, Node} to monitor_node's callers).
//
// Lock order: a port's lock, then an entry's `mu`, then the process signal queues (leaf).
// A sender never holds `mu` while it locks the port.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dist/dist_flags.hpp"
#include "scheduler/word_lock.hpp"
#include "vm/copy_term.hpp"
#include "vm/term.hpp"

namespace beam {
struct Port;
namespace dist {

class Receiver;
class ProcChannel;

enum class ConnState : uint8_t {
    Idle,     // no connection, none being set up
    Pending,  // net_kernel is setting one up (new_connection/1 or an auto-connect)
    Up,       // erlang:setnode/3 made a port (or a process) its carrier
};

// A link between a local process and one on the other node.
struct CrossLink {
    Term local;
    Term remote;  // stable (DistSystem::stable_id)
};

// monitor(process, Remote) made by a local process: `ref` is the local reference's words.
struct OutMonitor {
    Term local;
    Word ref[3];
    Term remote;  // the remote pid (stable), or NIL when monitored by name
    Term name;    // the registered name on the other node, or NIL
};

// A process of the other node monitors a local one. The local target keeps a reference of
// this node in its table (`surrogate`); the other node's own reference is kept encoded.
struct InMonitor {
    Term local;
    Word surrogate[3];
    Term remote;     // the monitoring pid (stable)
    Term name;       // monitored by registered name: the name, else NIL
    std::string ref; // the other node's reference, in the external format (with 131)
};

// spawn_request/5 to the other node, waiting for its SPAWN_REPLY.
struct PendingSpawn {
    Word ref[3];  // ReqId (a reference of this node)
    Term requester;
    std::shared_ptr<MessageBuffer> reply_tag;    // spawn_reply unless {reply_tag, Tag}
    std::shared_ptr<MessageBuffer> monitor_tag;  // {monitor, [{tag, Tag}]}: 'DOWN' replaced
    bool reply_success = true, reply_error = true;
};

// A control message and its payload as encoded by this node (each with its 131 byte), kept
// while the connection is pending: how it is framed depends on the flags agreed later.
struct Queued {
    std::vector<uint8_t> control;
    std::vector<uint8_t> payload;  // empty for a control message without one
    // A SPAWN_REQUEST (its ReqId's words): a node without the SPAWN capability cannot take
    // it, and the requester is answered notsup instead.
    bool spawn_request = false;
    Word spawn_ref[3] = {};
};

struct DistEntry {
    explicit DistEntry(Term n) : node(n) {}
    const Term node;

    WordLock mu;  // guards everything below
    ConnState state = ConnState::Idle;
    uint32_t conn_id = 0;   // of the current (or last) connection
    uint64_t flags = 0;     // agreed in the handshake
    uint32_t creation = 0;  // the other node's
    bool hidden = false;
    std::shared_ptr<Port> port;  // Up: the carrier port (null when a process carries it)
    std::shared_ptr<ProcChannel> proc;  // Up: the carrier process's channel (dist/proc_channel.hpp)
    std::vector<Queued> pending;
    std::vector<CrossLink> links;
    std::vector<OutMonitor> out_monitors;
    std::vector<InMonitor> in_monitors;
    std::vector<PendingSpawn> spawns;
    // Requests given up by spawn_request_abandon/1 whose reply has not come yet (ReqId words).
    std::vector<std::array<Word, 3>> abandoned;
    // monitor_node(Node, true): each caller, with how many times it asked.
    std::vector<std::pair<Term, uint32_t>> node_monitors;
    // Only the carrier's reader touches it (with the port's lock held).
    std::shared_ptr<Receiver> rx;
};

}  // namespace dist
}  // namespace beam

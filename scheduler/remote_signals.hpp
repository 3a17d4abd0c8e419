// Signals to processes of other nodes: the narrow face the distribution layer (dist/) shows
// the layers below it. deliver_signal, send and the link/monitor BIFs hand a signal whose
// target is another node's pid here instead of to the process table; the VM has no router
// until distribution is first used (VM::remote stays null and such signals are dropped, as
// on a node that is not alive).
#pragma once

#include "scheduler/signal.hpp"
#include "vm/term.hpp"

namespace beam {

class Process;

class RemoteSignals {
public:
    virtual ~RemoteSignals() = default;
    // A signal from a local process (or port) to `to`, another node's pid. True when the
    // signal was taken (sent, queued for a pending connection, or answered locally, e.g. a
    // link to an unreachable node answered with noconnection); false leaves it the caller's.
    virtual bool route(Term to, Signal* s) = 0;
    // `msg` from `from` to another node's pid, or to {Name, Node}; `token` is the seq_trace
    // token or NIL. Never fails: an unreachable node drops the message, as erl does.
    virtual void send(Process* from, Term to, Term msg, Term token) = 0;
    // The same pid, port or reference as a term that lives as long as the VM: links and
    // monitors keep other nodes' pids outside any heap.
    virtual Term stable_id(Term external_id) = 0;
    // A Monitor or Demonitor signal to the process registered as `name` on `node`
    // (monitor(process, {Name, Node})). Same contract as route.
    virtual bool route_named(Term node, Term name, Signal* s) = 0;
    // The creation of `node` as this node knows it (list_to_pid/1 and friends of another
    // node's text form); false for a node it has never had a connection with.
    virtual bool node_creation(Term node, uint32_t* creation) = 0;
};

}  // namespace beam

// This node's identity: its name (an atom) and creation, as erts' erts_this_node. A VM starts
// as nonode@nohost with creation 0 (what erl -noshell writes in term_to_binary(self())); the
// pair changes only at erlang:setnode/2 (becoming alive) and net_kernel:stop (back to
// nonode@nohost), and is read by every scheduler thread, so it is one atomic word holding both:
// readers never see the name of one setting with the creation of another, without a lock.
//
// Which ids are local: a pid, port or reference is local (an immediate, or a Sub::Ref box)
// exactly when the external format gave it this node's name and creation; every other one is
// external (vm/ext_ids.hpp) and keeps its own node and creation.
//
// The thread's identity: term order between a local id and an external one depends on this
// node's name and creation (erts compares nodes), and so does the node number erts prints in
// <N.Id.Serial>. compare_terms and display_string have no VM at hand, so each thread that runs
// a VM's processes (its schedulers, dirty schedulers) names that VM's identity once, with
// ThreadNodeScope; other threads (tests, the loader) see nonode@nohost/0.
#pragma once

#include <atomic>
#include <cstdint>

#include "vm/atom_table.hpp"
#include "vm/term.hpp"

namespace beam {

class NodeIdentity {
public:
    NodeIdentity() = default;
    NodeIdentity(Term name, uint32_t creation) : word_(pack(name, creation)) {}
    NodeIdentity(const NodeIdentity&) = delete;
    NodeIdentity& operator=(const NodeIdentity&) = delete;

    Term name() const { return make_atom(uint32_t(load() >> 32)); }
    uint32_t creation() const { return uint32_t(load()); }
    // Both, as one consistent pair.
    void get(Term& name, uint32_t& creation) const {
        uint64_t w = load();
        name = make_atom(uint32_t(w >> 32));
        creation = uint32_t(w);
    }
    void set(Term name, uint32_t creation) { word_.store(pack(name, creation), std::memory_order_release); }
    bool is_alive() const { return name() != am::nonode_at_nohost; }
    // Whether (name, creation) is this node: its ids decode as local ones.
    bool is_this(Term node, uint32_t creation) const { return load() == pack(node, creation); }

private:
    static uint64_t pack(Term name, uint32_t creation) { return uint64_t(atom_index(name)) << 32 | creation; }
    uint64_t load() const { return word_.load(std::memory_order_acquire); }

    std::atomic<uint64_t> word_{pack(am::nonode_at_nohost, 0)};
};

// nonode@nohost with creation 0: the identity of code that runs outside any VM's threads.
const NodeIdentity& not_alive_identity();

// The identity of the VM this thread works for (see above); not_alive_identity() by default.
const NodeIdentity& thread_node_identity();

// Makes `node` this thread's identity until the scope ends.
class ThreadNodeScope {
public:
    explicit ThreadNodeScope(const NodeIdentity& node);
    ~ThreadNodeScope();
    ThreadNodeScope(const ThreadNodeScope&) = delete;
    ThreadNodeScope& operator=(const ThreadNodeScope&) = delete;

private:
    const NodeIdentity* saved_;
};

}  // namespace beam

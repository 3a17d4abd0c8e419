#include "vm/node_identity.hpp"

namespace beam {

namespace {
thread_local const NodeIdentity* tls_node = nullptr;
}

const NodeIdentity& not_alive_identity() {
    static const NodeIdentity none;
    return none;
}

const NodeIdentity& thread_node_identity() { return tls_node ? *tls_node : not_alive_identity(); }

ThreadNodeScope::ThreadNodeScope(const NodeIdentity& node) : saved_(tls_node) { tls_node = &node; }
ThreadNodeScope::~ThreadNodeScope() { tls_node = saved_; }

}  // namespace beam

// Namespace sandboxes (vm/sandbox.hpp, docs/namespaces.md "Sandbox"): what a native does for a
// process whose namespace lacks a capability, and which Erlang-level functions a restricted
// namespace's export table binds to a refusal instead of their code.
#pragma once

#include <string_view>

#include "bifs/bif.hpp"
#include "vm/code_table.hpp"
#include "vm/process.hpp"
#include "vm/sandbox.hpp"

namespace beam {

// Raises error({capability_denied, Name}) in `p`; returns the non-value to return from a BIF.
Term capability_denied(Process* p, Capability c);

// Raises error({sandbox_limit, What}) (What: processes) in `p`; returns the non-value.
Term sandbox_limit_reached(Process* p, std::string_view what);

// `m` as a process of `ns` may have it: a namespace with max_heap_words caps every process's
// max_heap_size there (killed as erl kills one past its max_heap_size).
inline MaxHeapSize capped_max_heap(const Namespace& ns, MaxHeapSize m) {
    size_t cap = ns.policy().max_heap_words;
    if (cap != 0 && (m.size == 0 || m.size > cap)) m = MaxHeapSize{cap, true, true};
    return m;
}

// Messages and exit signals from a restricted namespace's processes: false when `to` is a
// process of the root registered under a name that namespace does not see (file_server_2,
// code_server, init, rex, ...). Hiding the names alone was not enough: erlang:processes/0
// and list_to_pid/1 give any pid. Such a signal is dropped, as one to a process that is gone.
bool sandbox_may_signal(Process* p, Term to);
inline bool sandbox_restricted(const Process* p) { return p->ns->policy().allowed != ALL_CAPABILITIES; }

// Before `p` creates an atom that does not exist yet: false (and the namespace's count left as
// it was) when its namespace has max_atoms and has made that many already. The count covers
// list_to_atom/1,2, binary_to_atom/2 and their kin, the way new atoms come from data.
inline bool sandbox_may_create_atom(Process* p) {
    if (!p->ns) return true;  // a process outside any VM (unit tests)
    uint64_t cap = p->ns->policy().max_atoms;
    if (cap == SandboxPolicy::UNLIMITED) [[likely]] return true;
    auto& made = p->ns->usage().atoms_created;
    if (made.fetch_add(1, std::memory_order_relaxed) < cap) return true;
    made.fetch_sub(1, std::memory_order_relaxed);
    return false;
}

// The check at the top of a native that needs `c`: one load and a predictable branch.
inline bool sandbox_allows(const Process* p, Capability c) { return p->ns->policy().allows(c); }

// For an export entry of a namespace with `policy`: the refusal it is bound to instead of
// M:F/A (file:*, erl_prim_loader:*, os:cmd/1,2, code's loading functions, init:stop/0,1, ...:
// Erlang functions that reach a root server or a port that the natives' own checks would
// name differently), or null. The natives are checked in themselves, since the loader binds
// calls of natives past the export table.
const BifSpec* sandbox_refusal(const SandboxPolicy& policy, Term module, Term function, uint32_t arity);

}  // namespace beam

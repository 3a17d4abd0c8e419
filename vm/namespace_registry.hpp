// The namespaces of one VM besides the root: creating them, naming them in Erlang terms, and
// destroying them. Design notes §5; the API is beamvm:namespace_* (bifs/system_namespaces.cpp),
// the semantics are in docs/namespaces.md.
//
// Lifetime. Threaded code and export funs hold raw Export pointers into a namespace's export
// table and processes hold Namespace pointers, so a Namespace object is never freed: destroy
// kills its processes, deletes and purges its modules (the purge kills processes elsewhere
// still running that code, makes its funs raise badfun, and frees the code), then retires the
// namespace (Namespace::retire) and moves the object to `retired_`. What stays behind per
// destroyed namespace is its export table (one entry per {M,F,A} referenced there), which an
// export fun made there may still point at; calls through it are resolved in the caller's
// namespace, so nothing ever jumps through a retired entry.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "vm/code_table.hpp"
#include "vm/term.hpp"

namespace beam {

class VM;
class TermAllocator;
class Process;

class NamespaceRegistry {
public:
    explicit NamespaceRegistry(VM* vm) : vm_(vm) {}

    // A new, empty namespace whose parent is the root.
    Namespace* create(Term name);

    // The opaque term: {beamvm_namespace, Id, Name} (the root is {beamvm_namespace, 0, root}).
    static Term to_term(TermAllocator& a, const Namespace& ns);
    // The namespace a term names, if it was made by to_term and the namespace is not freed
    // yet (a destroyed one whose processes are still being killed is returned: check
    // Namespace::destroyed). nullptr otherwise.
    Namespace* from_term(Term t);

    // Destroy, first step: refuses further loads and spawns, sends an exit signal with reason
    // `kill` from `from` to every process of `ns` that is not exiting yet, and returns their
    // pids. The caller waits for them to exit (beamvm:namespace_destroy/1 does, in Erlang:
    // a native cannot wait for processes that may need its own scheduler to die).
    std::vector<Term> kill_processes(Namespace& ns, Term from);
    // Destroy, last step, once no process of `ns` is left in the table: deletes and purges
    // every module, retires the namespace, drops it from the live set. Runs in a BIF of
    // `self`, with x0..x(live-1) live (the purge may collect the caller).
    void free(Namespace& ns, Process* self, Term* x, unsigned live);

    // Pids of the processes of `ns` in the process table; those already exiting (they run no
    // code any more, and are gone from the table a moment later) only if `exiting`.
    std::vector<Term> processes_of(const Namespace& ns, bool exiting = false);
    // Every live namespace but the root, oldest first; how many were destroyed.
    std::vector<Namespace*> live();
    size_t retired_count();
    size_t retired_export_entries();  // what destroyed namespaces still hold (see Lifetime)
    // Frees every namespace, children before the root goes (VM::~VM, once nothing runs).
    void clear();

private:
    VM* vm_;
    std::mutex mutex_;
    uint64_t next_id_ = 1;
    std::map<uint64_t, std::unique_ptr<Namespace>> live_;
    std::vector<std::unique_ptr<Namespace>> retired_;
};

}  // namespace beam

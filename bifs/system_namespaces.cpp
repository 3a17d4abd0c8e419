// beamvm:namespace_* — module namespaces, our extension (no OTP equivalent). Semantics and
// examples: docs/namespaces.md; the namespaces themselves: vm/code_table.hpp (module and
// export tables) and vm/namespace_registry.hpp (creation, the opaque term, destroy).
//
// beamvm:namespace_destroy/1 is Erlang (vm/erlang/beamvm.erl): it must wait for the killed
// processes to exit, which a native cannot do without blocking a scheduler they may need. It
// calls the two steps below, which live in beamvm_internal so the beamvm API stays the one the
// issue names.
#include <algorithm>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/sandbox_checks.hpp"
#include "bifs/system_code_loading.hpp"
#include "bifs/system_processes.hpp"
#include "vm/code_purge.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// The namespace `t` names, if it is usable: made by to_term and not being destroyed.
Namespace* usable(Process* p, Term t) {
    Namespace* ns = p->vm->namespaces.from_term(t);
    return ns && !ns->destroyed() ? ns : nullptr;
}

Term ns_term(Process* p, const Namespace& ns) { return NamespaceRegistry::to_term(*p, ns); }

// A new namespace with the caller's policy: unrestricted from the root and from unrestricted
// namespaces; from a restricted one, no more than its maker may do (or a sandboxed process
// would make itself an unrestricted namespace to spawn into).
Term new_namespace(Process* p, Term name) {
    Namespace* ns = p->vm->namespaces.create(name);
    ns->set_policy(p->ns->policy());  // before any process of it runs or any export entry is made there
    return ns_term(p, *ns);
}

Term namespace_new_0(Process* p, const Term*) { return new_namespace(p, am::undefined); }

Term namespace_new_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return new_namespace(p, a[0]);
}

// The capabilities in vm/sandbox.hpp's order, with their atoms.
constexpr Capability ALL_CAPS[] = {Capability::File,     Capability::Port,     Capability::Network,
                                   Capability::OsCmd,    Capability::CodeLoad, Capability::Halt};

// A proper list of capability atoms as bits; false on anything else.
bool capability_bits(Term list, uint32_t& bits) {
    bits = 0;
    for (; is_list(list); list = tail(list)) {
        bool known = false;
        for (Capability c : ALL_CAPS)
            if (head(list) == atom(capability_name(c))) bits |= uint32_t(c), known = true;
        if (!known) return false;
    }
    return is_nil(list);
}

// namespace_new(Name, Options): Options is a proper list of {allow, [Cap]} (only these),
// {deny, [Cap]} (all but these), applied in order to a policy that starts with every
// capability, and {max_processes, N}, {max_heap_size, Words}, {max_atoms, N} (docs/namespaces.md
// "Sandbox").
Term namespace_new_2(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    SandboxPolicy policy;
    Term opts = a[1];
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (!is_tuple(o) || tuple_arity(o) != 2) return p->badarg();
        Term k = tuple_elem(o, 0), v = tuple_elem(o, 1);
        uint32_t bits;
        if (k == atom("max_processes") || k == atom("max_heap_size") || k == atom("max_atoms")) {
            if (!is_small(v) || small_value(v) < 1) return p->badarg();
            if (k == atom("max_processes")) policy.max_processes = uint64_t(small_value(v));
            else if (k == atom("max_atoms")) policy.max_atoms = uint64_t(small_value(v));
            else policy.max_heap_words = size_t(small_value(v));
        } else if (!capability_bits(v, bits)) {
            return p->badarg();
        } else if (k == atom("allow")) {
            policy.allowed = bits;
        } else if (k == atom("deny")) {
            policy.allowed &= ~bits;
        } else {
            return p->badarg();
        }
    }
    if (!is_nil(opts)) return p->badarg();
    // From a restricted namespace, only a namespace allowed no more than the caller's, within
    // its limits.
    const SandboxPolicy& maker = p->ns->policy();
    policy.allowed &= maker.allowed;
    policy.max_processes = std::min(policy.max_processes, maker.max_processes);
    policy.max_atoms = std::min(policy.max_atoms, maker.max_atoms);
    if (maker.max_heap_words != 0)
        policy.max_heap_words = policy.max_heap_words == 0 ? maker.max_heap_words : std::min(policy.max_heap_words, maker.max_heap_words);
    Namespace* ns = p->vm->namespaces.create(a[0]);
    ns->set_policy(policy);  // before any process of it runs or any export entry is made there
    return ns_term(p, *ns);
}

// namespace_policy(Ns): #{allowed => [Cap], denied => [Cap], max_processes => N | infinity,
// max_heap_size => Words | infinity, max_atoms => N | infinity}, the capabilities in
// vm/sandbox.hpp's order.
Term namespace_policy_1(Process* p, const Term* a) {
    Namespace* ns = usable(p, a[0]);
    if (!ns) return p->badarg();
    std::vector<Term> allowed, denied;
    for (Capability c : ALL_CAPS) (ns->policy().allows(c) ? allowed : denied).push_back(atom(capability_name(c)));
    Term al = make_list_from(*p, allowed.data(), allowed.size());
    Term dl = make_list_from(*p, denied.data(), denied.size());
    const SandboxPolicy& pol = ns->policy();
    Term procs = pol.max_processes == SandboxPolicy::UNLIMITED ? atom("infinity") : make_integer(*p, int64_t(pol.max_processes));
    Term heap = pol.max_heap_words == 0 ? atom("infinity") : make_integer(*p, int64_t(pol.max_heap_words));
    Term atoms = pol.max_atoms == SandboxPolicy::UNLIMITED ? atom("infinity") : make_integer(*p, int64_t(pol.max_atoms));
    return map_from_pairs(*p, {{atom("allowed"), al}, {atom("denied"), dl}, {atom("max_processes"), procs},
                               {atom("max_heap_size"), heap}, {atom("max_atoms"), atoms}});
}

// As erlang:load_module/2 (bifs/system_code_loading.cpp: prepare, then commit), into `Ns`:
// {module, M}, or {error, badfile | not_purged | on_load}. A module with an on_load function
// waits for it, as after load_module; a process of `Ns` runs it with
// erlang:call_on_load_function/1 and erlang:finish_after_on_load/2.
Term namespace_load_3(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    Namespace* ns = usable(p, a[0]);
    if (!ns) return p->badarg();
    return load_module_into(p, *ns, a[1], a[2]);
}

// As erlang:purge_module/1 in `Ns` (processes using the old code are killed), answering
// whether there was old code to purge instead of raising when there was none.
Term namespace_purge_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    Namespace* ns = usable(p, a[0]);
    if (!ns || !is_atom(a[1])) return p->badarg();
    return make_bool(purge_old_code(p, const_cast<Term*>(a), 2, *ns, a[1], PurgeMode::Hard).purged);
}

// As code:delete/1 in `Ns`: true if the current version became old; false if there was none
// or an old one is in the way.
Term namespace_delete_module_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    Namespace* ns = usable(p, a[0]);
    if (!ns || !is_atom(a[1])) return p->badarg();
    return make_bool(!ns->has_old_code(a[1]) && ns->delete_module(a[1]));
}

Term namespace_spawn(Process* p, const Term* a, bool link) {
    Namespace* ns = usable(p, a[0]);
    if (!ns) return p->badarg();
    // A process may start processes only where they can do no more than it can: a sandboxed
    // process spawning into the root or an unrestricted namespace would leave its sandbox.
    // The error names the first capability the target has and the caller has not.
    if (uint32_t more = ns->policy().allowed & ~p->ns->policy().allowed) [[unlikely]]
        for (Capability c : ALL_CAPS)
            if (more & uint32_t(c)) return capability_denied(p, c);
    return spawn_in_namespace(p, *ns, a[1], a[2], a[3], link);
}
Term namespace_spawn_4(Process* p, const Term* a) { return namespace_spawn(p, a, false); }
Term namespace_spawn_link_4(Process* p, const Term* a) { return namespace_spawn(p, a, true); }

// The namespace of a live local process; badarg for anything else (a dead one included).
Term namespace_of_1(Process* p, const Term* a) {
    if (a[0] == p->pid) return ns_term(p, *p->ns);
    if (!is_local_pid(a[0])) return p->badarg();
    Process* q = p->vm->procs.lookup(a[0]);
    if (!q) return p->badarg();
    Namespace* ns = (q->sched.state.load(std::memory_order_acquire) & run_state::EXITED) ? nullptr : q->ns;
    ProcessTable::release(q);
    return ns ? ns_term(p, *ns) : p->badarg();
}

// The modules with a current version in `Ns` itself (not those it sees from the root), in
// atom order.
Term namespace_modules_1(Process* p, const Term* a) {
    Namespace* ns = usable(p, a[0]);
    if (!ns) return p->badarg();
    std::vector<Term> mods = ns->loaded_modules();
    std::sort(mods.begin(), mods.end(), [](Term x, Term y) { return atom_name(x) < atom_name(y); });
    return make_list_from(*p, mods.data(), mods.size());
}

// The namespace `t` names if the caller may destroy it: not the root, not its own.
Namespace* destroyable(Process* p, Term t) {
    Namespace* ns = p->vm->namespaces.from_term(t);
    return ns && ns != &p->vm->root() && ns != p->ns ? ns : nullptr;
}

// Destroy, step 1 (repeatable): kills every process of `Ns` that is not exiting yet; returns
// their pids for the caller to wait on.
Term internal_namespace_kill_1(Process* p, const Term* a) {
    Namespace* ns = destroyable(p, a[0]);
    if (!ns) return p->badarg();
    std::vector<Term> pids = p->vm->namespaces.kill_processes(*ns, p->pid);
    return make_list_from(*p, pids.data(), pids.size());
}

// Destroy, step 2: `retry` while a process of `Ns` is still in the process table (one that a
// dying process spawned, or one that sent its DOWN and is leaving the table), else frees the
// namespace's code and returns ok.
Term internal_namespace_free_1(Process* p, const Term* a) {
    Namespace* ns = destroyable(p, a[0]);
    if (!ns || !ns->destroyed()) return p->badarg();
    if (!p->vm->namespaces.processes_of(*ns, true).empty()) return atom("retry");
    p->vm->namespaces.free(*ns, p, const_cast<Term*>(a), 1);
    return am::ok;
}

const BifSpec table[] = {
    {"beamvm", "namespace_new", 0, &namespace_new_0},
    {"beamvm", "namespace_new", 1, &namespace_new_1},
    {"beamvm", "namespace_new", 2, &namespace_new_2},
    {"beamvm", "namespace_policy", 1, &namespace_policy_1},
    {"beamvm", "namespace_load", 3, &namespace_load_3},
    {"beamvm", "namespace_purge", 2, &namespace_purge_2},
    {"beamvm", "namespace_delete_module", 2, &namespace_delete_module_2},
    {"beamvm", "namespace_spawn", 4, &namespace_spawn_4},
    {"beamvm", "namespace_spawn_link", 4, &namespace_spawn_link_4},
    {"beamvm", "namespace_of", 1, &namespace_of_1},
    {"beamvm", "namespace_modules", 1, &namespace_modules_1},
    {"beamvm_internal", "namespace_kill", 1, &internal_namespace_kill_1},
    {"beamvm_internal", "namespace_free", 1, &internal_namespace_free_1},
};

}  // namespace

std::span<const BifSpec> namespace_bifs() { return table; }

}  // namespace beam

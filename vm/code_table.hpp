// Which code is current: per namespace, a module table (current and old version of each module)
// and an export table. Design notes §5.
//
// Export entries are created on first reference (an import, apply, an export fun) and never
// freed, so threaded code may hold raw Export pointers. A namespace other than the root sees
// the root's modules unless it loads its own version (shadowing); the root has no parent.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "vm/module.hpp"
#include "vm/result.hpp"
#include "vm/sandbox.hpp"
#include "vm/term.hpp"

namespace beam {

class VM;

struct MfaKey {
    Term module, function;
    uint32_t arity;
    bool operator==(const MfaKey&) const = default;
};
struct MfaKeyHash {
    size_t operator()(const MfaKey& k) const noexcept {
        return std::hash<Word>{}(k.module.raw * 31 + k.function.raw * 7 + k.arity);
    }
};

struct ModuleSlot {
    std::unique_ptr<ModuleCode> current;
    std::unique_ptr<ModuleCode> old;
    std::unique_ptr<ModuleCode> on_load;  // loaded, waiting for its on_load function to succeed
    bool purging = false;  // a purge of `old` is under way: no load may replace it meanwhile
};

class Namespace {
public:
    // `id` names it in beamvm:namespace_* terms (vm/namespace_registry.hpp); the root's is 0.
    Namespace(VM* vm, Namespace* parent, Term name, uint64_t id = 0);
    ~Namespace();

    // Finds or creates the export entry; a new one points at its undefined-function stub
    // (or at its BIF stub when the MFA is a native function).
    Export* export_entry(Term module, Term function, uint32_t arity);
    // This namespace's entry for the function that `e` names, `e` being an entry of another
    // namespace (or a detached one). Calls run in the caller's namespace: every external call
    // a process makes through code or an export fun of another namespace (a namespace's
    // process running the root's stdlib) comes here, so after the first time it is two
    // lock-free loads.
    Export* foreign(const Export* e);
    // The current version of `module` here (or inherited from the parent), or nullptr.
    ModuleCode* current(Term module);
    // Makes `code` the current version; the previous current becomes old (an existing old
    // version must have been purged first: NotPurged, and `code` stays the caller's). A version
    // with an on_load function is kept aside instead (OnLoad) until finish_on_load.
    enum class Commit { Loaded, OnLoad, NotPurged };
    Commit commit(std::unique_ptr<ModuleCode>& code);
    // The version waiting for its on_load function, or nullptr.
    ModuleCode* on_load_pending(Term module);
    // erlang:finish_after_on_load/2: keep makes the waiting version current (as commit does);
    // otherwise it is taken out and returned, for the caller to purge.
    std::unique_ptr<ModuleCode> finish_on_load(Term module, bool keep);
    // Every module currently loaded here (not including the parent's).
    std::vector<Term> loaded_modules();
    // erlang:delete_module/1: the current version becomes old and its exports go back to
    // their undefined stubs. False if there is no current version or old code is in the way.
    bool delete_module(Term module);
    bool has_old_code(Term module);
    ModuleCode* old_version(Term module);

    // The purge protocol (vm/code_purge.cpp): begin_purge marks the old version as being purged
    // and returns it (nullptr if there is none or another purge is at it); end_purge either
    // takes it out of the table, for the caller to free, or (refused) leaves it as it was.
    ModuleCode* begin_purge(Term module);
    std::unique_ptr<ModuleCode> end_purge(Term module, bool remove);

    VM* vm() const { return vm_; }
    Term name() const { return name_; }
    uint64_t id() const { return id_; }
    Namespace* parent() const { return parent_; }

    // ---- sandbox (vm/sandbox.hpp) ----
    // What this namespace's processes may do. Set once, right after creation and before any
    // process of it runs; the root's allows everything.
    const SandboxPolicy& policy() const { return policy_; }
    void set_policy(const SandboxPolicy& p) { policy_ = p; }
    SandboxUsage& usage() { return usage_; }

    // ---- namespace lifecycle (vm/namespace_registry.cpp) ----
    // Refuses further loads (commit answers NotPurged) once set: its processes are being killed.
    void mark_destroyed() { destroyed_.store(true, std::memory_order_release); }
    bool destroyed() const { return destroyed_.load(std::memory_order_acquire); }
    // Every module with a current, old or on_load-pending version here.
    std::vector<Term> modules_with_code();
    // Last step of destroy, once no process of it is left and its modules are purged: it
    // leaves its parent (whose loads stop updating it), its export entries go back to their
    // stubs and foreign()'s memo is freed. The object itself stays: export funs made here
    // may still point at its entries (callers resolve them in their own namespace).
    void retire();
    size_t export_count();  // entries in the export table (what a retired namespace keeps)

private:
    // Points the export entries of `module` here, and in the namespaces that inherit it from
    // here, at the version now current for them (or back to their stubs).
    void refresh_exports(Term module);
    Export* export_entry_locked(const MfaKey& key);  // export_entry without its memo
    void point_export(Export* e, ModuleCode* mc);
    // The function of `mc` that export `e` names, or null (e is then pointed at its stub).
    static const FunctionInfo* export_target(const Export* e, ModuleCode* mc);
    // Points `e` at `fi` of `mc`, or at its stub when `fi` is null.
    static void aim_export(Export* e, ModuleCode* mc, const FunctionInfo* fi);
    void leave_parent();

    // foreign()'s memo: source entry index -> this namespace's entry, in chunks allocated on
    // first use and never moved, so readers need no lock. 32 KB of chunk pointers, then 32 KB
    // per chunk of 4096 entries.
    static constexpr unsigned XLATE_CHUNK_BITS = 12;
    static constexpr size_t XLATE_CHUNK = size_t(1) << XLATE_CHUNK_BITS;
    static constexpr size_t XLATE_CHUNKS = size_t(1) << 12;  // 16M entries; beyond: no memo
    struct XlateTable {
        std::atomic<std::atomic<Export*>*> chunks[XLATE_CHUNKS] = {};
        std::vector<std::unique_ptr<std::atomic<Export*>[]>> owned;
    };
    std::atomic<XlateTable*> xlate_{nullptr};
    std::unique_ptr<XlateTable> xlate_owner_;

    VM* vm_;
    Namespace* parent_;
    std::vector<Namespace*> children_;  // namespaces whose parent this is
    Term name_;
    uint64_t id_;
    const uint64_t uid_;  // unique in the OS process, never reused (export_entry's memo)
    std::atomic<bool> destroyed_{false};
    SandboxPolicy policy_;
    SandboxUsage usage_;
    // One lock for a namespace and all that descend from its root: a change in one reaches
    // into its children's export tables.
    std::recursive_mutex own_mutex_;
    std::recursive_mutex& mutex_;
    std::unordered_map<MfaKey, std::unique_ptr<Export>, MfaKeyHash> exports_;
    std::unordered_map<Term, std::vector<Export*>> exports_by_module_;
    std::unordered_map<Term, ModuleSlot> modules_;
};

}  // namespace beam

// Which code is current: per namespace, a module table (current and old version of each module)
// and an export table. Design notes §5.
//
// Export entries are created on first reference (an import, apply, an export fun) and never
// freed, so threaded code may hold raw Export pointers. A namespace other than the root sees
// the root's modules unless it loads its own version (shadowing); the root has no parent.
// Shadowing is by indirection, not by copying addresses: an entry of a module this namespace
// has no version of points at its `inherit` stub, which jumps through the parent's entry, so
// whatever the root loads, reloads or deletes later is seen at once (docs/namespaces.md).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "vm/module.hpp"
#include "vm/result.hpp"
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
};

class Namespace {
public:
    // `id` names it in beamvm:namespace_* terms (vm/namespace_registry.hpp); the root's is 0.
    Namespace(VM* vm, Namespace* parent, Term name, uint64_t id = 0);

    // Finds or creates the export entry; a new one points at its undefined-function stub
    // (or at its BIF stub when the MFA is a native function).
    Export* export_entry(Term module, Term function, uint32_t arity);
    // This namespace's entry for the function that `e` names, `e` being an entry of another
    // namespace (or a detached one). Every external call a process makes through code or an
    // export fun of another namespace comes here (calls run in the caller's namespace), so
    // after the first time it is two lock-free loads.
    Export* foreign(const Export* e);
    // The current version of `module` here (or inherited from the parent), or nullptr.
    ModuleCode* current(Term module);
    // Makes `code` the current version; the previous current becomes old (an existing old
    // version must have been purged first).
    Result<void> commit(std::unique_ptr<ModuleCode> code);
    // Every module currently loaded here (not including the parent's).
    std::vector<Term> loaded_modules();
    // erlang:delete_module/1: the current version becomes old and its exports go back to
    // their undefined stubs. False if there is no current version or old code is in the way.
    bool delete_module(Term module);
    // erlang:purge_module/1: forgets the old version. Processes still running it are not
    // killed yet (hot code loading is a later issue); its memory is kept so they stay safe.
    bool purge_module(Term module);
    bool has_old_code(Term module);

    VM* vm() const { return vm_; }
    Term name() const { return name_; }
    uint64_t id() const { return id_; }
    Namespace* parent() const { return parent_; }

    // ---- namespace lifecycle (vm/namespace_registry.cpp) ----
    // Refuses further loads (commit fails) once set; processes of a destroyed namespace are
    // being killed.
    void mark_destroyed() { destroyed_.store(true, std::memory_order_release); }
    bool destroyed() const { return destroyed_.load(std::memory_order_acquire); }
    // Last step of destroy, after every module was deleted and purged: each export entry
    // becomes its undefined-function stub (export funs made here, still held elsewhere, then
    // raise undef) and forgets its code.
    void retire_exports();
    // Bytes of the module versions this namespace still holds (current, old, purged-but-kept).
    size_t code_bytes();
    // Every module with a current or an old version here.
    std::vector<Term> modules_with_code();

private:
    // True if this namespace has a current version of `module` (caller holds mutex_).
    bool owns(Term module) const;
    // Where an entry points while its function has no code here: the parent's entry when
    // this namespace has no version of the module, else the undefined-function stub.
    const Word* unbound_address(Export* e) const;

    // foreign()'s memo: source entry index -> this namespace's entry, in chunks allocated on
    // first use and never moved, so readers need no lock.
    // 32 KB of chunk pointers, then 32 KB per chunk of 4096 entries.
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
    Term name_;
    uint64_t id_;
    std::atomic<bool> destroyed_{false};
    std::recursive_mutex mutex_;
    std::unordered_map<MfaKey, std::unique_ptr<Export>, MfaKeyHash> exports_;
    std::unordered_map<Term, std::vector<Export*>> exports_by_module_;
    std::unordered_map<Term, ModuleSlot> modules_;
    std::vector<std::unique_ptr<ModuleCode>> purged_;  // see purge_module
};

}  // namespace beam

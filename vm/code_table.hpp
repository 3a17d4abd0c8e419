// Which code is current: per namespace, a module table (current and old version of each module)
// and an export table. Design notes §5.
//
// Export entries are created on first reference (an import, apply, an export fun) and never
// freed, so threaded code may hold raw Export pointers. A namespace other than the root sees
// the root's modules unless it loads its own version (shadowing); the root has no parent.
#pragma once

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
    Namespace(VM* vm, Namespace* parent, Term name);

    // Finds or creates the export entry; a new one points at its undefined-function stub
    // (or at its BIF stub when the MFA is a native function).
    Export* export_entry(Term module, Term function, uint32_t arity);
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

private:
    VM* vm_;
    Namespace* parent_;
    Term name_;
    std::recursive_mutex mutex_;
    std::unordered_map<MfaKey, std::unique_ptr<Export>, MfaKeyHash> exports_;
    std::unordered_map<Term, ModuleSlot> modules_;
    std::vector<std::unique_ptr<ModuleCode>> purged_;  // see purge_module
};

}  // namespace beam

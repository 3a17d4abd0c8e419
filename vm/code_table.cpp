#include "vm/code_table.hpp"

#include <fmt/format.h>

#include "bifs/bif.hpp"
#include "vm/interp.hpp"
#include "vm/vm.hpp"

namespace beam {

Namespace::Namespace(VM* vm, Namespace* parent, Term name) : vm_(vm), parent_(parent), name_(name) {}

Export* Namespace::export_entry(Term module, Term function, uint32_t arity) {
    std::lock_guard lock(mutex_);
    MfaKey key{module, function, arity};
    auto it = exports_.find(key);
    if (it != exports_.end()) return it->second.get();
    auto e = std::make_unique<Export>();
    e->module = module;
    e->function = function;
    e->arity = arity;
    if (module == am::erlang && atom_name(function) == "hibernate" && arity == 3) {
        // Reached through apply or fun erlang:hibernate/3: the instruction does the work.
        e->stub[0] = handler_word(Op::hibernate);
        e->stub[1] = 0;
    } else if (const BifSpec* b = find_bif(module, function, arity)) {
        e->bif = b;
        e->stub[0] = handler_word(Op::bif_body_p);
        e->stub[1] = reinterpret_cast<Word>(b);
    } else {
        e->stub[0] = handler_word(Op::call_undefined_p);
        e->stub[1] = reinterpret_cast<Word>(e.get());
    }
    e->address.store(e->stub, std::memory_order_release);
    // A namespace sees its parent's code until it loads its own version of the module.
    if (parent_ && !modules_.contains(module)) {
        Export* pe = parent_->export_entry(module, function, arity);
        if (pe->is_loaded() && !e->bif) {
            e->address.store(pe->address.load(std::memory_order_acquire), std::memory_order_release);
            e->code = pe->code;
        }
    }
    Export* raw = e.get();
    exports_.emplace(key, std::move(e));
    return raw;
}

ModuleCode* Namespace::current(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    if (it != modules_.end() && it->second.current) return it->second.current.get();
    return parent_ ? parent_->current(module) : nullptr;
}

Result<void> Namespace::commit(std::unique_ptr<ModuleCode> code) {
    std::lock_guard lock(mutex_);
    ModuleSlot& slot = modules_[code->name];
    if (slot.current && slot.old)
        return make_error(fmt::format("module {} has old code that must be purged first", atom_name(code->name)));
    ModuleCode* mc = code.get();
    if (slot.current) slot.old = std::move(slot.current);
    slot.current = std::move(code);
    // Point this module's exported functions at the new version. Exports that are BIFs stay
    // native (OTP's own lists.beam defines lists:reverse/2 as a stub that the BIF replaces).
    for (auto& [name, arity] : mc->exports) {
        Export* e = export_entry(mc->name, name, arity);
        if (e->bif) continue;
        const FunctionInfo* fi = nullptr;
        for (const FunctionInfo& f : mc->functions)
            if (f.name == name && f.arity == arity) fi = &f;
        if (!fi) continue;
        e->code = mc;
        e->address.store(fi->entry, std::memory_order_release);
    }
    return {};
}

bool Namespace::delete_module(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    if (it == modules_.end() || !it->second.current || it->second.old) return false;
    ModuleSlot& slot = it->second;
    for (auto& [key, e] : exports_) {
        if (key.module != module || e->bif) continue;
        e->address.store(e->stub, std::memory_order_release);
        e->code = nullptr;
    }
    slot.old = std::move(slot.current);
    return true;
}

bool Namespace::purge_module(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    if (it == modules_.end() || !it->second.old) return false;
    purged_.push_back(std::move(it->second.old));
    return true;
}

bool Namespace::has_old_code(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    return it != modules_.end() && it->second.old;
}

std::vector<Term> Namespace::loaded_modules() {
    std::lock_guard lock(mutex_);
    std::vector<Term> out;
    for (auto& [name, slot] : modules_)
        if (slot.current) out.push_back(name);
    return out;
}

}  // namespace beam

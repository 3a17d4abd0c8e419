#include "vm/code_table.hpp"

#include <fmt/format.h>

#include "bifs/bif.hpp"
#include "vm/interp.hpp"
#include "vm/vm.hpp"

namespace beam {

Namespace::Namespace(VM* vm, Namespace* parent, Term name, uint64_t id)
    : vm_(vm), parent_(parent), name_(name), id_(id) {}

bool Namespace::owns(Term module) const {
    auto it = modules_.find(module);
    return it != modules_.end() && it->second.current;
}

const Word* Namespace::unbound_address(Export* e) const {
    return parent_ && !owns(e->module) && !destroyed() ? e->inherit : e->stub;
}

Export* Namespace::export_entry(Term module, Term function, uint32_t arity) {
    std::lock_guard lock(mutex_);
    MfaKey key{module, function, arity};
    auto it = exports_.find(key);
    if (it != exports_.end()) return it->second.get();
    auto e = std::make_unique<Export>();
    e->module = module;
    e->function = function;
    e->arity = arity;
    e->owner = this;
    static std::atomic<uint32_t> next_index{0};  // shared by every VM: only needs to be unique
    e->index = next_index.fetch_add(1, std::memory_order_relaxed);
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
    bool native = e->stub[0] != handler_word(Op::call_undefined_p);  // a BIF or hibernate
    // A namespace sees its parent's code until it loads its own version of the module.
    if (parent_ && !native) {
        e->inherit[0] = handler_word(Op::call_inherited_p);
        e->inherit[1] = reinterpret_cast<Word>(parent_->export_entry(module, function, arity));
    }
    e->address.store(native ? e->stub : unbound_address(e.get()), std::memory_order_release);
    Export* raw = e.get();
    exports_.emplace(key, std::move(e));
    exports_by_module_[module].push_back(raw);
    return raw;
}

Export* Namespace::foreign(const Export* e) {
    uint32_t i = e->index;
    if (i >= XLATE_CHUNKS * XLATE_CHUNK) return export_entry(e->module, e->function, e->arity);
    std::atomic<Export*>* chunk = nullptr;
    if (XlateTable* t = xlate_.load(std::memory_order_acquire)) {
        chunk = t->chunks[i >> XLATE_CHUNK_BITS].load(std::memory_order_acquire);
        if (chunk)
            if (Export* r = chunk[i & (XLATE_CHUNK - 1)].load(std::memory_order_acquire)) return r;
    }
    Export* r = export_entry(e->module, e->function, e->arity);
    std::lock_guard lock(mutex_);
    if (!xlate_owner_) {
        xlate_owner_ = std::make_unique<XlateTable>();
        xlate_.store(xlate_owner_.get(), std::memory_order_release);
    }
    XlateTable& t = *xlate_owner_;
    chunk = t.chunks[i >> XLATE_CHUNK_BITS].load(std::memory_order_acquire);
    if (!chunk) {
        t.owned.push_back(std::make_unique<std::atomic<Export*>[]>(XLATE_CHUNK));
        chunk = t.owned.back().get();
        t.chunks[i >> XLATE_CHUNK_BITS].store(chunk, std::memory_order_release);
    }
    chunk[i & (XLATE_CHUNK - 1)].store(r, std::memory_order_release);
    return r;
}

ModuleCode* Namespace::current(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    if (it != modules_.end() && it->second.current) return it->second.current.get();
    return parent_ ? parent_->current(module) : nullptr;
}

Result<void> Namespace::commit(std::unique_ptr<ModuleCode> code) {
    std::lock_guard lock(mutex_);
    if (destroyed()) return make_error(fmt::format("namespace {} is destroyed", atom_name(name_)));
    ModuleSlot& slot = modules_[code->name];
    if (slot.current && slot.old)
        return make_error(fmt::format("module {} has old code that must be purged first", atom_name(code->name)));
    ModuleCode* mc = code.get();
    if (slot.current) slot.old = std::move(slot.current);
    slot.current = std::move(code);
    // Functions of the module that this version does not export are undefined here, not the
    // previous version's nor (outside the root) the parent's.
    for (Export* e : exports_by_module_[mc->name])
        if (!e->bif && e->stub[0] == handler_word(Op::call_undefined_p)) {
            bool exported = false;
            for (auto& [name, arity] : mc->exports) exported |= name == e->function && arity == e->arity;
            if (!exported) {
                e->address.store(e->stub, std::memory_order_release);
                e->code = nullptr;
            }
        }
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
    slot.old = std::move(slot.current);
    // With no current version left, a namespace other than the root inherits the parent's.
    for (Export* e : exports_by_module_[module]) {
        if (e->bif || e->stub[0] != handler_word(Op::call_undefined_p)) continue;
        e->address.store(unbound_address(e), std::memory_order_release);
        e->code = nullptr;
    }
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

void Namespace::retire_exports() {
    std::lock_guard lock(mutex_);
    // Only this namespace's processes read the memo, and none is left.
    xlate_.store(nullptr, std::memory_order_release);
    xlate_owner_.reset();
    for (auto& [key, e] : exports_) {
        if (e->bif || e->stub[0] != handler_word(Op::call_undefined_p)) continue;
        e->address.store(e->stub, std::memory_order_release);
        e->code = nullptr;
    }
}

std::vector<Term> Namespace::modules_with_code() {
    std::lock_guard lock(mutex_);
    std::vector<Term> out;
    for (auto& [name, slot] : modules_)
        if (slot.current || slot.old) out.push_back(name);
    return out;
}

size_t Namespace::code_bytes() {
    std::lock_guard lock(mutex_);
    size_t n = 0;
    for (auto& [name, slot] : modules_) {
        if (slot.current) n += slot.current->memory_bytes();
        if (slot.old) n += slot.old->memory_bytes();
    }
    for (auto& mc : purged_) n += mc->memory_bytes();
    return n;
}

}  // namespace beam

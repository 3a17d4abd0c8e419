#include "vm/code_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "bifs/bif.hpp"
#include "bifs/sandbox_checks.hpp"
#include "nif/debug_dirty.hpp"
#include "vm/host_link.hpp"
#include "vm/interp.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// Each thread's last export lookups. apply/3 and every call M:F(...) with a variable module
// (ssl calls its transport so, per record) find their entry here instead of under the
// namespace tree's lock, which two schedulers took in turns (the largest share of a TLS
// echo's futex calls). Entries are never freed while their namespace lives, and a
// namespace's uid is never reused, so a slot that matches is still right.
struct ExportMemo {
    uint64_t ns_uid;
    Word module, function;
    uint32_t arity;
    Export* entry;
};
constexpr size_t EXPORT_MEMO = 512;
thread_local ExportMemo tls_export_memo[EXPORT_MEMO];
std::atomic<uint64_t> g_next_ns_uid{1};

}  // namespace

Namespace::Namespace(VM* vm, Namespace* parent, Term name, uint64_t id)
    : vm_(vm), parent_(parent), name_(name), id_(id), uid_(g_next_ns_uid.fetch_add(1)), mutex_(parent ? parent->mutex_ : own_mutex_) {
    if (parent_) {
        std::lock_guard lock(mutex_);
        parent_->children_.push_back(this);
    }
}

Namespace::~Namespace() { leave_parent(); }

void Namespace::leave_parent() {
    if (parent_) {
        std::lock_guard lock(mutex_);
        auto& c = parent_->children_;
        c.erase(std::remove(c.begin(), c.end(), this), c.end());
    }
}

Export* Namespace::export_entry(Term module, Term function, uint32_t arity) {
    MfaKey key{module, function, arity};
    ExportMemo& memo = tls_export_memo[(MfaKeyHash{}(key) ^ uid_) % EXPORT_MEMO];
    if (memo.entry && memo.ns_uid == uid_ && memo.module == module.raw && memo.function == function.raw &&
        memo.arity == arity)
        return memo.entry;
    Export* found = export_entry_locked(key);
    memo = ExportMemo{uid_, module.raw, function.raw, arity, found};
    return found;
}

Export* Namespace::export_entry_locked(const MfaKey& key) {
    Term module = key.module, function = key.function;
    uint32_t arity = key.arity;
    std::lock_guard lock(mutex_);
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
        e->instruction = true;
        e->stub[0] = handler_word(Op::hibernate);
        e->stub[1] = 0;
    } else if (module == am::erlang && atom_name(function) == "call_on_load_function" && arity == 1) {
        e->instruction = true;
        e->stub[0] = handler_word(Op::call_on_load_function);
        e->stub[1] = 0;
    } else if (const BifSpec* d = sandbox_refusal(policy_, module, function, arity)) {
        // A restricted namespace (vm/sandbox.hpp): this function would reach what its policy
        // refuses, so the entry raises {capability_denied, Cap} instead (point_export leaves
        // an entry with a `bif` as it is).
        e->bif = d;
        e->stub[0] = handler_word(Op::bif_body_p);
        e->stub[1] = reinterpret_cast<Word>(d);
    } else if (const NifFunction* h = vm_->host ? vm_->host->host_function(module, function, arity) : nullptr) {
        // A function of the host program that embeds the VM (vm/host_link.hpp): the entry
        // runs it as a bound NIF, in place of any module's code (point_export keeps it).
        e->instruction = true;
        e->stub[0] = handler_word(Op::nif_slot_p);
        e->stub[1] = reinterpret_cast<Word>(h);
    } else if (const NifFunction* d = debug_dirty_function(module, function, arity)) {
        // erts_debug:dirty_cpu/2, dirty_io/2, dirty/3: built-in dirty NIFs (nif/debug_dirty.hpp),
        // bound here as erts binds its dirty BIFs, in place of erts_debug.beam's stubs.
        e->instruction = true;
        e->stub[0] = handler_word(Op::nif_slot_p);
        e->stub[1] = reinterpret_cast<Word>(d);
    } else if (const Standin* s = vm_->otp_boot ? nullptr : find_standin(module, function, arity)) {
        e->standin = true;
        e->stub[0] = handler_word(Op::call_standin_p);
        e->stub[1] = reinterpret_cast<Word>(export_entry(atom(s->target), function, arity));
    } else if (const BifSpec* b = find_bif_in(*vm_, module, function, arity)) {
        e->bif = b;
        e->stub[0] = handler_word(Op::bif_body_p);
        e->stub[1] = reinterpret_cast<Word>(b);
    } else {
        e->stub[0] = handler_word(Op::call_undefined_p);
        e->stub[1] = reinterpret_cast<Word>(e.get());
    }
    e->address.store(e->stub, std::memory_order_release);
    Export* raw = e.get();
    exports_.emplace(key, std::move(e));
    exports_by_module_[module].push_back(raw);
    // Loaded here, or (not shadowed) in an ancestor: point it at that version.
    if (ModuleCode* mc = current(module)) point_export(raw, mc);
    return raw;
}

Export* Namespace::foreign(const Export* e) {
    uint32_t i = e->index;
    if (i >= XLATE_CHUNKS * XLATE_CHUNK) return export_entry(e->module, e->function, e->arity);
    if (XlateTable* t = xlate_.load(std::memory_order_acquire))
        if (std::atomic<Export*>* chunk = t->chunks[i >> XLATE_CHUNK_BITS].load(std::memory_order_acquire))
            if (Export* r = chunk[i & (XLATE_CHUNK - 1)].load(std::memory_order_acquire)) return r;
    std::lock_guard lock(mutex_);
    Export* r = export_entry(e->module, e->function, e->arity);
    if (!xlate_owner_) {
        xlate_owner_ = std::make_unique<XlateTable>();
        xlate_.store(xlate_owner_.get(), std::memory_order_release);
    }
    XlateTable& t = *xlate_owner_;
    std::atomic<Export*>* chunk = t.chunks[i >> XLATE_CHUNK_BITS].load(std::memory_order_acquire);
    if (!chunk) {
        t.owned.push_back(std::make_unique<std::atomic<Export*>[]>(XLATE_CHUNK));
        chunk = t.owned.back().get();
        t.chunks[i >> XLATE_CHUNK_BITS].store(chunk, std::memory_order_release);
    }
    chunk[i & (XLATE_CHUNK - 1)].store(r, std::memory_order_release);
    return r;
}

void Namespace::point_export(Export* e, ModuleCode* mc) {
    // Exports that are BIFs stay native (OTP's own lists.beam defines lists:reverse/2 as a
    // stub that the BIF replaces). Stand-ins and instruction stubs stay too.
    if (e->bif || e->standin || e->instruction) return;
    aim_export(e, mc, export_target(e, mc));
}

void Namespace::aim_export(Export* e, ModuleCode* mc, const FunctionInfo* fi) {
    e->code = fi ? mc : nullptr;
    e->address.store(fi ? fi->entry : e->stub, std::memory_order_release);
}

const FunctionInfo* Namespace::export_target(const Export* e, ModuleCode* mc) {
    const FunctionInfo* fi = nullptr;
    if (mc) {
        for (auto& [name, arity] : mc->exports) {
            if (name != e->function || arity != e->arity) continue;
            for (const FunctionInfo& f : mc->functions)
                if (f.name == name && f.arity == arity) fi = &f;
        }
    }
    return fi;
}

void Namespace::refresh_exports(Term module) {
    ModuleCode* mc = current(module);
    auto it = exports_by_module_.find(module);
    if (it != exports_by_module_.end()) {
        // The targets first, then the stores back to back: a caller that calls two functions
        // of the module may otherwise see the new version of one and the old of the other for
        // as long as the search took (the soak's hot callers saw it). erts switches them all at
        // once (its code index); here the window is only the stores themselves.
        std::vector<std::pair<Export*, const FunctionInfo*>> targets;
        for (Export* e : it->second)
            if (!(e->bif || e->standin || e->instruction)) targets.emplace_back(e, export_target(e, mc));
        for (auto& [e, fi] : targets) aim_export(e, mc, fi);
    }
    for (Namespace* child : children_) {
        auto own = child->modules_.find(module);
        if (own == child->modules_.end() || !own->second.current) child->refresh_exports(module);
    }
}

ModuleCode* Namespace::current(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    if (it != modules_.end() && it->second.current) return it->second.current.get();
    return parent_ ? parent_->current(module) : nullptr;
}

Namespace::Commit Namespace::commit(std::unique_ptr<ModuleCode>& code) {
    std::lock_guard lock(mutex_);
    if (destroyed()) return Commit::NotPurged;
    ModuleSlot& slot = modules_[code->name];
    // As OTP: a deleted module (old code, no current) can be loaded again; its old code stays.
    if ((slot.current && slot.old) || slot.purging) return Commit::NotPurged;
    if (code->on_load) {
        // As OTP, a newer version waiting for on_load replaces one still waiting. The one
        // replaced may be running its on_load function: its memory stays.
        if (slot.on_load) vm_->retire_code(std::move(slot.on_load), true);
        slot.on_load = std::move(code);
        return Commit::OnLoad;
    }
    Term module = code->name;
    if (slot.current) slot.old = std::move(slot.current);
    if (slot.old) clear_breakpoints(*vm_, *slot.old);  // as erl: old code is not traced
    slot.current = std::move(code);
    refresh_exports(module);
    if (vm_->call_tracing.on_load_set.load(std::memory_order_acquire))
        apply_on_load_pattern(*vm_, *this, *slot.current);
    return Commit::Loaded;
}

ModuleCode* Namespace::on_load_pending(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    return it != modules_.end() ? it->second.on_load.get() : nullptr;
}

std::unique_ptr<ModuleCode> Namespace::finish_on_load(Term module, bool keep) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    if (it == modules_.end() || !it->second.on_load) return nullptr;
    ModuleSlot& slot = it->second;
    std::unique_ptr<ModuleCode> mc = std::move(slot.on_load);
    if (!keep || (slot.current && slot.old)) return mc;
    if (slot.current) slot.old = std::move(slot.current);
    if (slot.old) clear_breakpoints(*vm_, *slot.old);
    slot.current = std::move(mc);
    refresh_exports(module);
    if (vm_->call_tracing.on_load_set.load(std::memory_order_acquire))
        apply_on_load_pattern(*vm_, *this, *slot.current);
    return nullptr;
}

bool Namespace::delete_module(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    if (it == modules_.end() || it->second.old || it->second.purging) return false;
    // As OTP, a module once loaded stays known: deleting it again (no code) still succeeds.
    if (it->second.current) {
        it->second.old = std::move(it->second.current);
        clear_breakpoints(*vm_, *it->second.old);
        refresh_exports(module);
    }
    return true;
}

bool Namespace::has_old_code(Term module) { return old_version(module) != nullptr; }

ModuleCode* Namespace::old_version(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    return it != modules_.end() ? it->second.old.get() : nullptr;
}

ModuleCode* Namespace::begin_purge(Term module) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(module);
    if (it == modules_.end() || !it->second.old || it->second.purging) return nullptr;
    it->second.purging = true;
    return it->second.old.get();
}

std::unique_ptr<ModuleCode> Namespace::end_purge(Term module, bool remove) {
    std::lock_guard lock(mutex_);
    ModuleSlot& slot = modules_[module];
    slot.purging = false;
    std::unique_ptr<ModuleCode> gone;
    if (remove) gone = std::move(slot.old);
    return gone;
}

std::vector<Term> Namespace::loaded_modules() {
    std::lock_guard lock(mutex_);
    std::vector<Term> out;
    for (auto& [name, slot] : modules_)
        if (slot.current) out.push_back(name);
    return out;
}

std::vector<Term> Namespace::modules_with_code() {
    std::lock_guard lock(mutex_);
    std::vector<Term> out;
    for (auto& [name, slot] : modules_)
        if (slot.current || slot.old || slot.on_load) out.push_back(name);
    return out;
}

void Namespace::retire() {
    leave_parent();
    std::lock_guard lock(mutex_);
    for (auto& [key, e] : exports_) point_export(e.get(), nullptr);
    // Only this namespace's processes read the memo, and none is left.
    xlate_.store(nullptr, std::memory_order_release);
    xlate_owner_.reset();
}

size_t Namespace::export_count() {
    std::lock_guard lock(mutex_);
    return exports_.size();
}

}  // namespace beam

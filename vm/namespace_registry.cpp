#include "vm/namespace_registry.hpp"

#include "bifs/bif_util.hpp"
#include "scheduler/signals.hpp"
#include "vm/code_purge.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {
Term ns_tag() { return atom("beamvm_namespace"); }
}  // namespace

Namespace* NamespaceRegistry::create(Term name) {
    std::lock_guard lock(mutex_);
    uint64_t id = next_id_++;
    auto ns = std::make_unique<Namespace>(vm_, &vm_->root(), name, id);
    Namespace* raw = ns.get();
    live_.emplace(id, std::move(ns));
    return raw;
}

Term NamespaceRegistry::to_term(TermAllocator& a, const Namespace& ns) {
    return make_tuple(a, {ns_tag(), make_small(SWord(ns.id())), ns.name()});
}

Namespace* NamespaceRegistry::from_term(Term t) {
    if (!is_tuple(t) || tuple_arity(t) != 3 || tuple_elem(t, 0) != ns_tag() || !is_small(tuple_elem(t, 1)))
        return nullptr;
    SWord id = small_value(tuple_elem(t, 1));
    Namespace* ns = nullptr;
    if (id == 0) {
        ns = &vm_->root();
    } else if (id > 0) {
        std::lock_guard lock(mutex_);
        auto it = live_.find(uint64_t(id));
        if (it != live_.end()) ns = it->second.get();
    }
    // The name must match too: a hand-built tuple with a guessed id and another name is badarg.
    return ns && ns->name() == tuple_elem(t, 2) ? ns : nullptr;
}

std::vector<Term> NamespaceRegistry::processes_of(const Namespace& ns, bool exiting) {
    std::vector<Term> out;
    for (Term pid : vm_->procs.pids()) {
        Process* q = vm_->procs.lookup(pid);
        if (!q) continue;
        if (q->ns == &ns && (exiting || !(q->sched.state.load(std::memory_order_acquire) & run_state::EXITED)))
            out.push_back(pid);
        ProcessTable::release(q);
    }
    return out;
}

std::vector<Term> NamespaceRegistry::kill_processes(Namespace& ns, Term from) {
    ns.mark_destroyed();
    std::vector<Term> pids = processes_of(ns);
    for (Term pid : pids) send_exit_signal(*vm_, from, pid, am::kill, false);
    return pids;
}

void NamespaceRegistry::free(Namespace& ns, Process* self, Term* x, unsigned live) {
    // Purge before delete: delete_module refuses while an old version is in the way.
    for (Term m : ns.modules_with_code()) {
        if (ns.on_load_pending(m)) purge_version(self, x, live, ns.finish_on_load(m, false));
        if (ns.has_old_code(m)) purge_old_code(self, x, live, ns, m, PurgeMode::Hard);
        if (ns.delete_module(m)) purge_old_code(self, x, live, ns, m, PurgeMode::Hard);
    }
    ns.retire();
    std::lock_guard lock(mutex_);
    auto it = live_.find(ns.id());
    if (it == live_.end()) return;
    retired_.push_back(std::move(it->second));
    live_.erase(it);
}

std::vector<Namespace*> NamespaceRegistry::live() {
    std::lock_guard lock(mutex_);
    std::vector<Namespace*> out;
    for (auto& [id, ns] : live_) out.push_back(ns.get());
    return out;
}

void NamespaceRegistry::clear() {
    std::lock_guard lock(mutex_);
    live_.clear();
    retired_.clear();
}

size_t NamespaceRegistry::retired_count() {
    std::lock_guard lock(mutex_);
    return retired_.size();
}

size_t NamespaceRegistry::retired_export_entries() {
    std::lock_guard lock(mutex_);
    size_t n = 0;
    for (auto& ns : retired_) n += ns->export_count();
    return n;
}

}  // namespace beam

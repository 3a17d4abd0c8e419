#include "ets/ets_registry.hpp"

#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "scheduler/signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {
EtsRegistry& registry(VM& vm) { return *vm.ets_tables; }
}  // namespace

EtsRegistry::~EtsRegistry() {
    for (EtsTable* t : tables) {
        {
            std::unique_lock lock(t->lock);
            t->alive.store(false);
            t->clear();
            t->fixations.clear();
        }
        t->release();
    }
}

EtsTable* ets_resolve(VM& vm, Term t) {
    if (is_atom(t)) {
        EtsRegistry& r = registry(vm);
        std::shared_lock lock(r.mutex);
        auto it = r.names.find(t.raw);
        if (it == r.names.end()) return nullptr;
        it->second->retain();
        return it->second;
    }
    auto* table = magic_cast<EtsTable>(t);
    if (!table) return nullptr;
    table->retain();
    return table;
}

bool ets_register(VM& vm, EtsTable* t) {
    EtsRegistry& r = registry(vm);
    std::unique_lock lock(r.mutex);
    if (t->named && !r.names.emplace(t->name.raw, t).second) return false;
    t->retain();
    r.tables.insert(t);
    r.by_owner.emplace(t->owner.load(), t);
    r.count++;
    return true;
}

namespace {
void erase_pair(std::unordered_multimap<Word, EtsTable*>& m, Word pid, EtsTable* t) {
    auto [b, e] = m.equal_range(pid);
    for (auto it = b; it != e; ++it)
        if (it->second == t) {
            m.erase(it);
            return;
        }
}
}  // namespace

bool ets_set_owner(VM& vm, EtsTable* t, Term pid) {
    if (!is_local_pid(pid)) return false;
    EtsRegistry& r = registry(vm);
    std::unique_lock lock(r.mutex);
    if (!r.tables.count(t)) return false;
    Process* q = vm.procs.lookup(pid);
    if (!q) return false;
    bool alive = !(q->sched.state.load() & run_state::EXITED);
    ProcessTable::release(q);
    if (!alive) return false;
    erase_pair(r.by_owner, t->owner.load(), t);
    t->owner.store(pid.raw);
    r.by_owner.emplace(pid.raw, t);
    return true;
}

void ets_note_fixer(VM& vm, EtsTable* t, Term pid) {
    EtsRegistry& r = registry(vm);
    std::unique_lock lock(r.mutex);
    if (!r.tables.count(t)) return;
    auto [b, e] = r.by_fixer.equal_range(pid.raw);
    for (auto it = b; it != e; ++it)
        if (it->second == t) return;
    r.by_fixer.emplace(pid.raw, t);
}

void ets_unregister_and_clear(VM& vm, EtsTable* t) {
    {
        EtsRegistry& r = registry(vm);
        std::unique_lock lock(r.mutex);
        if (!r.tables.erase(t)) return;  // someone else deleted it
        erase_pair(r.by_owner, t->owner.load(), t);
        std::erase_if(r.by_fixer, [&](auto& kv) { return kv.second == t; });
        if (t->named) {
            auto it = r.names.find(t->name.raw);
            if (it != r.names.end() && it->second == t) r.names.erase(it);
        }
        r.count--;
    }
    {
        std::unique_lock lock(t->lock);
        t->alive.store(false);
        t->clear();
        t->fixations.clear();
    }
    t->release();  // the registry's count
}

bool ets_rename(VM& vm, EtsTable* t, Term name) {
    EtsRegistry& r = registry(vm);
    std::unique_lock lock(r.mutex);
    if (!t->alive.load()) return false;
    if (t->named) {
        auto it = r.names.find(name.raw);
        if (it != r.names.end()) return it->second == t;
        r.names.erase(t->name.raw);
        r.names.emplace(name.raw, t);
    }
    t->name = name;
    return true;
}

Term ets_table_ref(TermAllocator& a, EtsTable* t) {
    Term* hp = a.alloc(MAGIC_REF_WORDS);
    hp[0] = make_header(Sub::Ref, MAGIC_REF_ARITY);
    hp[1] = Term{t->ref_ids[0]};
    hp[2] = Term{t->ref_ids[1]};
    hp[3] = Term{t->ref_ids[2]};
    hp[4] = Term{reinterpret_cast<Word>(static_cast<MagicObject*>(t))};
    hp[5] = Term{0};
    t->retain();
    a.link_offheap(hp);
    return make_boxed(hp);
}

Term ets_table_term(TermAllocator& a, EtsTable* t) { return t->named ? t->name : ets_table_ref(a, t); }

std::vector<EtsTable*> ets_all_tables(VM& vm) {
    EtsRegistry& r = registry(vm);
    std::shared_lock lock(r.mutex);
    std::vector<EtsTable*> out(r.tables.begin(), r.tables.end());
    for (EtsTable* t : out) t->retain();
    return out;
}

size_t ets_total_words(VM& vm) {
    size_t words = 0;
    for (EtsTable* t : ets_all_tables(vm)) {
        {
            std::shared_lock lock(t->lock);
            words += t->memory_words();
        }
        t->release();
    }
    return words;
}

void ets_owner_exited(VM& vm, Process* p) {
    EtsRegistry& r = registry(vm);
    if (r.count.load() == 0) return;
    std::vector<EtsTable*> owned, fixed;
    {
        std::unique_lock lock(r.mutex);
        auto [ob, oe] = r.by_owner.equal_range(p->pid.raw);
        for (auto it = ob; it != oe; ++it) owned.push_back(it->second);
        auto [fb, fe] = r.by_fixer.equal_range(p->pid.raw);
        for (auto it = fb; it != fe; ++it) fixed.push_back(it->second);
        r.by_fixer.erase(p->pid.raw);
        for (EtsTable* t : owned) t->retain();
        for (EtsTable* t : fixed) t->retain();
    }
    for (EtsTable* t : fixed) {
        {
            std::unique_lock lock(t->lock);
            std::erase_if(t->fixations, [&](auto& f) { return f.first == p->pid.raw; });
        }
        t->release();
    }
    for (EtsTable* t : owned) {
        Term heir = t->heir;
        bool given = false;
        if (heir != p->pid && ets_set_owner(vm, t, heir)) {
            LiteralArea scratch;
            Term* hp = scratch.alloc(5);
            hp[0] = make_header(Sub::Tuple, 4);
            hp[1] = atom("ETS-TRANSFER");
            hp[2] = ets_table_term(scratch, t);
            hp[3] = p->pid;
            hp[4] = t->heir_data ? tuple_elem(t->heir_data->term, 0) : am::undefined;
            post_message(vm, heir, make_boxed(hp));
            given = true;
        }
        if (!given) ets_unregister_and_clear(vm, t);
        t->release();
    }
}

}  // namespace beam

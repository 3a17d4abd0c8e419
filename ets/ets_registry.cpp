#include "ets/ets_registry.hpp"

#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>

#include "scheduler/signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

struct Registry {
    std::shared_mutex mutex;
    std::unordered_map<Word, EtsTable*> names;  // atom -> named table
    std::unordered_set<EtsTable*> tables;       // each holds the registry's count
    std::atomic<size_t> count{0};
};

Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: tables may outlive static teardown
    return *r;
}

}  // namespace

EtsTable* ets_resolve(Term t) {
    if (is_atom(t)) {
        Registry& r = registry();
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

bool ets_register(EtsTable* t) {
    Registry& r = registry();
    std::unique_lock lock(r.mutex);
    if (t->named && !r.names.emplace(t->name.raw, t).second) return false;
    t->retain();
    r.tables.insert(t);
    r.count++;
    return true;
}

void ets_unregister_and_clear(EtsTable* t) {
    {
        Registry& r = registry();
        std::unique_lock lock(r.mutex);
        if (!r.tables.erase(t)) return;  // someone else deleted it
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

bool ets_rename(EtsTable* t, Term name) {
    Registry& r = registry();
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

std::vector<EtsTable*> ets_all_tables() {
    Registry& r = registry();
    std::shared_lock lock(r.mutex);
    std::vector<EtsTable*> out(r.tables.begin(), r.tables.end());
    for (EtsTable* t : out) t->retain();
    return out;
}

size_t ets_total_words() {
    size_t words = 0;
    for (EtsTable* t : ets_all_tables()) {
        {
            std::shared_lock lock(t->lock);
            words += t->memory_words();
        }
        t->release();
    }
    return words;
}

void ets_owner_exited(VM& vm, Process* p) {
    Registry& r = registry();
    if (r.count.load() == 0) return;
    std::vector<EtsTable*> owned;
    for (EtsTable* t : ets_all_tables()) {
        if (t->owner.load() == p->pid.raw) {
            owned.push_back(t);
            continue;
        }
        {
            std::unique_lock lock(t->lock);
            std::erase_if(t->fixations, [&](auto& f) { return f.first == p->pid.raw; });
        }
        t->release();
    }
    for (EtsTable* t : owned) {
        Term heir = t->heir;
        bool given = false;
        if (is_local_pid(heir) && heir != p->pid) {
            if (Process* h = vm.procs.lookup(heir)) {
                bool alive = !(h->sched.state.load() & run_state::EXITED);
                ProcessTable::release(h);
                if (alive) {
                    LiteralArea scratch;
                    Term data = t->heir_data ? tuple_elem(t->heir_data->term, 0) : am::undefined;
                    {
                        std::unique_lock lock(t->lock);
                        t->owner.store(heir.raw);
                        std::erase_if(t->fixations, [&](auto& f) { return f.first == p->pid.raw; });
                    }
                    Term* hp = scratch.alloc(5);
                    hp[0] = make_header(Sub::Tuple, 4);
                    hp[1] = atom("ETS-TRANSFER");
                    hp[2] = ets_table_term(scratch, t);
                    hp[3] = p->pid;
                    hp[4] = data;
                    Term msg = make_boxed(hp);
                    post_message(vm, heir, msg);
                    given = true;
                }
            }
        }
        if (!given) ets_unregister_and_clear(t);
        t->release();
    }
}

}  // namespace beam

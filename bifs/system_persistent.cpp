// persistent_term: each {Key, Value} copied, sharing kept, into a literal area of its own
// (vm/persistent_terms.hpp), found by the key's internal hash under a shared lock; readers get
// the stored terms without copying. Erasing or replacing a term releases its area as erts
// does: the processes that still hold it get a copy on their own heap (a literal collection,
// vm/literal_release.hpp), then the memory is freed. The caller does that work as a system
// task once it is next scheduled out, so erase/1 and put/2 return first, as on erts.
#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/copy_term.hpp"
#include "vm/interp.hpp"
#include "vm/literal_release.hpp"
#include "vm/map.hpp"
#include "vm/map_hash.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

using Store = PersistentTerms;

uint32_t key_hash(Term key) { return internal_hash(key, 0); }

// The entry for `key` (the store's lock held), or items.end().
auto find(Store& s, Term key) {
    auto [it, end] = s.items.equal_range(key_hash(key));
    for (; it != end; ++it)
        if (eq_exact(it->second.key, key)) return it;
    return s.items.end();
}

// erts' table sizing (erl_bif_persistent.c): grows before an insert that finds it half full,
// shrinks before an erase that finds it a quarter full.
bool must_grow(const Store& s) { return 100 * s.items.size() >= 50 * s.table_size; }
bool must_shrink(const Store& s) {
    return 200 * s.items.size() <= 50 * s.table_size && s.table_size > Store::INITIAL_TABLE;
}

// A new area holding a copy of {Key, Value}.
Store::Entry make_entry(Process* p, Term key, Term value) {
    Store::Entry e;
    e.area = std::make_unique<LiteralArea>();
    e.pair = copy_term_shared(make_tuple(*p, {key, value}), *e.area, &e.words);
    e.key = tuple_elem(e.pair, 0);
    e.value = tuple_elem(e.pair, 1);
    return e;
}

// The area of an erased or replaced entry: released when the caller is next between two time
// slices (its system tasks), as erts' erase returns before the literal collection. As erts
// does, an entry whose value is an immediate is freed at once, without looking at processes:
// only the value is what get/1,2 hand out (logger switches its mode this way many times a
// second under load, and each switch looked at every process).
void release(Process* p, Store::Entry& old) {
    if (!old.area) return;
    if (is_list(old.value) || is_boxed(old.value)) p->rare().literal_releases.push_back(std::move(old.area));
    else old.area.reset();
}

Term pt_get_1(Process* p, const Term* a) {
    Store& s = p->vm->persistent;
    std::shared_lock lock(s.mutex);
    auto it = find(s, a[0]);
    return it != s.items.end() ? it->second.value : p->badarg();
}

Term pt_get_2(Process* p, const Term* a) {
    Store& s = p->vm->persistent;
    std::shared_lock lock(s.mutex);
    auto it = find(s, a[0]);
    return it != s.items.end() ? it->second.value : a[1];
}

// persistent_term:get/0: every {Key, Value}, the stored tuples themselves.
Term pt_get_0(Process* p, const Term*) {
    Store& s = p->vm->persistent;
    std::shared_lock lock(s.mutex);
    Term list = NIL;
    for (auto& [h, e] : s.items) list = cons_at(p->alloc(2), e.pair, list);
    // A reduction per entry, at most a time slice (erts traps through the table, charging as
    // it goes): uncharged, a loop calling get/0 on 20,000 terms kept its scheduler for seconds
    // per slice, and kills and other processes waited (persistent_term_SUITE:
    // killed_while_trapping ran out of time).
    p->slice_reds_used += std::min<int64_t>(int64_t(s.items.size()), REDUCTION_BUDGET);
    return list;
}

Term pt_put_2(Process* p, const Term* a) {
    Store& s = p->vm->persistent;
    Store::Entry old;
    {
        std::unique_lock lock(s.mutex);
        auto it = find(s, a[0]);
        if (it != s.items.end() && eq_exact(it->second.value, a[1])) return am::ok;  // nothing to do
        Store::Entry e = make_entry(p, a[0], a[1]);
        s.entry_words += e.words;
        if (it != s.items.end()) {
            s.entry_words -= it->second.words;
            old = std::move(it->second);
            it->second = std::move(e);
        } else {
            if (must_grow(s)) s.table_size *= 2;
            s.items.emplace(key_hash(e.key), std::move(e));
        }
    }
    release(p, old);
    return am::ok;
}

Term pt_erase_1(Process* p, const Term* a) {
    Store& s = p->vm->persistent;
    Store::Entry old;
    {
        std::unique_lock lock(s.mutex);
        auto it = find(s, a[0]);
        if (it == s.items.end()) return am::false_;
        if (must_shrink(s)) s.table_size /= 2;
        s.entry_words -= it->second.words;
        old = std::move(it->second);
        s.items.erase(it);
    }
    release(p, old);
    return am::true_;
}

// erts_internal:erase_persistent_terms/0 (init:restart/0): every term goes.
Term pt_erase_all_0(Process* p, const Term*) {
    Store& s = p->vm->persistent;
    std::vector<Store::Entry> old;
    {
        std::unique_lock lock(s.mutex);
        for (auto& [h, e] : s.items) old.push_back(std::move(e));
        s.items.clear();
        s.table_size = Store::INITIAL_TABLE;
        s.entry_words = 0;
    }
    for (Store::Entry& e : old) release(p, e);
    return am::true_;
}

// persistent_term:info/0: #{count, memory}, memory as erts counts it (vm/persistent_terms.hpp).
Term pt_info_0(Process* p, const Term*) {
    Store& s = p->vm->persistent;
    std::shared_lock lock(s.mutex);
    return map_from_pairs(*p, {{atom("count"), make_integer_u(*p, s.items.size())},
                               {atom("memory"), make_integer_u(*p, s.memory_bytes())}});
}

const BifSpec table[] = {
    {"persistent_term", "get", 0, &pt_get_0},
    {"persistent_term", "get", 1, &pt_get_1},
    {"persistent_term", "get", 2, &pt_get_2},
    {"persistent_term", "put", 2, &pt_put_2},
    {"persistent_term", "erase", 1, &pt_erase_1},
    {"persistent_term", "info", 0, &pt_info_0},
    {"erts_internal", "erase_persistent_terms", 0, &pt_erase_all_0},
};

}  // namespace

std::span<const BifSpec> persistent_term_bifs() { return table; }

}  // namespace beam

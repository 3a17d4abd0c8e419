// persistent_term: keys and values copied into the VM's never-collected area, so readers share
// them without copying; found by the key's internal hash under a shared lock. Erasing or
// replacing leaks the old copy (OTP frees it after a global literal GC): a process may still
// hold the old value as a literal, and beamvm has no pass that copies such values out.
#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/copy_term.hpp"
#include "vm/interp.hpp"
#include "vm/map.hpp"
#include "vm/map_hash.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

using Store = VM::PersistentTerms;

uint32_t key_hash(Term key) { return internal_hash(key, 0); }

// The entry for `key` (the store's lock held), or null.
std::pair<Term, Term>* find(Store& s, Term key) {
    auto [it, end] = s.items.equal_range(key_hash(key));
    for (; it != end; ++it)
        if (eq_exact(it->second.first, key)) return &it->second;
    return nullptr;
}

Term pt_get_1(Process* p, const Term* a) {
    Store& s = p->vm->persistent;
    std::shared_lock lock(s.mutex);
    auto* e = find(s, a[0]);
    return e ? e->second : p->badarg();
}

Term pt_get_2(Process* p, const Term* a) {
    Store& s = p->vm->persistent;
    std::shared_lock lock(s.mutex);
    auto* e = find(s, a[0]);
    return e ? e->second : a[1];
}

// persistent_term:get/0: every {Key, Value}, the terms themselves shared as literals.
Term pt_get_0(Process* p, const Term*) {
    Store& s = p->vm->persistent;
    std::shared_lock lock(s.mutex);
    Term list = NIL;
    for (auto& [h, kv] : s.items) list = cons_at(p->alloc(2), make_tuple(*p, {kv.first, kv.second}), list);
    // A reduction per entry, at most a time slice (erts traps through the table, charging as
    // it goes): uncharged, a loop calling get/0 on 20,000 terms kept its scheduler for seconds
    // per slice, and kills and other processes waited (persistent_term_SUITE:
    // killed_while_trapping ran out of time).
    p->slice_reds_used += std::min<int64_t>(int64_t(s.items.size()), REDUCTION_BUDGET);
    return list;
}

Term pt_put_2(Process* p, const Term* a) {
    Store& s = p->vm->persistent;
    std::unique_lock lock(s.mutex);
    if (auto* e = find(s, a[0])) {
        if (!eq_exact(e->second, a[1])) e->second = copy_term(a[1], s.area);  // equal: nothing to do
        return am::ok;
    }
    Term key = copy_term(a[0], s.area);
    s.items.emplace(key_hash(key), std::pair{key, copy_term(a[1], s.area)});
    return am::ok;
}

Term pt_erase_1(Process* p, const Term* a) {
    Store& s = p->vm->persistent;
    std::unique_lock lock(s.mutex);
    auto [it, end] = s.items.equal_range(key_hash(a[0]));
    for (; it != end; ++it)
        if (eq_exact(it->second.first, a[0])) {
            s.items.erase(it);
            return am::true_;
        }
    return am::false_;
}

// persistent_term:info/0: #{count, memory}; memory is the area's words, leaked copies included.
Term pt_info_0(Process* p, const Term*) {
    Store& s = p->vm->persistent;
    std::shared_lock lock(s.mutex);
    return map_from_pairs(*p, {{atom("count"), make_integer_u(*p, s.items.size())},
                               {atom("memory"), make_integer_u(*p, s.area.used_words() * sizeof(Term))}});
}

const BifSpec table[] = {
    {"persistent_term", "get", 0, &pt_get_0},
    {"persistent_term", "get", 1, &pt_get_1},
    {"persistent_term", "get", 2, &pt_get_2},
    {"persistent_term", "put", 2, &pt_put_2},
    {"persistent_term", "erase", 1, &pt_erase_1},
    {"persistent_term", "info", 0, &pt_info_0},
};

}  // namespace

std::span<const BifSpec> persistent_term_bifs() { return table; }

}  // namespace beam

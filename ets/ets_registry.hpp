// The tables that exist (docs/ets.md): named tables by name, every table for ets:all/0, and
// what happens to a process's tables when it exits (heir or deletion). One registry per VM
// (VM::ets_tables), so VMs embedded in one host each have their own names: table names are
// global in a VM, not per namespace.
#pragma once

#include <atomic>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ets/ets_lock.hpp"
#include "ets/ets_table.hpp"
#include "vm/heap.hpp"

namespace beam {

class Process;
class VM;

struct EtsRegistry {
    EtsLock mutex;  // ets/ets_lock.hpp: named tables are resolved under it on every access
    std::unordered_map<Word, EtsTable*> names;  // atom -> named table
    std::unordered_set<EtsTable*> tables;       // each holds the registry's count
    // pid -> tables it owns / has fixed (at some time): a process's exit looks only at these
    std::unordered_multimap<Word, EtsTable*> by_owner;
    std::unordered_multimap<Word, EtsTable*> by_fixer;
    std::atomic<size_t> count{0};
    // The VM goes (no process is left): every table left is emptied and the registry's count
    // released; a term that still refers to one holds it until freed.
    ~EtsRegistry();
};

// The table `t` names (a table id or a registered name), with a count held (release() when
// done), or null. A deleted table is still returned (check `alive` under its lock).
EtsTable* ets_resolve(VM& vm, Term t);
// Registers a new table; false if it is named and the name is taken.
bool ets_register(VM& vm, EtsTable* t);
// Removes it from the registry and empties it (the caller holds a count of its own).
void ets_unregister_and_clear(VM& vm, EtsTable* t);
// Makes the live local process `pid` the owner (give_away/3, heir); false if it is not alive.
// Checked under the registry's lock, which a process's exit takes after marking it exited, so
// a table never ends up owned by a process whose exit has already looked for its tables.
bool ets_set_owner(VM& vm, EtsTable* t, Term pid);
// A process fixed a table (safe_fixtable/2): its exit unfixes it.
void ets_note_fixer(VM& vm, EtsTable* t, Term pid);
// rename/2: false if `name` is taken by another named table.
bool ets_rename(VM& vm, EtsTable* t, Term name);
// The table's id term: its name if named, else its reference.
Term ets_table_term(TermAllocator& a, EtsTable* t);
Term ets_table_ref(TermAllocator& a, EtsTable* t);
std::vector<EtsTable*> ets_all_tables(VM& vm);  // each with a count held
// Called by a process as it exits: its tables go to their heirs or are deleted.
void ets_owner_exited(VM& vm, Process* p);
// Words all tables hold (erlang:memory(ets)).
size_t ets_total_words(VM& vm);

}  // namespace beam

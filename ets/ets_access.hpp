// How the ets natives reach a table (ets/ets_*.cpp): resolve the table argument, check the
// caller's access, hold the lock, copy results out. Internal to ets/.
#pragma once

#include <mutex>
#include <shared_mutex>

#include "ets/ets_registry.hpp"
#include "ets/ets_table.hpp"
#include "vm/atom_table.hpp"
#include "vm/process.hpp"

namespace beam::ets {

enum class Need { Info, Read, Write };

// A table for the duration of a native. Resolved from a name, it holds a count (released
// here). From a table id it holds none: the id is a magic reference among the native's
// arguments, whose heap copy holds a count until a GC finds it dead, and no GC runs inside a
// native (vm/process.hpp), so the table outlives the call without touching its shared count
// word (which every scheduler's ETS calls would otherwise bounce between cores).
struct TableRef {
    EtsTable* t = nullptr;
    bool counted = true;
    TableRef() = default;
    explicit TableRef(EtsTable* t, bool counted = true) : t(t), counted(counted) {}
    TableRef(const TableRef&) = delete;
    ~TableRef() {
        if (t && counted) t->release();
    }
    EtsTable* operator->() const { return t; }
    explicit operator bool() const { return t != nullptr; }
};

inline bool may_access(const Process* p, const EtsTable* t, Need need) {
    if (need == Need::Info || t->access == EtsAccess::Public) return true;
    if (t->owner.load() == p->pid.raw) return true;
    return t->access == EtsAccess::Protected && need == Need::Read;
}

// badarg with a `cause` for the error_info map, which erl_stdlib_errors explains (id: no such
// table, type: not a table argument, access, table_type, badkey, keypos, position, ...).
inline Term fail(Process* p, const char* cause) {
    p->badarg();
    p->fcause = atom(cause);
    return NON_VALUE;
}

// Why the last table_for on this thread found no table.
inline thread_local const char* table_cause = "id";
inline Term no_table(Process* p) { return fail(p, table_cause); }

// Resolves and checks access (empty: the caller returns no_table(p)). The table may have been
// deleted since: the caller checks `alive` under the lock (`Locked` does).
inline TableRef table_for(const Process* p, Term tab, Need need) {
    EtsTable* t;
    bool counted = false;
    if (is_magic_ref(tab)) {
        t = magic_cast<EtsTable>(tab);
    } else if (is_atom(tab) || is_boxed_sub(tab, Sub::Ref)) {
        t = ets_resolve(*p->vm, tab);
        counted = true;
    } else {
        table_cause = "type";
        return TableRef();
    }
    table_cause = "id";
    if (!t) return TableRef();
    if (!t->alive.load() || !may_access(p, t, need)) {
        if (t->alive.load()) table_cause = "access";
        if (counted) t->release();
        return TableRef();
    }
    return TableRef(t, counted);
}

// Shared or exclusive lock on a live table.
template <class Lock>
struct Locked {
    Lock lock;
    bool ok;
    explicit Locked(EtsTable* t) : lock(t->lock), ok(t->alive.load()) {}
};
using ReadLocked = Locked<std::shared_lock<EtsTableLock>>;
using WriteLocked = Locked<std::unique_lock<EtsTableLock>>;

// Shared or exclusive lock on the part of a live table that holds `key` (EtsTable::key_lock):
// for operations on that key alone. An insert under it passes may_grow = false and calls
// grow_if_needed once the lock is let go.
// `hash` (EtsTable::hash_of) chose the stripe; the storage calls that take it need not hash
// the key again.
template <class Lock>
struct KeyLocked {
    uint32_t hash;
    Lock lock;
    bool ok;
    KeyLocked(EtsTable* t, Term key) : hash(t->hash_of(key)), lock(t->key_lock_at(hash)), ok(t->alive.load()) {}
};
using KeyReadLocked = KeyLocked<std::shared_lock<EtsLock>>;
using KeyWriteLocked = KeyLocked<std::unique_lock<EtsLock>>;

inline bool is_object_for(const EtsTable* t, Term o) { return is_tuple(o) && tuple_arity(o) >= t->keypos; }

}  // namespace beam::ets

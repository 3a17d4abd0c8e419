// One ETS table (docs/ets.md): the objects it holds, copied off every process heap, and the
// options it was made with. A table is a magic object, so a table id (an ets:new/2 reference)
// points straight at it; the registry (ets/ets_registry.hpp) holds one count while it exists.
//
// Storage: set, bag and duplicate_bag are a chained hash table on the key (=:=), with the
// objects of one key adjacent in their chain, in insertion order; ordered_set is a chunked
// sorted index (ets/ets_ordered.hpp) ordered by the key in term order (==, so 1 and 1.0 are one key).
// Every operation holds the table's reader-writer lock (ets/ets_lock.hpp): readers share it,
// writers own it. A hash table made with write_concurrency has a lock per stripe of buckets:
// an operation on one key holds only its key's stripe (key_lock), one on the whole table
// every stripe.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "ets/ets_lock.hpp"
#include "ets/ets_ordered.hpp"
#include "vm/copy_term.hpp"
#include "vm/term.hpp"
#include "vm/term_magic_ref.hpp"
#include "vm/term_order.hpp"

namespace beam {

enum class EtsType : uint8_t { Set, OrderedSet, Bag, DuplicateBag };
enum class EtsAccess : uint8_t { Public, Protected, Private };

// One stored object: a tuple copied into memory of its own; off-heap references it holds
// (refc binaries, magic refs) keep a count until the object is freed.
struct EtsObject {
    EtsObject* next;  // hash chain
    uint32_t hash;
    uint32_t words;
    Term* offheap;
    Term term;
    Term data[1];
};

// A copy of `t` in one block: its words hold every object the term reaches (copy_term_into).
EtsObject* ets_object_new(Term t);
// The object's term copied onto `a` (a process's heap): a block copy (vm/copy_term.hpp's
// copy_flat) rather than a walk of the term.
inline Term ets_copy_out(const EtsObject* o, TermAllocator& a) { return copy_flat(o->term, o->data, o->words, a); }
void ets_object_free(EtsObject* o);
inline size_t ets_object_words(const EtsObject* o) { return o->words + 4; }

class EtsTable final : public MagicKind<EtsTable> {
public:
    EtsTable(EtsType type, uint32_t keypos);
    ~EtsTable() override;

    // ---- fixed at creation or changed under the registry's lock ----
    EtsType type;
    EtsAccess access = EtsAccess::Protected;
    uint32_t keypos;  // 1-based
    bool named = false;
    bool read_concurrency = false, write_concurrency = false, decentralized_counters = false;
    bool write_concurrency_auto = false;  // {write_concurrency, auto}: ets:info says auto
    bool compressed = false;
    Term name = NIL;                  // atom
    std::atomic<Word> owner{0};       // pid (raw)
    std::atomic<bool> alive{true};
    Term heir = NIL;                  // pid or am::none (as an atom)
    EtsObject* heir_data = nullptr;   // {HeirData}
    Word ref_ids[3] = {0, 0, 0};      // the words of its reference, for new table-id terms
    std::vector<std::pair<Word, uint64_t>> fixations;  // pid -> count (safe_fixtable)
    EtsObject* fix_time = nullptr;  // {MonotonicTime, Timestamp} of the first fixation

    mutable EtsTableLock lock;
    // The lock that covers `key` alone: its stripe, or the table's one lock. Holding it
    // allows only the storage calls below that name that key, with insert's may_grow false.
    EtsLock& key_lock(Term key) const { return key_lock_at(hash_of(key)); }
    EtsLock& key_lock_at(uint32_t h) const { return lock.striped() ? lock.stripe_for(h) : lock.stripe_for(0); }
    // The hash that places `key` in a bucket and a lock stripe; computed once per call by
    // KeyLocked (ets_access.hpp) and passed on to the storage calls that take it.
    uint32_t hash_of(Term key) const;
    // A hash table with more objects than buckets doubles them: called without any lock
    // after an insert under a key lock (which cannot resize), takes the whole table.
    void grow_if_needed();

    // ---- storage: call with `lock` held (shared for reads, exclusive for writes) ----
    Term key_of(const EtsObject* o) const { return tuple_elem(o->term, keypos - 1); }
    size_t size() const { return count_.load(std::memory_order_relaxed); }
    // Words it holds: the objects (with their headers), the hash buckets or the ordered
    // index (2 words an entry), and the table itself.
    size_t memory_words() const {
        return words_.load(std::memory_order_relaxed) + buckets_.size() + (type == EtsType::OrderedSet ? 2 * size() : 0) +
               sizeof(*this) / sizeof(Term);
    }

    // set: replaces; bag: adds unless an identical object is there; duplicate_bag: adds.
    // Takes ownership of `o`. `may_grow`: the whole table is locked, so the buckets may be
    // resized here.
    void insert(EtsObject* o, bool may_grow = true);
    void insert(EtsObject* o, bool may_grow, uint32_t h);  // h: hash_of(key_of(o))
    bool has_key(Term key) const;
    // Calls f for each object with `key` (for bags, in insertion order).
    void lookup(Term key, const std::function<void(const EtsObject*)>& f) const;
    const EtsObject* lookup_one(Term key) const;  // first object with `key` or null
    const EtsObject* lookup_one(Term key, uint32_t h) const;  // h: hash_of(key)
    size_t erase_key(Term key);
    size_t erase_object(Term object);            // objects =:= `object`
    void erase_exact(const EtsObject* o);        // this very object
    // Replaces the object of o's key (set and ordered_set): `o` takes the old one's place.
    void replace(EtsObject* o);
    size_t clear();

    // Key order traversal: NON_VALUE when there is none.
    Term first_key() const;
    Term last_key() const;
    Term next_key(Term key) const;  // NON_VALUE also when `key` is not there (hash tables)
    Term prev_key(Term key) const;
    bool key_present_for_next(Term key) const { return has_key(key); }

    // Walks every object in table order (reverse: ordered_set backwards). Stops when f
    // returns false. Positions: for hash tables a bucket index, for ordered_set after/before a
    // key; walk_from resumes there.
    void walk(bool reverse, const std::function<bool(const EtsObject*)>& f) const;
    // Hash tables: the objects of buckets [from, ...) until f says stop at a bucket's end;
    // returns the next bucket index or -1 at the end.
    int64_t walk_buckets(size_t from, const std::function<bool(const EtsObject*)>& f) const;
    // ordered_set: objects strictly after (or before, reverse) `key`.
    void walk_after(Term key, bool reverse, const std::function<bool(const EtsObject*)>& f) const;
    size_t bucket_count() const { return buckets_.size(); }
    // slot/2: the objects of slot i (a bucket, or the i-th object of ordered_set)
    void slot(size_t i, const std::function<void(const EtsObject*)>& f) const;
    size_t slot_count() const { return type == EtsType::OrderedSet ? size() : buckets_.size(); }

    size_t byte_size() const override { return sizeof(*this); }

private:
    // =:=, with the usual answers inline: the same word, or an immediate against anything else.
    // Tuples are compared word by word while the words are equal or both immediate.
    static bool key_eq(Term a, Term b) {
        if (a.raw == b.raw) return true;
        if (!is_boxed(a) && !is_list(a)) return false;
        if (is_tuple(a) && is_tuple(b)) {
            const Term* x = boxed_ptr(a);
            const Term* y = boxed_ptr(b);
            if (x[0].raw != y[0].raw) return false;
            for (Word i = 1, n = tuple_arity(a); i <= n; ++i) {
                if (x[i].raw == y[i].raw) continue;
                if (is_immediate(x[i]) && is_immediate(y[i])) return false;
                return eq_exact(a, b);
            }
            return true;
        }
        return eq_exact(a, b);
    }
    void grow();
    EtsObject** find_slot(Term key, uint32_t h) const;

    std::vector<EtsObject*> buckets_;
    EtsOrderedIndex tree_;
    // Atomic: operations on different stripes change them at once.
    std::atomic<size_t> count_{0};
    std::atomic<size_t> words_{0};
    std::atomic<size_t> bucket_count_{0};  // buckets_.size(), for grow_if_needed without a lock
    void add_count(long d) { count_.fetch_add(size_t(d), std::memory_order_relaxed); }
    void add_words(long d) { words_.fetch_add(size_t(d), std::memory_order_relaxed); }
};

}  // namespace beam

#include "ets/ets_table.hpp"

#include <cstdlib>
#include <mutex>
#include <new>

#include "vm/copy_term.hpp"
#include "vm/heap_offheap.hpp"
#include "vm/map_hash.hpp"
#include "vm/term_order.hpp"

namespace beam {

namespace {

// A tuple of immediates ({Worker, Seq}, {Node, Id}: the usual compound key) hashes its words
// directly, without internal_hash's walk; the bucket order of such keys is ours alone, as
// that of integer keys already is. False for any other term.
bool flat_tuple_hash(Term key, uint32_t* out) {
    if (!is_tuple(key)) return false;
    const Term* e = tuple_elems(key);
    uint64_t x = tuple_arity(key);
    for (Word i = 0, n = tuple_arity(key); i < n; ++i) {
        if (!is_immediate(e[i])) return false;
        x = (x ^ e[i].raw) * 0x9e3779b97f4a7c15ull;
        x ^= x >> 29;
    }
    *out = uint32_t(x ^ (x >> 32));
    return true;
}

// Buckets are chosen by the hash's low bits. Small integers keep their order in them (runs
// of keys land in neighbouring buckets, so walking or looking up runs of keys stays in cache)
// with higher bits folded in so that strides of a power of two still spread; other keys get
// internal_hash, whose low bits are mixed (murmur3's finaliser).
uint32_t key_hash(Term key) {
    if (is_small(key)) {
        uint64_t x = uint64_t(small_value(key));
        return uint32_t(x ^ (x >> 11) ^ (x >> 22) ^ (x >> 33) ^ (x >> 44));
    }
    uint32_t h;
    if (!flat_tuple_hash(key, &h)) h = internal_hash(key, 0);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

}  // namespace

EtsObject* ets_object_new(Term t) {
    size_t words = copy_size(t);
    void* m = std::malloc(sizeof(EtsObject) + (words ? words - 1 : 0) * sizeof(Term));
    if (!m) throw std::bad_alloc();
    auto* o = static_cast<EtsObject*>(m);
    o->next = nullptr;
    o->hash = 0;
    o->words = uint32_t(words);
    o->offheap = nullptr;
    o->term = copy_term_into(t, o->data, &o->offheap);
    return o;
}

void ets_object_free(EtsObject* o) {
    if (!o) return;
    offheap_release_list(o->offheap);
    std::free(o);
}

EtsTable::EtsTable(EtsType type, uint32_t keypos) : type(type), keypos(keypos), tree_() {
    if (type != EtsType::OrderedSet) buckets_.assign(256, nullptr);
    bucket_count_.store(buckets_.size(), std::memory_order_relaxed);
}

uint32_t EtsTable::hash_of(Term key) const {
    // An ordered_set without stripes uses neither buckets nor stripes.
    return type == EtsType::OrderedSet && !lock.striped() ? 0 : key_hash(key);
}

void EtsTable::grow_if_needed() {
    if (type == EtsType::OrderedSet || size() <= bucket_count_.load(std::memory_order_relaxed)) return;
    std::unique_lock whole(lock);
    if (alive.load() && size() > buckets_.size()) grow();
}

EtsTable::~EtsTable() {
    clear();
    ets_object_free(heir_data);
    ets_object_free(fix_time);
}

// The link that points at the first object with `key` in its chain (or the chain's end).
EtsObject** EtsTable::find_slot(Term key, uint32_t h) const {
    auto** link = const_cast<EtsObject**>(&buckets_[h & (buckets_.size() - 1)]);
    while (*link && !((*link)->hash == h && key_eq(key_of(*link), key))) link = &(*link)->next;
    return link;
}

void EtsTable::grow() {
    if (!fixations.empty()) return;  // a fixed table keeps its order for iterations in progress
    std::vector<EtsObject*> nb(buckets_.size() * 2, nullptr);
    size_t mask = nb.size() - 1;
    // Keep same-key runs adjacent and in order: move chains in order, appending.
    std::vector<EtsObject**> tails(nb.size());
    for (size_t i = 0; i < nb.size(); i++) tails[i] = &nb[i];
    for (EtsObject* o : buckets_) {
        while (o) {
            EtsObject* n = o->next;
            size_t b = o->hash & mask;
            o->next = nullptr;
            *tails[b] = o;
            tails[b] = &o->next;
            o = n;
        }
    }
    buckets_.swap(nb);
    bucket_count_.store(buckets_.size(), std::memory_order_relaxed);
}

void EtsTable::insert(EtsObject* o, bool may_grow) {
    insert(o, may_grow, hash_of(key_of(o)));
}

void EtsTable::insert(EtsObject* o, bool may_grow, uint32_t h) {
    Term key = key_of(o);
    if (type == EtsType::OrderedSet) {
        if (EtsObject* old = tree_.insert(key, o)) {
            add_words(-long(ets_object_words(old)));
            ets_object_free(old);
        } else {
            add_count(1);
        }
        add_words(long(ets_object_words(o)));
        return;
    }
    o->hash = h;
    EtsObject** link = find_slot(key, h);
    if (*link) {
        if (type == EtsType::Set) {
            EtsObject* old = *link;
            o->next = old->next;
            *link = o;
            add_words(long(ets_object_words(o)) - long(ets_object_words(old)));
            ets_object_free(old);
            return;
        }
        // bags: after the last object of this key
        while (*link && (*link)->hash == h && key_eq(key_of(*link), key)) {
            if (type == EtsType::Bag && eq_exact((*link)->term, o->term)) {
                ets_object_free(o);
                return;
            }
            link = &(*link)->next;
        }
    } else {
        // a new key: chains are kept sorted by hash, so any key, present or not, has a place
        // (next/2 continues from there in a fixed table after the key was deleted)
        link = &buckets_[h & (buckets_.size() - 1)];
        while (*link && (*link)->hash <= h) link = &(*link)->next;
    }
    o->next = *link;
    *link = o;
    add_count(1);
    add_words(long(ets_object_words(o)));
    if (may_grow && size() > buckets_.size()) grow();
}

bool EtsTable::has_key(Term key) const { return lookup_one(key) != nullptr; }

const EtsObject* EtsTable::lookup_one(Term key) const { return lookup_one(key, hash_of(key)); }

const EtsObject* EtsTable::lookup_one(Term key, uint32_t h) const {
    if (type == EtsType::OrderedSet) return tree_.find(key);
    return *find_slot(key, h);
}

void EtsTable::lookup(Term key, const std::function<void(const EtsObject*)>& f) const {
    if (type == EtsType::OrderedSet) {
        if (const EtsObject* o = tree_.find(key)) f(o);
        return;
    }
    uint32_t h = key_hash(key);
    for (EtsObject* o = *find_slot(key, h); o && o->hash == h && key_eq(key_of(o), key); o = o->next) f(o);
}

size_t EtsTable::erase_key(Term key) {
    if (type == EtsType::OrderedSet) {
        EtsObject* o = tree_.erase(key);
        if (!o) return 0;
        add_count(-1);
        add_words(-long(ets_object_words(o)));
        ets_object_free(o);
        return 1;
    }
    uint32_t h = key_hash(key);
    EtsObject** link = find_slot(key, h);
    size_t n = 0;
    while (*link && (*link)->hash == h && key_eq(key_of(*link), key)) {
        EtsObject* o = *link;
        *link = o->next;
        add_words(-long(ets_object_words(o)));
        ets_object_free(o);
        n++;
    }
    add_count(-long(n));
    return n;
}

size_t EtsTable::erase_object(Term object) {
    Term key = tuple_elem(object, keypos - 1);
    if (type == EtsType::OrderedSet) {
        const EtsObject* o = tree_.find(key);
        if (!o || !eq_exact(o->term, object)) return 0;
        return erase_key(key);
    }
    uint32_t h = key_hash(key);
    EtsObject** link = find_slot(key, h);
    size_t n = 0;
    while (*link && (*link)->hash == h && key_eq(key_of(*link), key)) {
        EtsObject* o = *link;
        if (eq_exact(o->term, object)) {
            *link = o->next;
            add_words(-long(ets_object_words(o)));
            ets_object_free(o);
            n++;
        } else {
            link = &o->next;
        }
    }
    add_count(-long(n));
    return n;
}

void EtsTable::erase_exact(const EtsObject* target) {
    if (type == EtsType::OrderedSet) {
        erase_key(key_of(target));
        return;
    }
    EtsObject** link = &buckets_[target->hash & (buckets_.size() - 1)];
    while (*link && *link != target) link = &(*link)->next;
    if (!*link) return;
    EtsObject* o = *link;
    *link = o->next;
    add_words(-long(ets_object_words(o)));
    add_count(-1);
    ets_object_free(o);
}

void EtsTable::replace(EtsObject* o) { insert(o); }

size_t EtsTable::clear() {
    size_t n = size();
    tree_.clear([](EtsObject* o) { ets_object_free(o); });
    for (EtsObject*& b : buckets_) {
        while (b) {
            EtsObject* next = b->next;
            ets_object_free(b);
            b = next;
        }
    }
    count_.store(0, std::memory_order_relaxed);
    words_.store(0, std::memory_order_relaxed);
    return n;
}

Term EtsTable::first_key() const {
    if (type == EtsType::OrderedSet) return tree_.size() == 0 ? NON_VALUE : tree_.at(tree_.begin()).key;
    for (EtsObject* b : buckets_)
        if (b) return key_of(b);
    return NON_VALUE;
}

Term EtsTable::last_key() const {
    if (type == EtsType::OrderedSet) return tree_.size() == 0 ? NON_VALUE : tree_.at(tree_.last()).key;
    return first_key();
}

Term EtsTable::next_key(Term key) const {
    if (type == EtsType::OrderedSet) {
        auto pos = tree_.upper_bound(key);
        return tree_.at_end(pos) ? NON_VALUE : tree_.at(pos).key;
    }
    // Chains are sorted by hash: the objects after `key` are those with a greater hash, or an
    // equal hash and another key after its run (a key no longer there continues from its place).
    uint32_t h = key_hash(key);
    EtsObject* o = buckets_[h & (buckets_.size() - 1)];
    while (o && o->hash < h) o = o->next;
    EtsObject** at = find_slot(key, h);
    if (*at) {
        o = *at;
        while (o && o->hash == h && key_eq(key_of(o), key)) o = o->next;
    } else {
        while (o && o->hash == h) o = o->next;
    }
    if (o) return key_of(o);
    for (size_t b = (h & (buckets_.size() - 1)) + 1; b < buckets_.size(); b++)
        if (buckets_[b]) return key_of(buckets_[b]);
    return NON_VALUE;
}

Term EtsTable::prev_key(Term key) const {
    if (type == EtsType::OrderedSet) {
        auto pos = tree_.lower_bound(key);
        pos = tree_.at_end(pos) ? tree_.last() : tree_.prev(pos);
        return tree_.size() == 0 || tree_.at_end(pos) ? NON_VALUE : tree_.at(pos).key;
    }
    return next_key(key);
}

void EtsTable::walk(bool reverse, const std::function<bool(const EtsObject*)>& f) const {
    if (type == EtsType::OrderedSet) {
        if (tree_.size() == 0) return;
        if (reverse) {
            for (auto p = tree_.last(); !tree_.at_end(p); p = tree_.prev(p))
                if (!f(tree_.at(p).obj)) return;
        } else {
            for (auto p = tree_.begin(); !tree_.at_end(p); p = tree_.next(p))
                if (!f(tree_.at(p).obj)) return;
        }
        return;
    }
    for (EtsObject* b : buckets_)
        for (EtsObject* o = b; o; o = o->next)
            if (!f(o)) return;
}

int64_t EtsTable::walk_buckets(size_t from, const std::function<bool(const EtsObject*)>& f) const {
    for (size_t b = from; b < buckets_.size(); b++) {
        bool go = true;
        for (EtsObject* o = buckets_[b]; o; o = o->next) go = f(o) && go;
        if (!go) return int64_t(b + 1) < int64_t(buckets_.size()) ? int64_t(b + 1) : -1;
    }
    return -1;
}

void EtsTable::walk_after(Term key, bool reverse, const std::function<bool(const EtsObject*)>& f) const {
    if (tree_.size() == 0) return;
    if (reverse) {
        auto p = tree_.lower_bound(key);
        for (p = tree_.at_end(p) ? tree_.last() : tree_.prev(p); !tree_.at_end(p); p = tree_.prev(p))
            if (!f(tree_.at(p).obj)) return;
    } else {
        for (auto p = tree_.upper_bound(key); !tree_.at_end(p); p = tree_.next(p))
            if (!f(tree_.at(p).obj)) return;
    }
}

void EtsTable::slot(size_t i, const std::function<void(const EtsObject*)>& f) const {
    if (type == EtsType::OrderedSet) {
        auto p = tree_.nth(i);
        if (!tree_.at_end(p)) f(tree_.at(p).obj);
        return;
    }
    if (i >= buckets_.size()) return;
    for (EtsObject* o = buckets_[i]; o; o = o->next) f(o);
}

}  // namespace beam

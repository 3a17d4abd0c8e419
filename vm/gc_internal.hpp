// Internals shared by the collector's files and vm/process.cpp. Not a contract for other
// subsystems: use vm/gc.hpp.
//
// The copying core (Copier) knows nothing about policy: it is told which address ranges are
// from-space, which of them are promoted to the old heap, and where the to-spaces start. The
// policy (vm/gc.cpp) decides minor vs full sweep and sizes the blocks.
#pragma once

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "vm/heap_offheap.hpp"
#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam::gc {

// OTP's default min_heap_size (words); also the first step of the heap size sequence.
inline constexpr size_t DEFAULT_MIN_HEAP = 233;

Term* alloc_words(size_t words);  // malloc'd; throws std::bad_alloc
// Young and old heap blocks (vm/gc_blocks.cpp): recycled through a per-thread cache, so a
// block must be released with free_block (never std::free). Contents are uninitialised.
Term* alloc_block(size_t words);  // throws std::bad_alloc
void free_block(Term* block);     // null is ignored
// Makes `block` hold `words` where it is, if it has the room: its capacity already, or the
// address space a mapped block reserves behind it (vm/gc_blocks.cpp). False: nothing changed.
bool extend_block(Term* block, size_t words);
// The old heap's block. Taken from the cache like any other (a cached block is resident
// already, and reusing it saves its page faults; see vm/gc_blocks.cpp).
Term* alloc_fresh_block(size_t words);
// Bytes of freed blocks' pages moved into new blocks so far (vm/gc_blocks.cpp, recycle_pages).
size_t heap_block_bytes_recycled();
// Frees every block the VM-wide cache and this thread's cache hold (the tests start from an
// empty cache with it).
void release_cached_blocks();
void free_fragments(HeapFragment* f);
// The smallest heap size in the growth sequence that holds `words`.
size_t next_heap_size(size_t words);

// ---- the off-heap list: RefcBins and magic refs (vm/heap_offheap.hpp) ----
using beam::offheap_next;
using beam::set_offheap_next;
// Drops this list's count on every object (process exit).
inline void release_offheap_list(Term* list) { offheap_release_list(list); }

struct Range {
    Term* lo = nullptr;
    Term* hi = nullptr;
    bool contains(const Term* p) const { return p >= lo && p < hi; }
};

// What a collection evacuates.
struct CopyPlan {
    Range young;                   // the young heap's used part
    Term* promote_limit = nullptr;  // young objects below this are copied to the old heap
    Range old;                     // the old heap's used part, when it is collected too
    // The old heap in a minor collection: nothing in it moves. Tested before the fragments, so
    // that a pointer into it skips their binary search.
    Range stays;
    std::vector<Range> fragments;  // sorted by lo
    // A literal area about to be freed (purge of old code): what the roots reach in it is copied
    // too, without forwarding marks, since other processes copy from the same objects.
    const LiteralArea* literals = nullptr;
};

class Copier {
public:
    // `old_to` may be null when nothing is promoted (promote_limit == young.lo).
    Copier(CopyPlan plan, Term* young_to, Term* old_to);

    void root(Term& t) {
        if (is_pointer(t)) t = evacuate(t);
    }
    void roots(Term* first, size_t n) {
        for (size_t i = 0; i < n; ++i) root(first[i]);
    }
    // The stack between stop and hend: return addresses (tag 00) and catch markers are skipped.
    void stack_roots(Term* stop, Term* hend) { roots(stop, size_t(hend - stop)); }
    // Copies everything reachable from the roots given so far (Cheney scan of both to-spaces).
    void scan();
    // The new off-heap list: survivors (at their new address) and entries outside from-space;
    // blobs of RefcBins that were not copied are released. The list runs from the youngest
    // objects to the old heap's: new ones are linked in front, and each collection puts what
    // it promoted between the young survivors and the old tail. So the walk stops at the
    // first object in `old_heap` (the old heap a minor collection leaves where it is; empty
    // for a full sweep): a minor pays for the young generation's objects, not for every
    // binary the process ever kept (real_ext_term's term holds 2,400 in its old heap).
    Term* sweep_offheap(Term* list, Range old_heap);

    // RefcBins copied out of `plan.literals`: the caller links them into the off-heap list
    // after sweep_offheap (they hold a reference of their own to their blob).
    const std::vector<Term*>& literal_refc_copies() const { return literal_refc_; }

    // Words of off-heap data (binary bytes, magic objects' sizes) whose objects sweep_offheap
    // found promoted to the old heap.
    size_t promoted_offheap_words() const { return promoted_offheap_words_; }
    // Words of off-heap data that sweep_offheap kept in the young generation.
    size_t young_kept_offheap_words() const { return young_kept_offheap_words_; }

    Term* young_top() const { return young_top_; }
    Term* old_top() const { return old_top_; }

    static bool is_pointer(Term t) {
        Word tg = t.raw & tag::primary_mask;
        return tg == tag::list || tg == tag::boxed;
    }

private:
    Term evacuate(Term t);
    Term evacuate_inline(Term t);
    [[gnu::cold]] Term evacuate_literal(Term t);
    // Where an object at `p` is copied to, or null if `p` is not in from-space.
    Term** destination(const Term* p);
    bool in_fragment(const Term* p) const;
    Term* scan_area(Term* s, Term* const& top);

    CopyPlan plan_;
    Range fragment_span_;  // from the lowest fragment's start to the highest end: a quick no
    mutable Range last_fragment_;  // where in_fragment last found a pointer
    Term* young_top_;
    Term* old_base_;
    Term* old_top_;
    Term* young_scan_;
    Term* old_scan_;
    std::unordered_map<const Term*, Term> literal_copies_;  // keeps sharing within the process
    std::vector<Term*> literal_refc_;
    size_t promoted_offheap_words_ = 0;
    size_t young_kept_offheap_words_ = 0;
};

}  // namespace beam::gc

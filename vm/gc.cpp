// Collection policy: minor or full sweep, heap and old-heap sizing, moving the stack.
//
// Generations (as OTP): a minor collection copies live young data; what lies below
// `high_water` has already survived one collection and is promoted to the old heap, the rest
// (and all heap fragments) goes to a fresh young block. A full sweep copies young, old and
// fragments into one fresh young block and drops the old heap.
//
// Sizing: the new block is first sized for the worst case (everything in from-space survives),
// because a Cheney copy cannot overflow its to-space. When the result leaves the block more
// than 3/4 full (too many collections ahead) or less than 1/4 full (memory held for nothing),
// the young heap is resized to about twice the live data: shrinking moves the stack down in the
// same block; growing extends the block where it is when it has the room (a block of 4 MB or
// more reserves three times its length again as address space, vm/gc_blocks.cpp), else copies
// the live data once more into a bigger block. Resizes are geometric, so the extra copy is amortised;
// the 1/4..3/4 band keeps sizes from oscillating. (The copy after a full sweep that kept most
// of a large heap was a third of the time of bench/gc_sweep.erl; see extend_block.)
// A minor collection never picks a smaller block than the current one (a block sized larger for
// the worst case, heap fragments counted as if all survived, is kept: trimming it back to the
// previous size made maps_bench collect twice as often, 7% more instructions in all), and a
// young heap is shrunk only after SHRINK_AFTER underused minors in a row (or at the first minor
// after a full sweep, whose block was sized for what that minor promotes): stable sizes let the
// block cache (vm/gc_blocks.cpp) hand back the previous from-space with its pages mapped. A
// process that collects again within a time slice's worth of reductions grows its young heap
// step by step instead (HOT_REDS below).
#include "vm/gc.hpp"
#include "vm/fatal_error.hpp"
#include "vm/heap_ceiling.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <new>

#include "vm/gc_internal.hpp"
#include "vm/gc_options.hpp"
#include "vm/clocks.hpp"
#include "vm/seq_trace.hpp"
#include "vm/system_monitor.hpp"

namespace beam {

namespace {

// Minor collections in a row that must leave the young heap less than 1/4 used before it is
// shrunk (see resize_young).
constexpr uint32_t SHRINK_AFTER = 4;

// A process that fills its young heap within HOT_REDS reductions of its last collection,
// without waiting in a receive in between, is "hot": each of its minors grows the young heap
// one step, up to HOT_YOUNG_MAX words, and none shrinks it below that. Its live data is often
// small (a loop over a few tuples that allocates floats or list cells as it goes), so the 3/4
// rule never grows it, and a small heap meant a collection every few hundred words, each
// copying the same live set again. Measured (bench/, +S 1): nbody went from 831,552
// collections to 31,171 and fannkuch from 1,204,884 to 36,869; a cap of 6,772 words gained
// less, 17,731 (beyond L2 on this machine) was slower again. A process that stops being hot
// shrinks back by the 1/4 rule. One that waits between collections is never hot: a process
// in a ring of 1,000 collects every 20 messages or so, a few reductions each, and counting
// reductions alone grew a thousand young heaps to the cap (ring's RSS from 43 to 146 MB). A
// hot process whose young heap grew past HOT_YOUNG_MAX by other means (blocks sized for heap
// fragments) shrinks back to it.
constexpr uint32_t HOT_REDS = 4000;  // one time slice (REDUCTION_BUDGET, vm/interp.hpp)
constexpr size_t HOT_YOUNG_MAX = 10958;  // a step of OTP's heap size series

// A binary virtual heap's limit (Process::vheap_limit, old_vheap_limit) after a collection,
// from the off-heap words that generation kept. As OTP's: doubled while they fill more than 3/4
// of it, halved when they fill less than 1/4, never below min_bin_vheap_size. A process that
// holds many large binaries then does not collect each time a few more arrive, and one that
// drops them frees them soon: without the old generation's count, a process that promoted
// binaries and then dropped them (a server passing files along) held their memory until its
// old heap happened to fill, which could be never.
uint32_t next_vheap_limit(const Process* p, uint32_t limit_now, size_t live_words) {
    size_t limit = std::max<size_t>(limit_now, 1);
    if (live_words > limit / 4 * 3) {
        while (live_words > limit / 4 * 3 && limit < UINT32_MAX / 2) limit *= 2;
    } else if (live_words < limit / 4) {
        limit /= 2;
    }
    return uint32_t(std::min<size_t>(std::max(limit, p->min_bin_vheap_size), UINT32_MAX));
}

// Also sums the words in use: that, not Process::fragment_words, bounds the to-space, so a
// fragment linked in by other code without updating the counter cannot overflow it.
std::vector<gc::Range> fragment_ranges(const Process* p, size_t* words) {
    std::vector<gc::Range> r;
    *words = 0;
    for (HeapFragment* f = p->fragments; f; f = f->next) {
        if (f->used) r.push_back({f->words, f->words + f->used});
        *words += f->used;
    }
    std::sort(r.begin(), r.end(), [](const gc::Range& a, const gc::Range& b) { return a.lo < b.lo; });
    return r;
}

// Evacuates every root (the stack already copied to `new_stop`) and copies what they reach.
void copy_roots_and_scan(Process* p, gc::Copier& c, Term* x, unsigned live, Term* new_stop) {
    c.roots(x, live);
    c.stack_roots(new_stop, new_stop + (p->hend - p->stop));
    c.root(p->dictionary);
    c.root(p->fvalue);
    c.root(p->fargs);
    c.root(p->ftrace);
    c.root(p->ftop);
    c.root(p->ferror_info);
    c.root(p->group_leader);
    for (Term& m : p->mailbox) c.root(m);
    p->sched.inbox.on_heap_terms([&](Term& m) { c.root(m); });
    if (p->seq_trace) {
        c.root(p->seq_trace->token);
        for (Term& t : p->seq_trace->tokens) c.root(t);
    }
    c.scan();
}

// Moves the young generation (and, per `plan`, the old heap and fragments) into a new block of
// `size` words, then installs it. `old_to` receives promoted objects (null: no promotion).
void evacuate_into(Process* p, gc::CopyPlan plan, Term* old_to, Term* x, unsigned live, size_t size,
                   bool drop_old_heap) {
    size_t stack_words = size_t(p->hend - p->stop);
    Term* block = gc::alloc_block(size);
    Term* new_hend = block + size;
    Term* new_stop = new_hend - stack_words;
    std::memcpy(new_stop, p->stop, stack_words * sizeof(Term));

    gc::Copier c(std::move(plan), block, old_to);
    copy_roots_and_scan(p, c, x, live, new_stop);
    assert(c.young_top() <= new_stop && "to-space overflow: from-space was under-counted");
    assert(!old_to || c.old_top() <= p->old_hend);
    // The sweep reads forwarding words in from-space, so it runs before anything is freed.
    p->offheap = c.sweep_offheap(p->offheap, drop_old_heap ? gc::Range{} : gc::Range{p->old_heap, p->old_htop});
    for (Term* bin : c.literal_refc_copies()) {
        gc::set_offheap_next(bin, p->offheap);
        p->offheap = bin;
    }

    gc::free_block(p->heap);
    gc::free_fragments(p->fragments);
    p->fragments = nullptr;
    p->fragment_words = 0;
    p->gc_due = false;
    if (drop_old_heap) {
        gc::free_block(p->old_heap);
        p->old_heap = p->old_htop = p->old_hend = nullptr;
        p->old_vheap_words = 0;
        p->old_vheap_limit = next_vheap_limit(p, p->old_vheap_limit, c.young_kept_offheap_words());
    } else if (old_to) {
        p->old_htop = c.old_top();
        p->old_vheap_words = Process::add_saturating(p->old_vheap_words, c.promoted_offheap_words());
    }
    p->vheap_words = 0;
    p->vheap_limit = next_vheap_limit(p, p->vheap_limit, c.young_kept_offheap_words());
    p->heap = block;
    p->htop = c.young_top();
    p->stop = new_stop;
    p->hend = new_hend;
    p->high_water = p->htop;  // everything now in the young heap has survived one collection
}

// Moves the stack so that the young heap ends at heap + `words`, which the block holds. To shrink,
// the block keeps its capacity (freed whole at the next collection); to grow, the block was
// extended (gc::extend_block). Nothing is copied but the stack.
void move_heap_end(Process* p, size_t words) {
    size_t stack_words = size_t(p->hend - p->stop);
    Term* new_hend = p->heap + words;
    Term* new_stop = new_hend - stack_words;
    std::memmove(new_stop, p->stop, stack_words * sizeof(Term));
    p->stop = new_stop;
    p->hend = new_hend;
}

// Brings the young block within the 1/4..3/4 band (see the file comment). A smaller size is
// taken in place (the stack moves down); growing too when the block has the room, else it
// copies the live data again.
void resize_young(Process* p, Term* x, unsigned live, size_t need, bool full) {
    size_t size = size_t(p->hend - p->heap);
    size_t used = size_t(p->htop - p->heap) + size_t(p->hend - p->stop) + need + S_RESERVED;
    size_t want = size;
    // The young heap is not shrunk below a quarter of the old generation: with a smaller one
    // each minor promotes a larger share of what it copies, and the old heap fills (and is
    // swept) sooner. OTP's floor is an eighth; measured here (session 38), an eighth gave
    // real_pmap's 32 workers a full sweep more each (25.7k page faults a run against 21.5k)
    // and changed nothing in real_xmerl's simulated cache misses (cachegrind, 2 MB LL: within
    // 1%), though its parser's young heap is then 2.5 MB where a quarter makes it 8 MB.
    size_t floor = std::max(p->min_heap_size, gc::next_heap_size(size_t(p->old_htop - p->old_heap) / 4));
    uint32_t reds_now = uint32_t(p->reductions + p->slice_reds_used);
    bool hot = !full && !p->waited_since_gc && reds_now - p->reds_at_last_gc < HOT_REDS;
    p->reds_at_last_gc = reds_now;
    p->waited_since_gc = false;
    if (used * 4 > size * 3) {
        want = gc::next_heap_size(used * 2);
    } else if (hot && size < HOT_YOUNG_MAX) {
        want = gc::next_heap_size(size + 1);
    } else if (used * 4 < size && (!hot || size > HOT_YOUNG_MAX)) {
        // After a minor collection, only shrink when several in a row left the heap mostly
        // empty: programs alternate between phases (a deep recursion, then a flat loop), and
        // shrinking at the first quiet collection made the size oscillate, each swing costing
        // a second copy of the live data (tests/stress/gc_10gb.erl: a third of all collections
        // were followed by a resize). A full sweep's block is sized for the old generation
        // too, so it is trimmed at once.
        // A hot process keeps HOT_YOUNG_MAX words, and is brought back to it at once (in
        // place) when its block outgrew that: a minor collection sizes the block for the worst
        // case, the whole young heap plus fragments, so a process that fills its heap and then
        // takes a BIF's result in a fragment got one step more at each collection (the eight
        // workers of bench/real/real_ets.erl held 17,731 to 46,422 words each, not 10,958).
        // The first minor after a full sweep shrinks at once too: the sweep sized the block
        // for the whole live set, and this minor has just promoted it to the old heap, so the
        // block is empty for a reason that will not pass. Waiting SHRINK_AFTER minors kept
        // each of real_pmap's 32 workers on a 121,536-word young heap instead of 28,690: 25 MB
        // more touched at the peak, and 0.89 s instead of 0.76 s (fastest of 7, +S 1). A
        // process whose heap then has to grow again within the same cycle (a sort that
        // builds a list as large as the one it swept: list_sort, qsort_lc, 5-9% slower when
        // every process shrank early) keeps the SHRINK_AFTER rule from then on.
        bool early = p->minor_gcs_since_full == 1 && !p->regrew_after_shrink;
        if (full || early || (hot && size > HOT_YOUNG_MAX) || ++p->young_underused_gcs >= SHRINK_AFTER)
            want = std::max({floor, gc::next_heap_size(used * 2), hot ? HOT_YOUNG_MAX : size_t(0)});
        if (early && want < size) p->shrunk_after_full = true;
    } else {
        p->young_underused_gcs = 0;
    }
    if (full) p->shrunk_after_full = false;
    if (want == size) return;
    p->young_underused_gcs = 0;
    if (want > size && p->shrunk_after_full) p->regrew_after_shrink = true;
    if (want < size || gc::extend_block(p->heap, want)) {
        move_heap_end(p, want);
        return;
    }
    gc::CopyPlan plan;
    plan.young = {p->heap, p->htop};
    plan.promote_limit = p->heap;
    evacuate_into(p, std::move(plan), nullptr, x, live, want, false);
}

// Set once per VM, always to the same functions: atomics only so that a second VM's
// set-up does not race with the first VM's collections.
std::atomic<uint32_t (*)(const Process*)> sysmon_wants{nullptr};
std::atomic<void (*)(Process*, int64_t)> sysmon_report{nullptr};
std::atomic<bool (*)(Process*, size_t)> max_heap_report{nullptr};
std::atomic<void (*)(Process*, const char*, size_t)> trace_hook{nullptr};

void trace_event(Process* p, const char* what, size_t words) {
    if (auto hook = trace_hook.load(std::memory_order_acquire)) hook(p, what, words);
}

void collect(Process* p, Term* x, unsigned live, size_t need, bool full, const LiteralArea* literals = nullptr) {
    auto wants = sysmon_wants.load(std::memory_order_relaxed);
    uint32_t sysmon = wants ? wants(p) : 0;
    int64_t sysmon_start = (sysmon & sysmon_flag::LONG_GC) ? monotonic_ns() : 0;
    size_t young_used = size_t(p->htop - p->heap);
    size_t stack_words = size_t(p->hend - p->stop);
    size_t promote = size_t(p->high_water - p->heap);

    if (!full && p->old_heap && size_t(p->old_hend - p->old_htop) < promote) full = true;
    if (!full && (p->minor_gcs_since_full >= p->fullsweep_after || p->old_vheap_words >= p->old_vheap_limit)) full = true;
    bool traced = trace_flags_of(p) & trace_flag::GARBAGE_COLLECTION;
    if (traced) trace_event(p, full ? "gc_major_start" : "gc_minor_start", need);
    if (!full && promote && !p->old_heap) {
        size_t old_size = gc::next_heap_size(std::max(promote * 2, size_t(p->hend - p->heap)));
        p->old_heap = p->old_htop = gc::alloc_fresh_block(old_size);
        p->old_hend = p->old_heap + old_size;
    }

    gc::CopyPlan plan;
    plan.young = {p->heap, p->htop};
    size_t fragment_words;
    plan.fragments = fragment_ranges(p, &fragment_words);
    size_t worst = young_used + fragment_words;
    if (full) {
        plan.promote_limit = p->heap;
        plan.old = {p->old_heap, p->old_htop};
        worst += size_t(p->old_htop - p->old_heap);
        plan.literals = literals;
        if (literals) worst += literals->used_words();
    } else {
        plan.promote_limit = p->high_water;
        plan.stays = {p->old_heap, p->old_htop};
        worst -= promote;
    }
    size_t size = std::max(p->min_heap_size, gc::next_heap_size(worst + stack_words + need + S_RESERVED));
    // A minor collection keeps the young heap's size (shrinking is resize_young's call): the
    // blocks then come in a few recurring sizes that the block cache can hand back.
    if (!full) size = std::max(size, size_t(p->hend - p->heap));
    Term* old_to = full ? nullptr : p->old_htop;
    size_t collected = young_used + fragment_words + (full ? size_t(p->old_htop - p->old_heap) : 0);
    evacuate_into(p, std::move(plan), old_to, x, live, size, full);
    size_t kept = size_t(p->htop - p->heap) + (old_to ? size_t(p->old_htop - old_to) : 0);

    p->gc_count++;
    GcTotals& totals = gc_totals();
    totals.collections.fetch_add(1, std::memory_order_relaxed);
    if (collected > kept) totals.words_reclaimed.fetch_add(collected - kept, std::memory_order_relaxed);
    p->minor_gcs_since_full = full ? 0 : p->minor_gcs_since_full + 1;
    resize_young(p, x, live, need, full);
    if (traced) trace_event(p, full ? "gc_major_end" : "gc_minor_end", collected > kept ? collected - kept : 0);
    gc::check_max_heap(p);
    if (sysmon) [[unlikely]] sysmon_report.load(std::memory_order_relaxed)(p, sysmon_start);
}

}  // namespace

GcTotals& gc_totals() {
    static GcTotals totals;
    return totals;
}

namespace gc {

Term* alloc_words(size_t words) {
    size_t bytes = std::max<size_t>(words, 1) * sizeof(Term);
    void* m = bytes > allocation_ceiling_bytes() ? nullptr : std::malloc(bytes);
    if (!m) out_of_memory("eheap_alloc", "heap", bytes);
    return static_cast<Term*>(m);
}

void free_fragments(HeapFragment* f) {
    while (f) {
        HeapFragment* next = f->next;
        std::free(f);
        f = next;
    }
}

namespace {

// OTP's heap size series (erl_gc.c): 12, 38, then each step the sum of the two before plus one
// (a block header word in OTP) up to 23 steps (233, 376, 610, 987, 1598, ...; 833,026 words),
// then +20% per step so very large heaps do not grow by 1.6x at once, up to MAX_HEAP_WORDS.
// Sizes requested with min_heap_size and min_bin_vheap_size are rounded up to it, and
// process_info reports the rounded value, so the series is observable.
struct HeapSizeSeries {
    std::vector<size_t> steps;
    HeapSizeSeries() {
        steps = {12, 38};
        while (steps.size() < 23) steps.push_back(steps[steps.size() - 1] + steps[steps.size() - 2] + 1);
        for (;;) {
            size_t next = steps.back() + steps.back() / 5;
            if (next > MAX_HEAP_WORDS) break;
            steps.push_back(next);
        }
        // erts steps back one too many when it meets the limit, so its series ends a step
        // earlier (visible in system_info(heap_sizes)); beamvm's ends where erts' does.
        steps.pop_back();
    }
};

const HeapSizeSeries& series() {
    static const HeapSizeSeries s;
    return s;
}

}  // namespace

size_t next_heap_size(size_t words) {
    if (words <= DEFAULT_MIN_HEAP) return DEFAULT_MIN_HEAP;
    const std::vector<size_t>& st = series().steps;
    auto it = std::lower_bound(st.begin(), st.end(), words);
    return it == st.end() ? words : *it;
}

const std::vector<size_t>& heap_size_series() { return series().steps; }

size_t round_heap_option(size_t words, size_t floor) { return std::max(floor, next_heap_size(words)); }

bool report_max_heap_to_runtime(Process* p, size_t total) {
    auto hook = max_heap_report.load(std::memory_order_acquire);
    return hook && hook(p, total);
}

size_t total_heap_words(const Process* p) {
    return size_t(p->hend - p->heap) + size_t(p->old_hend - p->old_heap) + p->fragment_words;
}

}  // namespace gc

void set_gc_hooks(const GcHooks& hooks) {
    sysmon_report.store(hooks.sysmon_report, std::memory_order_relaxed);
    max_heap_report.store(hooks.max_heap_report, std::memory_order_release);
    trace_hook.store(hooks.trace, std::memory_order_release);
    sysmon_wants.store(hooks.sysmon_wants, std::memory_order_release);
}

void garbage_collect(Process* p, Term* x, unsigned live, size_t need) { collect(p, x, live, need, false); }

void garbage_collect_full(Process* p, Term* x, unsigned live, size_t need) { collect(p, x, live, need, true); }

void garbage_collect_hibernate(Process* p, Term* x, unsigned live) {
    collect(p, x, live, 0, true);
    // Then into a block that holds exactly what is live (and the stack), as erts' hibernate
    // does: the process's next collection grows it again.
    size_t used = size_t(p->htop - p->heap) + size_t(p->hend - p->stop) + S_RESERVED;
    if (used >= size_t(p->hend - p->heap)) return;
    gc::CopyPlan plan;
    plan.young = {p->heap, p->htop};
    plan.promote_limit = p->heap;
    evacuate_into(p, std::move(plan), nullptr, x, live, used, false);
}

void garbage_collect_literals(Process* p, Term* x, unsigned live, const LiteralArea& area) {
    collect(p, x, live, 0, true, &area);
}

}  // namespace beam

// Generations, heap fragments and sizing: promotion, full sweeps, bounded memory under churn.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/unit/gc_test_util.hpp"

using namespace beam;
using namespace beam::gctest;

TEST_CASE("gc: data is promoted to the old heap at its second minor collection", "[gc]") {
    auto p = new_process();
    std::vector<Term> x{tuple(*p, {make_small(1), int_list(*p, 1, 10)})};
    gc(*p, x);
    CHECK(in_young(*p, x[0]));
    CHECK(p->high_water == p->htop);

    x.push_back(int_list(*p, 20, 22));  // allocated after the first collection: stays young
    gc(*p, x);
    REQUIRE(p->old_heap != nullptr);
    CHECK(in_old(*p, x[0]));
    CHECK(in_old(*p, tuple_elem(x[0], 1)));
    CHECK(in_young(*p, x[1]));
    CHECK(is_int_list(tuple_elem(x[0], 1), 1, 10));

    Term promoted = x[0];
    gc(*p, x);  // a minor collection leaves the old generation where it is
    CHECK(x[0] == promoted);
    CHECK(in_old(*p, x[1]));
    CHECK(is_int_list(x[1], 20, 22));
}

TEST_CASE("gc: a full sweep brings the old generation back and frees the old heap", "[gc]") {
    auto p = new_process();
    std::vector<Term> x{int_list(*p, 1, 100)};
    gc(*p, x);
    gc(*p, x);
    REQUIRE(in_old(*p, x[0]));
    x.push_back(tuple(*p, {x[0]}));  // a young tuple pointing into the old heap
    gc_full(*p, x);
    CHECK(p->old_heap == nullptr);
    CHECK(in_young(*p, x[0]));
    CHECK(tuple_elem(x[1], 0) == x[0]);
    CHECK(is_int_list(x[0], 1, 100));
    CHECK(p->htop - p->heap == 200 + 2);
}

TEST_CASE("gc: old-heap garbage is reclaimed by the full sweep after fullsweep_after minors", "[gc]") {
    auto p = new_process();
    p->fullsweep_after = 64;
    std::vector<Term> x{int_list(*p, 1, 1000)};
    gc(*p, x);
    gc(*p, x);
    REQUIRE(in_old(*p, x[0]));
    x[0] = NIL;  // the promoted list is now garbage in the old heap
    for (int i = 0; i < 70; ++i) gc(*p, x);
    CHECK((p->old_heap == nullptr || p->old_htop - p->old_heap < 1000));
}

TEST_CASE("gc: heap fragments are merged into the young heap", "[gc]") {
    auto p = new_process(377);  // a first block that holds x[0]
    // Fill the heap so that the following allocations go to fragments.
    std::vector<Term> x{int_list(*p, 1, 100)};
    while (p->heap_free() > S_RESERVED) p->alloc(1)[0] = NIL;
    Term big_list = int_list(*p, 1, 2000);  // spans several fragments
    REQUIRE(p->fragments != nullptr);
    REQUIRE(p->fragment_words == 4000);
    Term mixed = tuple(*p, {x[0], big_list, flt(*p, 6.25)});
    x.push_back(mixed);
    gc(*p, x);
    CHECK(p->fragments == nullptr);
    CHECK(p->fragment_words == 0);
    CHECK(in_young(*p, x[1]));
    CHECK(tuple_elem(x[1], 0) == x[0]);
    CHECK(is_int_list(x[0], 1, 100));
    CHECK(is_int_list(tuple_elem(x[1], 1), 1, 2000));
    CHECK(float_value(tuple_elem(x[1], 2)) == 6.25);
}

TEST_CASE("gc: allocation falls back to a fragment only when the gap is too small", "[gc]") {
    auto p = new_process(1000);
    Term* a = p->alloc(100);
    CHECK(a == p->heap);
    CHECK(p->fragments == nullptr);
    Term* b = p->alloc(5000);
    REQUIRE(p->fragments != nullptr);
    CHECK(b == p->fragments->words);
    CHECK(p->fragment_words == 5000);
    CHECK(p->htop == p->heap + 100);
}

TEST_CASE("gc: the requested room is free after a collection", "[gc]") {
    auto p = new_process();
    std::vector<Term> x{int_list(*p, 1, 10)};
    gc(*p, x, 100000);
    CHECK(p->heap_free() >= 100000 + S_RESERVED);
    gc_full(*p, x, 300000);
    CHECK(p->heap_free() >= 300000 + S_RESERVED);
    CHECK(is_int_list(x[0], 1, 10));
}

TEST_CASE("gc: the young heap shrinks back after a burst", "[gc]") {
    auto p = new_process();
    std::vector<Term> x{int_list(*p, 1, 500000)};
    gc(*p, x);
    CHECK(p->hend - p->heap >= 1000000);
    x[0] = make_small(0);
    gc_full(*p, x);
    CHECK(p->hend - p->heap <= 1000);
    CHECK(p->old_heap == nullptr);
}

// A process that waits between collections (not hot), as each worker of a parallel map
// does between time slices. The first minor after a full sweep promotes what the sweep left in
// the young heap, and the block the sweep sized for it shrinks at once; a process that then
// has to grow its young heap again in the same cycle keeps its size at the next such minor.
TEST_CASE("gc: the first minor after a full sweep shrinks the young heap unless it regrew", "[gc]") {
    auto p = new_process();
    auto wait_gc = [&](std::vector<Term>& x, bool full) {
        p->waited_since_gc = true;
        full ? gc_full(*p, x) : gc(*p, x);
        return size_t(p->hend - p->heap);
    };
    std::vector<Term> x{int_list(*p, 1, 20000)};
    size_t swept = wait_gc(x, true);
    REQUIRE(swept >= 40000);
    size_t after_minor = wait_gc(x, false);
    CHECK(in_old(*p, x[0]));
    CHECK(after_minor * 2 < swept);

    x.push_back(int_list(*p, 1, 60000));  // the young heap must grow back within the cycle
    size_t regrown = wait_gc(x, false);
    REQUIRE(regrown > after_minor);
    x.pop_back();
    swept = wait_gc(x, true);
    CHECK(wait_gc(x, false) == swept);
    CHECK(is_int_list(x[0], 1, 20000));
}

// A process that collects again within a time slice (here: no reductions at all between
// collections) is hot: its young heap grows a step per minor up to 10,958 words and stays.
TEST_CASE("gc: a hot process's young heap grows step by step to its cap", "[gc]") {
    auto p = new_process();
    std::vector<Term> x{int_list(*p, 1, 10)};
    for (int i = 0; i < 30; ++i) {
        int_list(*p, 1, 50);  // garbage
        gc(*p, x);
    }
    CHECK(p->hend - p->heap == 10958);
    CHECK(is_int_list(x[0], 1, 10));
}

// Blocks sized for the worst case (every fragment word surviving) must not ratchet a hot
// process's young heap up: it goes back to the cap once its minors find it mostly empty.
TEST_CASE("gc: large fragments do not ratchet a hot process's young heap", "[gc]") {
    auto p = new_process();
    std::vector<Term> x{int_list(*p, 1, 10)};
    size_t largest = 0;
    for (int i = 0; i < 40; ++i) {
        p->htop = p->stop - S_RESERVED;  // heap full: the next allocation is a fragment
        Term* big = p->alloc(200000);
        big[0] = make_header(Sub::Tuple, 0);
        gc(*p, x);
        largest = std::max(largest, size_t(p->hend - p->heap));
    }
    CHECK(largest <= 2000000);
    CHECK(p->hend - p->heap <= 400000);
    CHECK(is_int_list(x[0], 1, 10));
}

TEST_CASE("gc: 10,000 collections of a churning workload stay in bounded memory", "[gc]") {
    auto p = new_process();
    // x0 holds a ring of 64 slots, each a short list replaced now and then, so data lives for
    // a while, gets promoted, then dies in the old heap.
    Term* ring = p->alloc(65);
    ring[0] = make_header(Sub::Tuple, 64);
    for (int i = 1; i <= 64; ++i) ring[i] = NIL;
    std::vector<Term> x{make_boxed(ring)};
    size_t max_young = 0, max_old = 0;
    uint64_t round = 0;
    for (int c = 0; c < 10000; ++c) {
        for (int k = 0; k < 50; ++k, ++round) {
            Term item = tuple(*p, {make_small(SWord(round)), int_list(*p, 1, 5), flt(*p, double(round))});
            // The ring itself may have been promoted: build a new one rather than write into it
            // (old-to-young pointers are not allowed, as in OTP).
            Term old_ring = x[0];
            Term* nr = p->alloc(65);
            std::copy(boxed_ptr(old_ring), boxed_ptr(old_ring) + 65, nr);
            nr[1 + round % 64] = item;
            x[0] = make_boxed(nr);
        }
        gc(*p, x);
        max_young = std::max(max_young, size_t(p->hend - p->heap));
        max_old = std::max(max_old, size_t(p->old_hend - p->old_heap));
    }
    // Live data: ring 65 + 64 items of 3+1+10+2 words ~ 1,100 words; 50 rounds allocate
    // ~ 4,100 words between collections.
    CHECK(max_young < 40000);
    CHECK(max_old < 40000);
    for (uint64_t i = 0; i < 64; ++i) {
        Term item = tuple_elem(x[0], i);
        REQUIRE(is_tuple(item));
        SWord r = small_value(tuple_elem(item, 0));
        CHECK(uint64_t(r) % 64 == i);
        CHECK(uint64_t(r) >= round - 64);
        CHECK(is_int_list(tuple_elem(item, 1), 1, 5));
        CHECK(float_value(tuple_elem(item, 2)) == double(r));
    }
    CHECK(p->gc_count == 10000);
}

namespace {

// An interpreter-like loop: test the gap, collect when short, then build without checks.
// Live data: a long-lived list of `live_cells` cells, plus a ring of 32 recent short lists
// (rebuilt each step, as Erlang code would with setelement), so data dies young, or after a
// promotion. Returns the largest heap footprint (young block + old heap) seen.
size_t churn(Process& p, uint64_t total_words, SWord live_cells) {
    std::vector<Term> x{int_list(p, 1, live_cells), tuple(p, {})};
    Term* ring = p.alloc(33);
    ring[0] = make_header(Sub::Tuple, 32);
    for (int i = 1; i <= 32; ++i) ring[i] = NIL;
    x[1] = make_boxed(ring);
    size_t footprint = 0;
    const size_t step_words = 16 + 33;
    for (uint64_t allocated = 0, n = 0; allocated < total_words; allocated += step_words, ++n) {
        if (p.heap_free() < step_words + S_RESERVED) {
            gc(p, x, step_words);
            footprint = std::max(footprint, size_t(p.hend - p.heap) + size_t(p.old_hend - p.old_heap));
        }
        Term l = NIL;
        for (int k = 0; k < 8; ++k) l = cons_at(p.alloc(2), make_small(SWord(n + k)), l);
        Term* nr = p.alloc(33);
        std::copy(boxed_ptr(x[1]), boxed_ptr(x[1]) + 33, nr);
        nr[1 + n % 32] = l;
        x[1] = make_boxed(nr);
    }
    REQUIRE(is_int_list(x[0], 1, live_cells));
    return footprint;
}

}  // namespace

TEST_CASE("gc: 1 GB allocated with 4 MB live stays in bounded memory", "[gc]") {
    auto p = new_process();
    size_t footprint = churn(*p, uint64_t(1) << 27, 250000);  // 2^27 words = 1 GiB
    // Live: 500k words of list (old heap) plus ~ 600 words of ring; the heap sizes may reach
    // a small multiple of that, never the amount allocated.
    CHECK(footprint < 4000000);
}

TEST_CASE("gc: 10 GB allocated with 4 MB live stays in bounded memory", "[.][gc][stress]") {
    auto p = new_process();
    size_t footprint = churn(*p, uint64_t(10) << 27, 250000);
    CHECK(footprint < 4000000);
}

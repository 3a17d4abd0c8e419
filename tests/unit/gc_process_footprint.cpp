// What an idle process holds (issue 11, docs/architecture.md "Processes and memory"): the
// Process structure in one of mimalloc's size classes, a small first heap that the first
// collection brings to min_heap_size, and no mailbox or receive-marker memory until used.
// bench/proc_memory.sh measures the whole cost against erl.
#include <catch2/catch.hpp>

#include "tests/unit/gc_test_util.hpp"
#include "vm/process_side_memory.hpp"

using namespace beam;
using namespace beam::gctest;

TEST_CASE("footprint: the Process structure fits a 768-byte allocation", "[gc][footprint]") {
    // Above 768 it takes mimalloc's 896-byte class: move rarely used fields to Process::Rare.
    constexpr size_t size = sizeof(Process);
    CHECK(size <= 768);
}

TEST_CASE("footprint: a default process starts small and its first collection grows it", "[gc][footprint]") {
    auto p = new_process();
    CHECK(p->min_heap_size == 233);
    CHECK(size_t(p->hend - p->heap) < 233);
    std::vector<Term> x{int_list(*p, 1, 10)};
    gc(*p, x);
    CHECK(size_t(p->hend - p->heap) >= 233);
    CHECK(is_int_list(x[0], 1, 10));
}

TEST_CASE("footprint: a min_heap_size asked for is allocated at once", "[gc][footprint]") {
    auto p = new_process(1598);
    CHECK(size_t(p->hend - p->heap) == 1598);
}

TEST_CASE("footprint: the mailbox allocates at its first message and counts it", "[gc][footprint]") {
    size_t before = process_side_bytes();
    auto p = new_process();
    CHECK(process_side_bytes() == before);
    p->mailbox.push_back(make_small(1));
    CHECK(process_side_bytes() > before);
    p.reset();
    CHECK(process_side_bytes() == before);
}

TEST_CASE("footprint: the mailbox ring keeps order through wrap-around and removals", "[gc][footprint]") {
    MessageQueue q;
    std::vector<SWord> model;
    SWord next = 0;
    // Take from the front and the middle while adding, so the ring wraps and grows.
    for (int round = 0; round < 200; ++round) {
        for (int k = 0; k < 3; ++k) {
            q.push_back(make_small(next));
            model.push_back(next++);
        }
        size_t at = round % 3 == 0 ? 0 : (round % 3 == 1 ? model.size() / 2 : model.size() - 1);
        q.erase_at(at);
        model.erase(model.begin() + long(at));
    }
    REQUIRE(q.size() == model.size());
    size_t i = 0;
    for (Term t : q) CHECK(small_value(t) == model[i++]);
    while (!q.empty()) q.erase_at(0);
    CHECK(q.allocated_bytes() <= 64 * sizeof(Term));
}

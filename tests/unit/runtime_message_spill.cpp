// Messages taken into a process whose heap is full (take_buffer): small ones share a few
// fragments instead of one each, and come through a collection intact.
#include <catch2/catch.hpp>

#include "tests/unit/gc_test_util.hpp"
#include "vm/copy_term.hpp"

using namespace beam;
using namespace beam::gctest;

namespace {

size_t fragment_count(const Process& p) {
    size_t n = 0;
    for (const HeapFragment* f = p.fragments; f; f = f->next) ++n;
    return n;
}

// {msg, I, [I, I + 1]} as real_pipeline's stages send it: 4 + 4 words.
Term message(Process& from, SWord i) {
    return tuple(from, {make_atom(3), make_small(i), cons(from, make_small(i), cons(from, make_small(i + 1), NIL))});
}

bool is_message(Term m, SWord i) {
    if (!is_tuple(m) || tuple_arity(m) != 3) return false;
    if (tuple_elem(m, 0) != make_atom(3) || tuple_elem(m, 1) != make_small(i)) return false;
    return is_int_list(tuple_elem(m, 2), i, i + 1);
}

}  // namespace

TEST_CASE("take_buffer: small messages into a full heap share a few fragments", "[gc][messages]") {
    auto sender = new_process();
    auto p = new_process();
    p->alloc(p->heap_free() - S_RESERVED);  // the heap is full: every message goes outside it
    constexpr SWord N = 5000;
    std::vector<Term> x;
    for (SWord i = 0; i < N; ++i) {
        MessageBuffer buf = copy_to_buffer(message(*sender, i));
        x.push_back(take_buffer(p.get(), buf));
    }
    // 40,000 words: fragments that grow with what is already outside the heap, not 5,000.
    CHECK(p->fragment_words == size_t(N) * 8);
    CHECK(fragment_count(*p) <= 16);
    for (SWord i = 0; i < N; ++i) REQUIRE(is_message(x[size_t(i)], i));

    gc(*p, x);
    CHECK(p->fragments == nullptr);
    for (SWord i = 0; i < N; ++i) {
        REQUIRE(in_young(*p, x[size_t(i)]));
        REQUIRE(is_message(x[size_t(i)], i));
    }
}

TEST_CASE("take_buffer: a large message keeps a fragment of its own", "[gc][messages]") {
    auto sender = new_process();
    auto p = new_process();
    p->alloc(p->heap_free() - S_RESERVED);
    std::vector<Term> x{int_list(*sender, 1, 1000)};  // 2,000 words: over the spill limit
    MessageBuffer buf = copy_to_buffer(x[0]);
    HeapFragment* own = buf.fragment;
    x[0] = take_buffer(p.get(), buf);
    REQUIRE(p->fragments == own);
    CHECK(in_range(x[0], own->words, own->words + own->used));
    gc(*p, x);
    CHECK(is_int_list(x[0], 1, 1000));
}

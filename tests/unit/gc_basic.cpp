// Structures survive a collection with their values, sharing, and roots in every place.
#include <catch2/catch.hpp>

#include "tests/unit/gc_test_util.hpp"

using namespace beam;
using namespace beam::gctest;

TEST_CASE("gc: a list in an x register survives with its values", "[gc]") {
    auto p = new_process();
    std::vector<Term> x{int_list(*p, 1, 1000)};
    gc(*p, x);
    CHECK(in_young(*p, x[0]));
    CHECK(is_int_list(x[0], 1, 1000));
    CHECK(p->fragments == nullptr);
    CHECK(p->fragment_words == 0);
}

TEST_CASE("gc: nested tuples, floats, bignums and an improper list", "[gc]") {
    auto p = new_process();
    Term a = make_atom(7);
    Term b = big(*p, {0xFFFFFFFFFFFFFFFFull, 0x8000000000000001ull}, true);
    Term inner = tuple(*p, {make_small(-5), flt(*p, 2.5), cons(*p, make_small(3), flt(*p, -0.125))});
    std::vector<Term> x{NIL, tuple(*p, {a, inner, b, tuple(*p, {})})};
    gc(*p, x);

    Term t = x[1];
    REQUIRE(is_tuple(t));
    REQUIRE(tuple_arity(t) == 4);
    CHECK(tuple_elem(t, 0) == make_atom(7));
    Term in = tuple_elem(t, 1);
    REQUIRE(is_tuple(in));
    CHECK(tuple_elem(in, 0) == make_small(-5));
    CHECK(float_value(tuple_elem(in, 1)) == 2.5);
    Term l = tuple_elem(in, 2);
    CHECK(head(l) == make_small(3));
    CHECK(float_value(tail(l)) == -0.125);
    Term bg = tuple_elem(t, 2);
    REQUIRE(is_big(bg));
    CHECK(header_sub(box_header(bg)) == Sub::NegBig);
    CHECK(header_arity(box_header(bg)) == 2);
    CHECK(boxed_ptr(bg)[1].raw == 0xFFFFFFFFFFFFFFFFull);
    CHECK(boxed_ptr(bg)[2].raw == 0x8000000000000001ull);
    CHECK(tuple_arity(tuple_elem(t, 3)) == 0);
    CHECK(x[0] == NIL);
}

TEST_CASE("gc: a subterm referenced twice is copied once", "[gc]") {
    auto p = new_process();
    Term shared = tuple(*p, {make_small(1), int_list(*p, 1, 3)});
    Term shared_list = int_list(*p, 10, 12);
    std::vector<Term> x{tuple(*p, {shared, shared}), shared, cons(*p, shared_list, shared_list)};
    gc(*p, x);
    CHECK(tuple_elem(x[0], 0) == tuple_elem(x[0], 1));
    CHECK(tuple_elem(x[0], 0) == x[1]);
    CHECK(head(x[2]) == tail(x[2]));
    // Exactly: outer tuple 3 + shared tuple 3 + [1,2,3] 6 + cons 2 + [10,11,12] 6 words.
    CHECK(p->htop - p->heap == 20);
    CHECK(is_int_list(tuple_elem(x[1], 1), 1, 3));
    CHECK(is_int_list(head(x[2]), 10, 12));
}

TEST_CASE("gc: garbage is not copied", "[gc]") {
    auto p = new_process();
    for (int i = 0; i < 100; ++i) int_list(*p, 1, 100);  // 20,000 words of garbage
    std::vector<Term> x{tuple(*p, {make_small(42)})};
    gc(*p, x);
    CHECK(p->htop - p->heap == 2);
    CHECK(tuple_elem(x[0], 0) == make_small(42));
}

TEST_CASE("gc: terms outside the heap (literals) are not moved", "[gc]") {
    alignas(8) static Term literal[3] = {make_header(Sub::Tuple, 2), make_small(1), make_small(2)};
    alignas(8) static Term literal_cell[2] = {make_small(9), NIL};
    auto p = new_process();
    Term lit = make_boxed(literal);
    Term lcell = make_list(literal_cell);
    std::vector<Term> x{cons(*p, lit, lcell), lit};
    gc(*p, x);
    gc_full(*p, x);
    CHECK(x[1] == lit);
    CHECK(head(x[0]) == lit);
    CHECK(tail(x[0]) == lcell);
    CHECK(literal[0] == make_header(Sub::Tuple, 2));  // not overwritten by a forwarding pointer
    CHECK(literal_cell[0] == make_small(9));
    CHECK(p->htop - p->heap == 2);
}

TEST_CASE("gc: immediates in roots are left alone", "[gc]") {
    auto p = new_process();
    std::vector<Term> x{make_atom(3), make_small(-1), make_local_pid(77), NIL, NON_VALUE, make_local_port(5)};
    std::vector<Term> before = x;
    gc(*p, x);
    CHECK(x == before);
}

TEST_CASE("gc: y slots are roots; return addresses and catch markers are kept", "[gc]") {
    auto p = new_process(377);  // a first block that holds the list and the frame
    Term list = int_list(*p, 1, 50);
    Term tup = tuple(*p, {flt(*p, 1.5), make_atom(2)});
    Term* y = push_frame(*p, 3);
    y[0] = list;
    y[1] = make_catch(fake_cp());
    y[2] = tup;
    size_t depth = size_t(p->hend - p->stop);
    Term cp_word{reinterpret_cast<Word>(fake_cp())};

    std::vector<Term> x;
    for (int i = 0; i < 3; ++i) {
        int_list(*p, 1, 200);  // garbage, so the data really moves
        gc(*p, x);
    }
    REQUIRE(size_t(p->hend - p->stop) == depth);
    y = p->stop;
    CHECK(is_int_list(y[0], 1, 50));
    CHECK(is_catch(y[1]));
    CHECK(catch_address(y[1]) == fake_cp());
    CHECK(float_value(tuple_elem(y[2], 0)) == 1.5);
    CHECK(tuple_elem(y[2], 1) == make_atom(2));
    CHECK(y[3] == cp_word);
}

TEST_CASE("gc: dictionary and exception terms are roots", "[gc]") {
    auto p = new_process();
    p->dictionary = cons(*p, tuple(*p, {make_atom(1), int_list(*p, 1, 5)}), NIL);
    p->fvalue = tuple(*p, {make_atom(4), flt(*p, 3.0)});
    p->fargs = int_list(*p, 7, 9);
    p->ftrace = cons(*p, make_small(1), NIL);
    int_list(*p, 1, 300);
    std::vector<Term> x;
    gc(*p, x);
    gc(*p, x);  // promoted now
    gc_full(*p, x);
    Term entry = head(p->dictionary);
    CHECK(is_nil(tail(p->dictionary)));
    CHECK(tuple_elem(entry, 0) == make_atom(1));
    CHECK(is_int_list(tuple_elem(entry, 1), 1, 5));
    CHECK(float_value(tuple_elem(p->fvalue, 1)) == 3.0);
    CHECK(is_int_list(p->fargs, 7, 9));
    CHECK(is_int_list(p->ftrace, 1, 1));
    CHECK(in_young(*p, p->fvalue));
}

TEST_CASE("gc: a list of a million cells and a million-deep tuple nesting", "[gc]") {
    auto p = new_process();
    Term nested = NIL;
    for (int i = 0; i < 1000000; ++i) nested = tuple(*p, {nested});
    std::vector<Term> x{int_list(*p, 1, 1000000), nested};
    gc(*p, x);
    gc(*p, x);
    CHECK(is_int_list(x[0], 1, 1000000));
    Term t = x[1];
    int depth = 0;
    while (is_tuple(t)) {
        REQUIRE(tuple_arity(t) == 1);
        t = tuple_elem(t, 0);
        ++depth;
    }
    CHECK(depth == 1000000);
    CHECK(is_nil(t));
}

TEST_CASE("gc: a tuple of a million elements", "[gc]") {
    auto p = new_process();
    const size_t n = 1000000;
    Term* hp = p->alloc(1 + n);
    hp[0] = make_header(Sub::Tuple, n);
    Term f = flt(*p, 0.5);
    for (size_t i = 0; i < n; ++i) hp[1 + i] = (i % 1000 == 0) ? f : make_small(SWord(i));
    std::vector<Term> x{make_boxed(hp)};
    gc(*p, x);
    Term t = x[0];
    REQUIRE(tuple_arity(t) == n);
    bool ok = true;
    for (size_t i = 0; i < n; ++i) {
        if (i % 1000 == 0) ok = ok && is_float(tuple_elem(t, i)) && tuple_elem(t, i) == tuple_elem(t, 0);
        else ok = ok && tuple_elem(t, i) == make_small(SWord(i));
    }
    CHECK(ok);
    CHECK(float_value(tuple_elem(t, 0)) == 0.5);
    CHECK(p->htop - p->heap == SWord(1 + n + FLOAT_WORDS));
}

TEST_CASE("gc: a stack of a million frames", "[gc]") {
    auto p = new_process();
    std::vector<Term> x;
    const int frames = 1000000;
    for (int i = 0; i < frames; ++i) {
        // As the interpreter would: make room first (a GC may move the stack), then push.
        if (p->heap_free() < 2 + 2 + S_RESERVED) gc(*p, x, 2 + 2);
        Term* y = push_frame(*p, 1);
        y[0] = cons(*p, make_small(i), NIL);
    }
    gc(*p, x);
    REQUIRE(size_t(p->hend - p->stop) == size_t(frames) * 2);
    Term cp_word{reinterpret_cast<Word>(fake_cp())};
    bool ok = true;
    for (int i = 0; i < frames; ++i) {
        Term* frame = p->stop + 2 * size_t(frames - 1 - i);
        ok = ok && frame[1] == cp_word && is_list(frame[0]) && head(frame[0]) == make_small(i) && is_nil(tail(frame[0]));
    }
    CHECK(ok);
}

TEST_CASE("gc: mailbox terms and the prebuilt trace frame are roots", "[gc]") {
    auto p = new_process();
    p->mailbox.push_back(tuple(*p, {make_atom(3), int_list(*p, 1, 4)}));
    p->mailbox.push_back(make_small(8));
    p->ftop = tuple(*p, {make_atom(1), make_atom(2), make_small(0)});
    int_list(*p, 1, 100);
    std::vector<Term> x;
    gc(*p, x);
    gc(*p, x);
    REQUIRE(p->mailbox.size() == 2);
    CHECK(in_old(*p, p->mailbox[0]));
    CHECK(tuple_elem(p->mailbox[0], 0) == make_atom(3));
    CHECK(is_int_list(tuple_elem(p->mailbox[0], 1), 1, 4));
    CHECK(p->mailbox[1] == make_small(8));
    CHECK(tuple_elem(p->ftop, 1) == make_atom(2));
    CHECK(p->htop - p->heap == 0);
}

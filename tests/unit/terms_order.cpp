// Term order and equality; expectations from OTP 25 (lists:sort/1, ==, =:=, <).
#include <catch2/catch.hpp>

#include <algorithm>

#include "terms_util.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/term_order.hpp"
#include "vm/term_print.hpp"

using namespace beam;
using namespace beam::test;

namespace {
Term bits(TermAllocator& a, std::string_view bytes, size_t bit_size) {
    return make_sub_binary(a, make_binary(a, bytes), 0, bit_size);
}
Term map1(TermAllocator& a, Term k, Term v) { return map_from_pairs(a, {{k, v}}); }
}  // namespace

TEST_CASE("order: lists:sort of mixed terms", "[order]") {
    LiteralArea a;
    Term p71 = int_bsl(a, make_small(2), 70);
    std::vector<Term> terms = {
        bits(a, "\x20", 3), make_binary(a, "\x01"), list(a, {make_small(1)}), NIL,
        tuple(a, {make_small(1), make_small(2)}), tuple(a, {make_small(0), make_small(0), make_small(0)}),
        map1(a, atom("a"), make_small(1)), atom("a"), flt(a, 1.0), make_small(2), p71, int_neg(a, p71),
        flt(a, 1.5), atom("b"), atom("\xc3\xa9"), str(a, "abc"), list_with_tail(a, {make_small(1)}, make_small(2)),
        make_binary(a, "ab"), make_binary(a, "a"), tuple(a, {}), empty_map(a), flt(a, 3.0e30), flt(a, -1.0e30),
        map1(a, atom("b"), make_small(0)), tuple(a, {make_small(1), make_small(1)}), list(a, {atom("a")}),
        str(a, "ab")};
    std::stable_sort(terms.begin(), terms.end(), [](Term x, Term y) { return compare_terms(x, y) < 0; });
    std::string out = "[";
    for (size_t i = 0; i < terms.size(); ++i) out += (i ? "," : "") + display_string(terms[i]);
    out += "]";
    CHECK(out ==
          "[-1.000000e+30,-2361183241434822606848,1.000000e+00,1.500000e+00,2,2361183241434822606848,"
          "3.000000e+30,a,b,\xc3\xa9,{},{1,1},{1,2},{0,0,0},#{},#{a=>1},#{b=>0},[],[1|2],[1],\"ab\",\"abc\","
          "[a],<<1>>,<<1:3>>,<<\"a\">>,<<\"ab\">>]");
}

TEST_CASE("order: == and =:= on numbers inside terms", "[order]") {
    LiteralArea a;
    Term one_f = flt(a, 1.0);
    CHECK(eq_arith(make_small(1), one_f));
    CHECK_FALSE(eq_exact(make_small(1), one_f));
    CHECK(eq_arith(list(a, {make_small(1), make_small(2)}), list(a, {one_f, make_small(2)})));
    CHECK(eq_arith(tuple(a, {make_small(1)}), tuple(a, {one_f})));
    CHECK(eq_arith(map1(a, atom("a"), make_small(1)), map1(a, atom("a"), one_f)));
    CHECK_FALSE(eq_exact(map1(a, atom("a"), make_small(1)), map1(a, atom("a"), one_f)));
    // #{1 => a} == #{1.0 => a} is false: keys always compare exactly
    CHECK_FALSE(eq_arith(map1(a, make_small(1), atom("a")), map1(a, one_f, atom("a"))));
    CHECK(compare_terms(map1(a, make_small(1), atom("a")), map1(a, one_f, atom("a"))) < 0);
    CHECK(compare_terms(map1(a, make_small(2), atom("a")), map1(a, one_f, atom("a"))) < 0);
    CHECK(eq_arith(flt(a, 0.0), flt(a, -0.0)));
    CHECK(eq_exact(flt(a, 0.0), flt(a, -0.0)));
    Term p64 = int_bsl(a, make_small(1), 64);
    CHECK(eq_arith(p64, flt(a, 1.8446744073709552e19)));
    CHECK(compare_terms(int_add(a, p64, make_small(1)), flt(a, 1.8446744073709552e19)) > 0);
    CHECK(eq_arith(int_bsl(a, make_small(1), 70), flt(a, 1180591620717411303424.0)));
    CHECK(compare_terms(make_small(1), one_f) == 0);
    CHECK(compare_terms_exact(make_small(1), one_f) < 0);
    CHECK(compare_terms_exact(make_small(3), flt(a, 2.0)) < 0);  // all integers before floats
    CHECK(eq_exact(int_bsl(a, make_small(1), 100), int_bsl(a, make_small(1), 100)));
    CHECK(eq_exact(str(a, "abc"), str(a, "abc")));
}

TEST_CASE("order: bitstrings compare bit by bit, then by length", "[order]") {
    LiteralArea a;
    CHECK(compare_terms(bits(a, "\x20", 3), make_binary(a, "\x01")) > 0);  // <<1:3>> > <<1>>
    CHECK(compare_terms(bits(a, "\x40", 3), bits(a, "\x10", 4)) > 0);      // <<2:3>> > <<1:4>>
    // <<1,2,3:4>> vs <<1,2,3:5>> and <<1,2,6:5>>
    CHECK(compare_terms(bits(a, "\x01\x02\x30", 20), bits(a, "\x01\x02\x18", 21)) > 0);
    CHECK(compare_terms(bits(a, "\x01\x02\x30", 20), bits(a, "\x01\x02\x30", 21)) < 0);
    CHECK(compare_terms(make_binary(a, "ab"), make_binary(a, std::string_view("ab\0", 3))) < 0);
    std::string long1(100, 'q'), long2 = long1;
    long2[99] = 'r';
    CHECK(compare_terms(make_binary(a, long1), make_binary(a, long2)) < 0);
    // Unaligned views of equal content are equal.
    Term x = make_sub_binary(a, make_binary(a, "\x0d\x0c\xad\x8d\x8d\xe0"), 3, 40);
    CHECK(eq_exact(x, make_binary(a, "hello")));
}

TEST_CASE("order: lists, tuples, atoms, refs, pids", "[order]") {
    LiteralArea a;
    CHECK(compare_terms(list_with_tail(a, {make_small(1)}, make_small(2)), list(a, {make_small(1), make_small(2)})) < 0);
    CHECK(compare_terms(list_with_tail(a, {make_small(1)}, atom("a")), list_with_tail(a, {make_small(1)}, flt(a, 2.0))) > 0);
    CHECK(compare_terms(atom("zz"), atom("aa")) > 0);
    CHECK(compare_terms(atom("\xc3\xa9"), atom("z")) > 0);
    CHECK(compare_terms(make_small(1), atom("a")) < 0);
    CHECK(compare_terms(atom("a"), ref(a, 1, 2, 3)) < 0);
    CHECK(compare_terms(ref(a, 9, 0, 1), ref(a, 0, 5, 0)) > 0);  // highest word first
    CHECK(compare_terms(ref(a, 1, 2, 3), ref(a, 1, 2, 3)) == 0);
    CHECK(compare_terms(make_local_port(5), make_local_pid(1)) < 0);
    CHECK(compare_terms(make_local_pid(7), make_local_pid(12)) < 0);
    CHECK(compare_terms(make_local_pid(7), tuple(a, {})) < 0);
    CHECK(compare_terms(tuple(a, {make_small(1), make_small(2)}), tuple(a, {make_small(0), make_small(0), make_small(0)})) < 0);
    CHECK(compare_terms(empty_map(a), NIL) < 0);
    CHECK(compare_terms(make_binary(a, ""), list(a, {make_small(1)})) > 0);
    // A long list must not recurse per element.
    std::vector<Term> many(200000, make_small(1));
    Term l1 = list(a, many), l2 = list(a, many);
    CHECK(eq_exact(l1, l2));
}

TEST_CASE("order: funs", "[order]") {
    LiteralArea a;
    Export e1, e2, e3;
    e1.module = atom("lists"), e1.function = atom("map"), e1.arity = 2;
    e2.module = atom("erlang"), e2.function = atom("abs"), e2.arity = 1;
    e3.module = atom("lists"), e3.function = atom("map"), e3.arity = 3;
    auto xfun = [&](Export& e) {
        Term* hp = a.alloc(EXPORT_FUN_WORDS);
        hp[0] = make_header(Sub::Export, 1);
        hp[1] = Term{reinterpret_cast<Word>(&e)};
        return make_boxed(hp);
    };
    FunEntry f1, f2;
    f1.module = f2.module = atom("p");
    f1.index = 0, f2.index = 1;
    auto lfun = [&](FunEntry& fe, Term free) {
        Term f = make_fun_at(a.alloc(FUN_HEADER_WORDS + 1), &fe, make_local_pid(1), 1);
        fun_free_vars(f)[0] = free;
        return f;
    };
    // fun() -> ok end < fun lists:map/2; [fun erlang:abs/1, fun lists:map/2, fun lists:map/3] sorted
    CHECK(compare_terms(lfun(f2, NIL), xfun(e2)) < 0);
    CHECK(compare_terms(xfun(e2), xfun(e1)) < 0);
    CHECK(compare_terms(xfun(e1), xfun(e3)) < 0);
    CHECK(compare_terms(lfun(f1, make_small(5)), lfun(f2, make_small(1))) < 0);
    CHECK(compare_terms(lfun(f1, make_small(5)), lfun(f1, make_small(1))) > 0);
    CHECK(eq_arith(lfun(f1, make_small(1)), lfun(f1, flt(a, 1.0))));
    CHECK_FALSE(eq_exact(lfun(f1, make_small(1)), lfun(f1, flt(a, 1.0))));
}

// Scanning rules per object kind: which words are terms (updated) and which are raw (kept).
#include <catch2/catch.hpp>

#include "tests/unit/gc_test_util.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

using namespace beam;
using namespace beam::gctest;

TEST_CASE("gc: a closure keeps its FunEntry pointer and updates its free variables", "[gc]") {
    static FunEntry entry{make_atom(1), make_atom(2), 3, 2, 0, 0};
    auto p = new_process();
    Term* f = p->alloc(FUN_HEADER_WORDS + 2);
    Term made = make_fun_at(f, &entry, make_local_pid(7), 2);
    fun_free_vars(made)[0] = int_list(*p, 1, 4);
    fun_free_vars(made)[1] = flt(*p, 9.75);
    std::vector<Term> x{made};
    int_list(*p, 1, 100);
    gc(*p, x);
    gc(*p, x);
    Term fun = x[0];
    REQUIRE(is_boxed_sub(fun, Sub::Fun));
    CHECK(in_old(*p, fun));
    CHECK(fun_entry(fun) == &entry);
    CHECK(fun_num_free(fun) == 2);
    CHECK(fun_creator(fun) == make_local_pid(7));
    CHECK(is_int_list(fun_free_vars(fun)[0], 1, 4));
    CHECK(float_value(fun_free_vars(fun)[1]) == 9.75);
    CHECK(in_old(*p, fun_free_vars(fun)[0]));
}

TEST_CASE("gc: an export fun is copied as raw words", "[gc]") {
    static Export ex;
    auto p = new_process();
    Term* e = p->alloc(EXPORT_FUN_WORDS);
    e[0] = make_header(Sub::Export, 1);
    e[1] = Term{reinterpret_cast<Word>(&ex)};
    std::vector<Term> x{make_boxed(e)};
    gc(*p, x);
    CHECK(export_of(x[0]) == &ex);
    CHECK(in_young(*p, x[0]));
}

TEST_CASE("gc: maps sharing a keys tuple still share it", "[gc]") {
    auto p = new_process();
    Term keys = tuple(*p, {make_atom(10), make_atom(11)});
    auto flat_map = [&](Term v1, Term v2) {
        Term* m = p->alloc(flat_map_words(2));
        m[0] = make_header(Sub::Map, 3);
        m[1] = keys;
        m[2] = v1;
        m[3] = v2;
        return make_boxed(m);
    };
    std::vector<Term> x{flat_map(make_small(1), int_list(*p, 1, 3)), flat_map(flt(*p, 0.25), NIL)};
    int_list(*p, 1, 100);
    gc(*p, x);
    REQUIRE(is_flat_map(x[0]));
    REQUIRE(is_flat_map(x[1]));
    CHECK(map_keys_tuple(x[0]) == map_keys_tuple(x[1]));
    CHECK(map_size(x[0]) == 2);
    CHECK(map_keys(x[0])[0] == make_atom(10));
    CHECK(map_keys(x[0])[1] == make_atom(11));
    CHECK(map_values(x[0])[0] == make_small(1));
    CHECK(is_int_list(map_values(x[0])[1], 1, 3));
    CHECK(float_value(map_values(x[1])[0]) == 0.25);
    CHECK(is_nil(map_values(x[1])[1]));
    // 4 + 4 words of maps, 3 of keys, 6 of the list, 2 of the float.
    CHECK(p->htop - p->heap == 19);
}

TEST_CASE("gc: raw payload words that look like pointers are not touched", "[gc]") {
    auto p = new_process();
    Term victim = int_list(*p, 1, 2);
    // A reference and a float whose raw words happen to have list and boxed tag bits pointing
    // at live heap data: a collector treating them as terms would rewrite them.
    Term* r = p->alloc(REF_WORDS);
    r[0] = make_header(Sub::Ref, 3);
    r[1] = victim;
    r[2] = make_boxed(list_ptr(victim));
    r[3] = Term{0x123456789ABCDEF1ull};
    Term* f = p->alloc(FLOAT_WORDS);
    f[0] = make_header(Sub::Float, 1);
    f[1] = victim;
    Term fake = victim;
    std::vector<Term> x{make_boxed(r), make_boxed(f)};
    gc(*p, x);
    Term* nr = boxed_ptr(x[0]);
    CHECK(nr[1] == fake);
    CHECK(nr[2] == make_boxed(list_ptr(fake)));
    CHECK(nr[3].raw == 0x123456789ABCDEF1ull);
    CHECK(boxed_ptr(x[1])[1] == fake);
    CHECK(p->htop - p->heap == SWord(REF_WORDS + FLOAT_WORDS));  // the list itself was not reachable
}

TEST_CASE("gc: error2 builds {Tag, Value} that survives a collection", "[gc]") {
    auto p = new_process();
    Term r = p->error2(make_atom(5), int_list(*p, 1, 3));
    CHECK(is_non_value(r));
    CHECK(p->fclass == ErrorClass::Error);
    CHECK(is_nil(tail(tail(tail(tuple_elem(p->fvalue, 1))))));
    std::vector<Term> x;
    gc(*p, x);
    REQUIRE(is_tuple(p->fvalue));
    CHECK(tuple_arity(p->fvalue) == 2);
    CHECK(tuple_elem(p->fvalue, 0) == make_atom(5));
    CHECK(is_int_list(tuple_elem(p->fvalue, 1), 1, 3));
}

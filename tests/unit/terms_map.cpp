// Flat maps: key order is OTP's map-key order (maps:keys/1 on OTP 25).
#include <catch2/catch.hpp>

#include "terms_util.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"
#include "vm/term_print.hpp"

using namespace beam;
using namespace beam::test;

TEST_CASE("map: from_pairs sorts keys integers-before-floats and last duplicate wins", "[map]") {
    LiteralArea a;
    // maps:keys(#{1.0 => a, 2 => b, 3.5 => c, 0 => d, -1.0 => e}) = [0,2,-1.0,1.0,3.5]
    Term m = map_from_pairs(a, {{flt(a, 1.0), atom("a")},
                                {make_small(2), atom("b")},
                                {flt(a, 3.5), atom("c")},
                                {make_small(0), atom("d")},
                                {flt(a, -1.0), atom("e")}});
    CHECK(display_string(map_keys_tuple(m)) == "{0,2,-1.000000e+00,1.000000e+00,3.500000e+00}");
    // maps:from_list([{a,1},{b,2},{a,3}]) = #{a => 3,b => 2}
    Term m2 = map_from_pairs(a, {{atom("a"), make_small(1)}, {atom("b"), make_small(2)}, {atom("a"), make_small(3)}});
    CHECK(display_string(m2) == "#{a=>3,b=>2}");
    CHECK(map_size(m2) == 2);
}

TEST_CASE("map: get uses =:=", "[map]") {
    LiteralArea a;
    Term m = map_from_pairs(a, {{make_small(1), atom("int")}, {str(a, "k"), atom("str")}, {atom("x"), make_small(7)}});
    REQUIRE(map_get(m, make_small(1)) != nullptr);
    CHECK(*map_get(m, make_small(1)) == atom("int"));
    CHECK(map_get(m, flt(a, 1.0)) == nullptr);
    REQUIRE(map_get(m, str(a, "k")) != nullptr);
    CHECK(*map_get(m, str(a, "k")) == atom("str"));
    CHECK(map_get(m, atom("y")) == nullptr);
    CHECK(map_get(empty_map(a), atom("y")) == nullptr);
}

TEST_CASE("map: put and remove", "[map]") {
    LiteralArea a;
    Term m = map_from_pairs(a, {{atom("b"), make_small(2)}, {atom("d"), make_small(4)}});
    Term m1 = map_put(a, m, atom("c"), make_small(3));
    CHECK(display_string(m1) == "#{b=>2,c=>3,d=>4}");
    CHECK(display_string(m) == "#{b=>2,d=>4}");  // the original is untouched
    Term m2 = map_put(a, m1, atom("a"), make_small(1));
    Term m3 = map_put(a, m2, atom("e"), make_small(5));
    CHECK(display_string(m3) == "#{a=>1,b=>2,c=>3,d=>4,e=>5}");
    Term m4 = map_put(a, m3, atom("c"), atom("new"));
    CHECK(display_string(m4) == "#{a=>1,b=>2,c=>new,d=>4,e=>5}");
    CHECK(map_keys_tuple(m4) == map_keys_tuple(m3));  // same key set shares the keys tuple
    CHECK(map_put(a, m4, atom("c"), atom("new")) == m4);
    // #{1 => x} with 1.0 := y adds a key (=:= semantics)
    Term n = map_put(a, map_from_pairs(a, {{make_small(1), atom("x")}}), flt(a, 1.0), atom("y"));
    CHECK(display_string(n) == "#{1=>x,1.000000e+00=>y}");
    CHECK(display_string(map_remove(a, m4, atom("a"))) == "#{b=>2,c=>new,d=>4,e=>5}");
    CHECK(display_string(map_remove(a, m4, atom("e"))) == "#{a=>1,b=>2,c=>new,d=>4}");
    CHECK(display_string(map_remove(a, m4, atom("c"))) == "#{a=>1,b=>2,d=>4,e=>5}");
    CHECK(map_remove(a, m4, atom("zz")) == m4);
    Term e = map_remove(a, map_from_pairs(a, {{atom("k"), NIL}}), atom("k"));
    CHECK(map_size(e) == 0);
    CHECK(eq_exact(e, empty_map(a)));
}

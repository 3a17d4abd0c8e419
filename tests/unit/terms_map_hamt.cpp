// Maps above 32 keys: OTP's hash trie. Expected values come from erl (OTP 25):
//   erlang:display(maps:from_list([{K, K*K} || K <- lists:seq(1, 34)])) and maps:keys/1.
#include <catch2/catch.hpp>

#include <algorithm>

#include "terms_util.hpp"
#include "vm/map.hpp"
#include "vm/map_hash.hpp"
#include "vm/term_order.hpp"
#include "vm/term_print.hpp"

using namespace beam;
using namespace beam::test;

namespace {

Term squares(TermAllocator& a, int n) {
    std::vector<std::pair<Term, Term>> pairs;
    for (int k = 1; k <= n; ++k) pairs.emplace_back(make_small(k), make_small(k * k));
    return map_from_pairs(a, pairs);
}

std::vector<SWord> keys_in(Term m, MapOrder order) {
    std::vector<SWord> out;
    for (const auto& kv : map_pairs(m, order)) out.push_back(small_value(kv.first));
    return out;
}

}  // namespace

TEST_CASE("map hash: small integers hash as OTP's make_internal_hash", "[map]") {
    // The slots erl's trie shows: 16 -> 0,0,...; 13 -> slot 8; 10 and 24 share slots 3 and 7.
    CHECK(map_key_hash(make_small(16), 0) == 0x4691da00u);
    CHECK((map_key_hash(make_small(13), 0) & 15) == 8);
    CHECK((map_key_hash(make_small(10), 0) & 0xFF) == (map_key_hash(make_small(24), 0) & 0xFF));
    CHECK(map_key_hash(make_small(16), 1) != map_key_hash(make_small(16), 0));  // salted per 8 levels
}

TEST_CASE("map trie: 34 keys print and iterate as on erl", "[map]") {
    LiteralArea a;
    Term m = squares(a, 34);
    REQUIRE(is_hash_map(m));
    CHECK(map_size(m) == 34);
    CHECK(display_string(m) ==
          "#<fffb>{<1201>{[16|256],[18|324],[5|25]},<4400>{[19|361],[27|729]},<80>{<4080>{[10|100],[24|576]}},"
          "<14>{[4|16],[21|441]},<240>{[22|484],[17|289]},<2a>{[3|9],[8|64],[1|1]},"
          "<8512>{[7|49],[2|4],[14|196],[15|225],[20|400]},[13|169],[6|36],<9400>{[28|784],[25|625],[34|1156]},"
          "<212>{[32|1024],[9|81],[11|121]},[31|961],[26|676],<2040>{[30|900],<8020>{[29|841],[23|529]}},"
          "<8200>{[12|144],[33|1089]}}");
    auto list = keys_in(m, MapOrder::List);
    CHECK(std::vector<SWord>(list.begin(), list.begin() + 4) == std::vector<SWord>{33, 12, 23, 29});
    auto iter = keys_in(m, MapOrder::Iteration);
    std::reverse(iter.begin(), iter.end());
    CHECK(iter == list);
    for (int k = 1; k <= 34; ++k) {
        REQUIRE(map_get(m, make_small(k)) != nullptr);
        CHECK(*map_get(m, make_small(k)) == make_small(k * k));
    }
    CHECK(map_get(m, make_small(35)) == nullptr);
}

TEST_CASE("map trie: shape depends only on the key set", "[map]") {
    LiteralArea a;
    Term built = empty_map(a);
    for (int k = 300; k >= 1; --k) built = map_put(a, built, make_small(k), make_small(k * k));
    Term direct = squares(a, 300);
    CHECK(display_string(built) == display_string(direct));
    CHECK(eq_exact(built, direct));
    // Removing down to 40 keys gives the trie built from those 40 keys directly.
    Term shrunk = direct;
    for (int k = 41; k <= 300; ++k) shrunk = map_remove(a, shrunk, make_small(k));
    CHECK(display_string(shrunk) == display_string(squares(a, 40)));
    // erl: removing 24 from the 34-key map hoists 10 to the head (slot 3).
    Term m34 = squares(a, 34);
    CHECK(display_string(map_remove(a, m34, make_small(24))).find("[10|100],<14>") != std::string::npos);
}

TEST_CASE("map trie: converts to and from flat exactly at 32/33 keys", "[map]") {
    LiteralArea a;
    Term m32 = squares(a, 32);
    CHECK(is_flat_map(m32));
    Term m33 = map_put(a, m32, make_small(33), make_small(0));
    CHECK(is_hash_map(m33));
    CHECK(map_size(m33) == 33);
    Term back = map_remove(a, m33, make_small(33));
    CHECK(is_flat_map(back));
    CHECK(eq_exact(back, m32));
    CHECK(map_remove(a, m33, make_small(99)) == m33);
    CHECK(map_put(a, m33, make_small(5), make_small(25)) == m33);  // same value: unchanged
    Term upd = map_put(a, m33, make_small(5), atom("five"));
    CHECK(*map_get(upd, make_small(5)) == atom("five"));
    CHECK(*map_get(m33, make_small(5)) == make_small(25));  // the original is untouched
}

TEST_CASE("map trie: term order by size, then keys, then values", "[map]") {
    LiteralArea a;
    Term a33 = squares(a, 33);
    Term b33 = map_put(a, map_remove(a, squares(a, 34), make_small(33)), make_small(5), make_small(0));
    CHECK(compare_terms(a33, squares(a, 34)) < 0);
    CHECK(compare_terms(a33, b33) < 0);  // keys ...,32,33 < ...,32,34
    Term c33 = map_put(a, a33, make_small(5), make_small(26));
    CHECK(compare_terms(a33, c33) < 0);  // same keys, value 25 < 26
    CHECK(compare_terms(c33, a33) > 0);
}

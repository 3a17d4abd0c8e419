// Integer arithmetic. Every expected value was printed by OTP 25's erl.
#include <catch2/catch.hpp>

#include <chrono>

#include "terms_util.hpp"
#include "vm/bignum.hpp"

using namespace beam;
using beam::test::big;

namespace {
std::string s(Term t) { return int_to_string(t); }
Term fac(TermAllocator& a, int n) {
    Term r = make_small(1);
    for (int i = 2; i <= n; ++i) r = int_mul(a, r, make_small(i));
    return r;
}
// Product of lo..hi by halves: keeps operands balanced, so big factorials stay fast and small.
Term product(TermAllocator& a, int lo, int hi) {
    if (hi - lo < 8) {
        Term r = make_small(1);
        for (int i = lo; i <= hi; ++i) r = int_mul(a, r, make_small(i));
        return r;
    }
    int mid = (lo + hi) / 2;
    return int_mul(a, product(a, lo, mid), product(a, mid + 1, hi));
}
}  // namespace

TEST_CASE("bignum: construction normalises to small when it fits", "[bignum]") {
    LiteralArea a;
    CHECK(is_small(make_integer(a, SMALL_MAX)));
    CHECK(is_big(make_integer(a, SMALL_MAX + 1)));
    CHECK(is_small(make_integer(a, SMALL_MIN)));
    CHECK(is_big(make_integer(a, SMALL_MIN - 1)));
    uint64_t limbs[3] = {5, 0, 0};
    CHECK(make_integer_limbs(a, limbs, 3, true) == make_small(-5));
    CHECK(s(make_integer_u(a, UINT64_MAX)) == "18446744073709551615");
    CHECK(s(make_integer(a, INT64_MIN)) == "-9223372036854775808");
}

TEST_CASE("bignum: add/sub/mul across the small boundary", "[bignum]") {
    LiteralArea a;
    // (1 bsl 59) - 1 + 1, -(1 bsl 59) - 1
    CHECK(s(int_add(a, make_small(SMALL_MAX), make_small(1))) == "576460752303423488");
    CHECK(s(int_sub(a, make_small(SMALL_MIN), make_small(1))) == "-576460752303423489");
    Term p62 = int_bsl(a, make_small(1), 62);
    CHECK(s(int_mul(a, p62, p62)) == "21267647932558653966460912964485513216");
    Term p100 = int_bsl(a, make_small(1), 100);
    Term r = int_add(a, int_sub(a, p100, p100), make_small(5));
    CHECK(r == make_small(5));
    CHECK(s(int_div(a, make_small(SMALL_MIN), make_small(-1))) == "576460752303423488");
    CHECK(s(int_neg(a, make_small(SMALL_MIN))) == "576460752303423488");
    CHECK(int_neg(a, int_neg(a, make_small(SMALL_MIN))) == make_small(SMALL_MIN));
    CHECK(s(int_bsl(a, make_small(1), 200)) ==
          "1606938044258990275541962092341162602522202993782792835301376");
}

TEST_CASE("bignum: 100! and 30! in hex", "[bignum]") {
    LiteralArea a;
    CHECK(s(fac(a, 100)) ==
          "93326215443944152681699238856266700490715968264381621468592963895217599993229915608941463976"
          "156518286253697920827223758251185210916864000000000000000000000000");
    CHECK(int_to_string(fac(a, 30), 16) == "D13F6370F96865DF5DD54000000");
}

TEST_CASE("bignum: div and rem truncate, rem takes the dividend's sign", "[bignum]") {
    LiteralArea a;
    Term x = int_add(a, int_bsl(a, make_small(1), 200), make_small(12345));
    Term y = int_add(a, int_bsl(a, make_small(1), 70), make_small(7));
    Term nx = int_neg(a, x), ny = int_neg(a, y);
    CHECK(s(int_div(a, x, y)) == "1361129467683753853845427979194824916992");
    CHECK(s(int_rem(a, x, y)) == "56493153725735514169");
    CHECK(s(int_div(a, nx, y)) == "-1361129467683753853845427979194824916992");
    CHECK(s(int_rem(a, nx, y)) == "-56493153725735514169");
    CHECK(s(int_div(a, x, ny)) == "-1361129467683753853845427979194824916992");
    CHECK(s(int_rem(a, x, ny)) == "56493153725735514169");
    CHECK(int_div(a, y, x) == make_small(0));
    CHECK(int_compare(int_rem(a, y, x), y) == 0);
    CHECK(int_div(a, make_small(-7), make_small(2)) == make_small(-3));
    CHECK(int_rem(a, make_small(-7), make_small(2)) == make_small(-1));
    CHECK(int_rem(a, make_small(7), make_small(-2)) == make_small(1));
    CHECK(is_non_value(int_div(a, x, make_small(0))));
    CHECK(is_non_value(int_rem(a, make_small(3), make_small(0))));
}

TEST_CASE("bignum: bitwise operations use two's complement", "[bignum]") {
    LiteralArea a;
    Term p100 = int_bsl(a, make_small(1), 100), p64 = int_bsl(a, make_small(1), 64);
    Term np100 = int_neg(a, p100);
    Term mask = int_add(a, int_sub(a, p100, make_small(1)), p64);  // (1 bsl 100) - 1 + (1 bsl 64)
    CHECK(s(int_band(a, np100, mask)) == "1267650600228229401496703205376");
    CHECK(s(int_bor(a, np100, make_small(12345))) == "-1267650600228229401496703193031");
    CHECK(s(int_bxor(a, np100, int_sub(a, int_neg(a, p64), make_small(3)))) ==
          "1267650600209782657422993653757");
    CHECK(s(int_bnot(a, p100)) == "-1267650600228229401496703205377");
    CHECK(s(int_bnot(a, np100)) == "1267650600228229401496703205375");
    CHECK(int_band(a, make_small(-7), make_small(3)) == make_small(1));
    CHECK(int_bor(a, make_small(-7), make_small(3)) == make_small(-5));
    CHECK(int_bxor(a, make_small(-7), make_small(3)) == make_small(-6));
    CHECK(int_bnot(a, make_small(5)) == make_small(-6));
}

TEST_CASE("bignum: shifts are arithmetic", "[bignum]") {
    LiteralArea a;
    Term p100 = int_bsl(a, make_small(1), 100);
    CHECK(s(int_bsl(a, int_sub(a, int_neg(a, p100), make_small(1)), -64)) == "-68719476737");
    CHECK(s(int_bsl(a, int_neg(a, p100), -64)) == "-68719476736");
    CHECK(s(int_bsl(a, int_add(a, p100, make_small(5)), -3)) == "158456325028528675187087900672");
    CHECK(s(int_bsl(a, make_small(12345), 100)) == "15649146659817491961476801070366720");
    CHECK(s(int_bsl(a, make_small(-3), 62)) == "-13835058055282163712");
    CHECK(int_bsl(a, p100, -99) == make_small(2));
    CHECK(int_bsl(a, int_neg(a, p100), -99) == make_small(-2));
    CHECK(int_bsl(a, int_neg(a, p100), -1000) == make_small(-1));
    CHECK(int_bsl(a, p100, -1000) == make_small(0));
    CHECK(int_bsl(a, make_small(-1), -3) == make_small(-1));
    CHECK(int_bsl(a, make_small(-9), -2) == make_small(-3));
    CHECK(is_non_value(int_bsl(a, make_small(1), int64_t(1) << 40)));
    CHECK(int_bsl(a, make_small(0), int64_t(1) << 40) == make_small(0));
}

TEST_CASE("bignum: comparison and conversions", "[bignum]") {
    LiteralArea a;
    Term p64 = int_bsl(a, make_small(1), 64);
    CHECK(int_compare(p64, make_small(5)) == 1);
    CHECK(int_compare(int_neg(a, p64), make_small(5)) == -1);
    CHECK(int_compare(int_neg(a, p64), int_neg(a, int_add(a, p64, make_small(1)))) == 1);
    CHECK(int_compare_double(p64, 18446744073709551616.0) == 0);
    CHECK(int_compare_double(int_add(a, p64, make_small(1)), 18446744073709551616.0) == 1);
    CHECK(int_compare_double(make_small(1), 1.5) == -1);
    CHECK(int_compare_double(make_small(-2), -1.5) == -1);
    CHECK(int_compare_double(make_small(3), 1e300) == -1);
    CHECK(int_to_int64(p64) == std::nullopt);
    CHECK(int_to_int64(make_integer(a, INT64_MIN)) == INT64_MIN);
    // float((1 bsl 200) + (1 bsl 140) + (1 bsl 96) + 12345), float(-(1 bsl 64) - 1)
    Term x = int_add(a, int_add(a, int_bsl(a, make_small(1), 200), int_bsl(a, make_small(1), 140)),
                     int_add(a, int_bsl(a, make_small(1), 96), make_small(12345)));
    CHECK(int_to_double(x) == 1.6069380442589903e60);
    CHECK(int_to_double(int_sub(a, int_neg(a, p64), make_small(1))) == -1.8446744073709552e19);
    // float(((1 bsl 53) + 1) * (1 bsl 64) + (1 bsl 63) + 1) is float(1 bsl 117) on OTP: it rounds
    // limb by limb, not once (correct rounding would give the next double up).
    uint64_t limbs[2] = {(uint64_t(1) << 63) + 1, (uint64_t(1) << 53) + 1};
    CHECK(int_to_double(make_integer_limbs(a, limbs, 2, false)) == 1.661534994731145e35);
    // trunc(1.0e30), trunc(-1.5e19), trunc(6.0e17)
    CHECK(s(int_from_double(a, 1.0e30)) == "1000000000000000019884624838656");
    CHECK(s(int_from_double(a, -1.5e19)) == "-15000000000000000000");
    CHECK(s(int_from_double(a, 6.0e17)) == "600000000000000000");
    CHECK(int_from_double(a, -2.9) == make_small(-2));
}

TEST_CASE("bignum: text conversion", "[bignum]") {
    LiteralArea a;
    CHECK(int_to_string(make_small(255), 16) == "FF");
    CHECK(int_to_string(int_neg(a, int_bsl(a, make_small(1), 100)), 36) == "-3EWFDNCA0N6LD1GGVFGG");
    CHECK(int_from_string(a, "-zz", 36) == make_small(-1295));
    CHECK(int_from_string(a, "+12") == make_small(12));
    CHECK(int_from_string(a, "000") == make_small(0));
    CHECK(s(*int_from_string(a, "123456789012345678901234567890")) == "123456789012345678901234567890");
    CHECK(s(*int_from_string(a, "-ffffffffffffffffffffffff", 16)) == "-79228162514264337593543950335");
    CHECK(s(*int_from_string(a, "0000000000000000000000000000000000000000012")) == "12");
    CHECK_FALSE(int_from_string(a, "12a").has_value());
    CHECK_FALSE(int_from_string(a, "-").has_value());
    CHECK_FALSE(int_from_string(a, "").has_value());
    CHECK_FALSE(int_from_string(a, "2", 2).has_value());
}

TEST_CASE("bignum: 20000! is computed and printed quickly", "[bignum]") {
    LiteralArea a;
    auto t0 = std::chrono::steady_clock::now();
    Term f = product(a, 1, 20000);
    std::string text = s(f);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(text.size() == 77338);
    CHECK(text.substr(0, 20) == "18192063202303451348");
    CHECK(text.substr(text.size() - 5) == "00000");
    CHECK(secs < 0.5);
    // One factor at a time, as a naive Erlang loop multiplies.
    std::string f3000 = s(fac(a, 3000));
    CHECK(f3000.size() == 9131);
    CHECK(f3000.substr(0, 30) == "414935960343785408555686709308");
}

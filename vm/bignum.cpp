// Integer arithmetic: construction, + - * div rem, comparison, conversions to and from doubles.
// Bitwise operations are in bignum_bitwise.cpp, text conversion in bignum_string.cpp.
#include <cmath>

#include "vm/bignum_internal.hpp"

namespace beam {

using namespace bigint;

Term make_integer_limbs(TermAllocator& a, const uint64_t* limbs, size_t n, bool negative) {
    while (n && limbs[n - 1] == 0) --n;
    if (n == 0) return make_small(0);
    if (n == 1) {
        uint64_t m = limbs[0];
        if (!negative && m <= uint64_t(SMALL_MAX)) return make_small(SWord(m));
        if (negative && m <= uint64_t(SMALL_MAX) + 1) return make_small(-SWord(m));
    }
    Term* hp = a.alloc(big_words(n));
    hp[0] = make_header(negative ? Sub::NegBig : Sub::PosBig, n);
    std::memcpy(static_cast<void*>(hp + 1), limbs, n * sizeof(uint64_t));
    return make_boxed(hp);
}

Term make_integer_limbs_limited(TermAllocator& a, const uint64_t* limbs, size_t n, bool negative) {
    while (n && limbs[n - 1] == 0) --n;
    if (n > MAX_BIG_LIMBS) return NON_VALUE;
    return make_integer_limbs(a, limbs, n, negative);
}

Term make_integer(TermAllocator& a, int64_t v) {
    if (fits_small(v)) return make_small(v);
    uint64_t m = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    return make_integer_limbs(a, &m, 1, v < 0);
}

Term make_integer_u(TermAllocator& a, uint64_t v) {
    if (v <= uint64_t(SMALL_MAX)) return make_small(SWord(v));
    return make_integer_limbs(a, &v, 1, false);
}

namespace {

Term make_int128(TermAllocator& a, __int128 v) {
    if (v >= SMALL_MIN && v <= SMALL_MAX) return make_small(SWord(v));
    bool neg = v < 0;
    unsigned __int128 m = neg ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    uint64_t limbs[2] = {uint64_t(m), uint64_t(m >> 64)};
    return make_integer_limbs(a, limbs, 2, neg);
}

// Signed addition of two magnitudes: (xneg, x) + (yneg, y).
Term add_signed(TermAllocator& a, const IntView& x, const IntView& y, bool yneg) {
    if (x.n == 0) return make_integer_limbs_limited(a, y.limbs, y.n, yneg);
    if (y.n == 0) return make_integer_limbs_limited(a, x.limbs, x.n, x.neg);
    if (x.neg == yneg) {
        const IntView& big = x.n >= y.n ? x : y;
        const IntView& sml = x.n >= y.n ? y : x;
        Limbs r(big.n + 1);
        r[big.n] = mpn_add(mp(r.data()), big.mp(), big.n, sml.mp(), sml.n);
        return make_integer_limbs_limited(a, r.data(), r.size(), x.neg);
    }
    int c = mag_compare(x.limbs, x.n, y.limbs, y.n);
    if (c == 0) return make_small(0);
    const IntView& big = c > 0 ? x : y;
    const IntView& sml = c > 0 ? y : x;
    bool neg = c > 0 ? x.neg : yneg;
    Limbs r(big.n);
    mpn_sub(mp(r.data()), big.mp(), big.n, sml.mp(), sml.n);
    return make_integer_limbs_limited(a, r.data(), r.size(), neg);
}

}  // namespace

Term int_add(TermAllocator& a, Term x, Term y) {
    if (is_small(x) && is_small(y)) return make_integer(a, small_value(x) + small_value(y));
    IntView vx(x), vy(y);
    return add_signed(a, vx, vy, vy.neg);
}

Term int_sub(TermAllocator& a, Term x, Term y) {
    if (is_small(x) && is_small(y)) return make_integer(a, small_value(x) - small_value(y));
    IntView vx(x), vy(y);
    return add_signed(a, vx, vy, !vy.neg);
}

Term int_neg(TermAllocator& a, Term x) {
    if (is_small(x)) return make_integer(a, -small_value(x));
    IntView v(x);
    return make_integer_limbs_limited(a, v.limbs, v.n, !v.neg);
}

Term int_mul(TermAllocator& a, Term x, Term y) {
    if (is_small(x) && is_small(y)) return make_int128(a, (__int128)small_value(x) * small_value(y));
    IntView vx(x), vy(y);
    if (vx.n == 0 || vy.n == 0) return make_small(0);
    const IntView& big = vx.n >= vy.n ? vx : vy;
    const IntView& sml = vx.n >= vy.n ? vy : vx;
    if (big.n + sml.n - 1 > MAX_BIG_LIMBS) return NON_VALUE;  // the product has at least that many
    Limbs r(big.n + sml.n);
    mpn_mul(mp(r.data()), big.mp(), big.n, sml.mp(), sml.n);
    return make_integer_limbs_limited(a, r.data(), r.size(), vx.neg != vy.neg);
}

namespace {

// Truncating division of magnitudes; either output may be null.
void divide(TermAllocator& a, const IntView& x, const IntView& y, Term* quot, Term* rem) {
    if (x.n < y.n) {
        if (quot) *quot = make_small(0);
        if (rem) *rem = make_integer_limbs(a, x.limbs, x.n, x.neg);
        return;
    }
    Limbs q(x.n - y.n + 1), r(y.n);
    mpn_tdiv_qr(mp(q.data()), mp(r.data()), 0, x.mp(), x.n, y.mp(), y.n);
    if (quot) *quot = make_integer_limbs(a, q.data(), q.size(), x.neg != y.neg);
    if (rem) *rem = make_integer_limbs(a, r.data(), r.size(), x.neg);
}

}  // namespace

Term int_div(TermAllocator& a, Term x, Term y) {
    if (is_small(y) && small_value(y) == 0) return NON_VALUE;
    // C++ division truncates toward zero, as Erlang's div does.
    if (is_small(x) && is_small(y)) return make_integer(a, small_value(x) / small_value(y));
    IntView vx(x), vy(y);
    Term q;
    divide(a, vx, vy, &q, nullptr);
    return q;
}

Term int_rem(TermAllocator& a, Term x, Term y) {
    if (is_small(y) && small_value(y) == 0) return NON_VALUE;
    if (is_small(x) && is_small(y)) return make_small(small_value(x) % small_value(y));
    IntView vx(x), vy(y);
    Term r;
    divide(a, vx, vy, nullptr, &r);
    return r;
}

int int_sign(Term x) {
    if (is_small(x)) {
        SWord v = small_value(x);
        return v < 0 ? -1 : v > 0 ? 1 : 0;
    }
    return big_is_negative(x) ? -1 : 1;  // bignums are never zero
}

int int_compare(Term x, Term y) {
    if (is_small(x) && is_small(y)) {
        SWord a = small_value(x), b = small_value(y);
        return a < b ? -1 : a > b ? 1 : 0;
    }
    IntView vx(x), vy(y);
    int sx = vx.n == 0 ? 0 : vx.neg ? -1 : 1;
    int sy = vy.n == 0 ? 0 : vy.neg ? -1 : 1;
    if (sx != sy) return sx < sy ? -1 : 1;
    int c = mag_compare(vx.limbs, vx.n, vy.limbs, vy.n);
    return sx < 0 ? -c : c;
}

std::optional<int64_t> int_to_int64(Term x) {
    if (is_small(x)) return small_value(x);
    IntView v(x);
    if (v.n != 1) return std::nullopt;
    uint64_t m = v.limbs[0];
    if (!v.neg && m <= uint64_t(INT64_MAX)) return int64_t(m);
    if (v.neg && m <= uint64_t(INT64_MAX) + 1) return int64_t(uint64_t(0) - m);
    return std::nullopt;
}

double int_to_double(Term x) {
    if (is_small(x)) return double(small_value(x));
    // OTP accumulates limb by limb from the top (each step rounded); doing the same makes
    // float/1 of a bignum agree with OTP bit for bit, even where that is not correctly rounded.
    IntView v(x);
    double d = 0.0;
    for (size_t i = v.n; i-- > 0;) {
        d = d * 18446744073709551616.0 + double(v.limbs[i]);
        if (!std::isfinite(d)) break;
    }
    return v.neg ? -d : d;
}

namespace {

// Magnitude of trunc(d) into out[0..16]; returns the limb count (0 for |d| < 1).
size_t double_trunc_limbs(double d, uint64_t out[17]) {
    int e;
    double m = std::frexp(std::fabs(d), &e);  // |d| = m * 2^e, 0.5 <= m < 1
    if (e <= 0) return 0;
    uint64_t mant = uint64_t(std::ldexp(m, 53));  // exact: 53 significant bits
    int shift = e - 53;
    if (shift <= 0) {
        out[0] = mant >> -shift;
        return out[0] ? 1 : 0;
    }
    size_t limb = size_t(shift) / 64, bit = size_t(shift) % 64;
    for (size_t i = 0; i <= limb + 1 && i < 17; ++i) out[i] = 0;
    out[limb] = mant << bit;
    if (bit) out[limb + 1] = mant >> (64 - bit);
    size_t n = limb + 2;
    while (n && out[n - 1] == 0) --n;
    return n;
}

}  // namespace

Term int_from_double(TermAllocator& a, double d) {
    if (std::fabs(d) < 4611686018427387904.0) return make_integer(a, SWord(d));  // |d| < 2^62
    uint64_t limbs[17];
    size_t n = double_trunc_limbs(d, limbs);
    return make_integer_limbs(a, limbs, n, d < 0);
}

int int_compare_double(Term x, double d) {
    if (is_small(x) && std::fabs(d) < 4611686018427387904.0) {  // 2^62: trunc fits int64
        SWord v = small_value(x);
        SWord t = SWord(d);
        if (v != t) return v < t ? -1 : 1;
        double frac = d - double(t);
        return frac > 0 ? -1 : frac < 0 ? 1 : 0;
    }
    IntView v(x);
    int sx = v.n == 0 ? 0 : v.neg ? -1 : 1;
    int sd = d < 0 ? -1 : d > 0 ? 1 : 0;
    if (sx != sd) return sx < sd ? -1 : 1;
    if (sx == 0) return 0;
    uint64_t t[17];
    size_t tn = double_trunc_limbs(d, t);
    int c = mag_compare(v.limbs, v.n, t, tn);
    if (c == 0) {
        double frac = std::fabs(d) - std::trunc(std::fabs(d));
        c = frac > 0 ? -1 : 0;
    }
    return sx < 0 ? -c : c;
}

}  // namespace beam

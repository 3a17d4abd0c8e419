// band/bor/bxor/bnot and shifts. Erlang defines them on the infinite two's complement form of
// the integer, so negative operands are converted to two's complement limbs one limb wider than
// the widest operand (the extra limb holds the sign extension), combined, and converted back.
#include "vm/bignum_internal.hpp"

namespace beam {

using namespace bigint;

namespace {

// `r` is zeroed and at least v.n + 1 limbs wide.
void to_twos(const IntView& v, Limbs& r) {
    std::memcpy(r.data(), v.limbs, v.n * sizeof(uint64_t));
    if (v.neg) {
        for (uint64_t& l : r) l = ~l;
        mpn_add_1(mp(r.data()), mp(r.data()), r.size(), 1);
    }
}

Term from_twos(TermAllocator& a, Limbs& r) {
    bool neg = (r.back() >> 63) != 0;
    if (neg) {
        for (uint64_t& l : r) l = ~l;
        mpn_add_1(mp(r.data()), mp(r.data()), r.size(), 1);
    }
    return make_integer_limbs_limited(a, r.data(), r.size(), neg);
}

enum class BitOp { And, Or, Xor };

Term bitwise(TermAllocator& a, Term x, Term y, BitOp op) {
    IntView vx(x), vy(y);
    size_t width = (vx.n > vy.n ? vx.n : vy.n) + 1;
    Limbs lx(width), ly(width);
    to_twos(vx, lx);
    to_twos(vy, ly);
    for (size_t i = 0; i < width; ++i) {
        switch (op) {
        case BitOp::And: lx[i] &= ly[i]; break;
        case BitOp::Or: lx[i] |= ly[i]; break;
        case BitOp::Xor: lx[i] ^= ly[i]; break;
        }
    }
    return from_twos(a, lx);
}

// The low 64 bits of a bignum's two's complement form.
uint64_t low_twos(Term big) {
    uint64_t low = big_limbs(big)[0];
    return big_is_negative(big) ? uint64_t(0) - low : low;
}

}  // namespace

Term int_band(TermAllocator& a, Term x, Term y) {
    if (is_small(x) && is_small(y)) return make_small(small_value(x) & small_value(y));
    // A non-negative small keeps only low bits of the other operand: the result is a small
    // (hashes and pseudo-random sequences mask a bignum product so).
    if (is_small(y) && small_value(y) >= 0) return make_small(SWord(low_twos(x) & uint64_t(small_value(y))));
    if (is_small(x) && small_value(x) >= 0) return make_small(SWord(low_twos(y) & uint64_t(small_value(x))));
    return bitwise(a, x, y, BitOp::And);
}

Term int_bor(TermAllocator& a, Term x, Term y) {
    if (is_small(x) && is_small(y)) return make_small(small_value(x) | small_value(y));
    return bitwise(a, x, y, BitOp::Or);
}

Term int_bxor(TermAllocator& a, Term x, Term y) {
    if (is_small(x) && is_small(y)) return make_small(small_value(x) ^ small_value(y));
    return bitwise(a, x, y, BitOp::Xor);
}

Term int_bnot(TermAllocator& a, Term x) {
    if (is_small(x)) return make_small(~small_value(x));  // ~v = -v-1 stays in small range
    return int_sub(a, make_small(-1), x);
}

Term int_bsl(TermAllocator& a, Term x, int64_t shift) {
    IntView v(x);
    if (v.n == 0 || shift == 0) return x;
    if (shift > 0) {
        if (is_small(x) && shift < 64) {
            __int128 r = (__int128)small_value(x) << shift;
            if (r >= SMALL_MIN && r <= SMALL_MAX) return make_small(SWord(r));
        }
        uint64_t limb_shift = uint64_t(shift) / 64;
        unsigned bit = unsigned(uint64_t(shift) % 64);
        // The result has at least limb_shift + v.n limbs, one more if bits carry out.
        if (limb_shift + v.n > MAX_BIG_LIMBS) return NON_VALUE;
        Limbs r(limb_shift + v.n + 1, 0);
        if (bit)
            r[limb_shift + v.n] = mpn_lshift(mp(r.data() + limb_shift), v.mp(), v.n, bit);
        else
            std::memcpy(r.data() + limb_shift, v.limbs, v.n * sizeof(uint64_t));
        if (r.back() != 0 && r.size() > MAX_BIG_LIMBS) return NON_VALUE;
        return make_integer_limbs(a, r.data(), r.size(), v.neg);
    }
    // Arithmetic right shift rounds toward minus infinity: for negative x it is
    // -ceil(|x| / 2^s), i.e. one more than the truncated magnitude when any 1 bit falls off.
    uint64_t s = uint64_t(0) - uint64_t(shift);
    if (is_small(x)) return make_small(small_value(x) >> (s < 63 ? s : 63));
    uint64_t limb_shift = s / 64;
    unsigned bit = unsigned(s % 64);
    if (limb_shift >= v.n) return make_small(v.neg ? -1 : 0);
    bool lost = false;
    for (size_t i = 0; i < limb_shift && !lost; ++i) lost = v.limbs[i] != 0;
    size_t rn = v.n - limb_shift;
    Limbs r(rn + 1, 0);
    if (bit) {
        if (mpn_rshift(mp(r.data()), v.mp() + limb_shift, rn, bit) != 0) lost = true;
    } else {
        std::memcpy(r.data(), v.limbs + limb_shift, rn * sizeof(uint64_t));
    }
    if (v.neg && lost) mpn_add_1(mp(r.data()), mp(r.data()), rn + 1, 1);
    return make_integer_limbs(a, r.data(), r.size(), v.neg);
}

}  // namespace beam

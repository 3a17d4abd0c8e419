#include "vm/bits_codec.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "vm/binary.hpp"
#include "vm/bignum.hpp"

namespace beam {

namespace {

// A byte buffer that stays on the stack for the common sizes.
class ByteBuf {
public:
    explicit ByteBuf(size_t n) : n_(n) {
        if (n > sizeof small_) {
            big_.assign(n, 0);
            p_ = big_.data();
        } else {
            std::memset(small_, 0, sizeof small_);
            p_ = small_;
        }
    }
    uint8_t* data() { return p_; }
    uint8_t& operator[](size_t i) { return p_[i]; }
    size_t size() const { return n_; }

private:
    size_t n_;
    uint8_t small_[32];
    std::vector<uint8_t> big_;
    uint8_t* p_;
};

// The n low-order bytes of v in two's complement, least significant first.
void int_to_le_bytes(Term v, uint8_t* out, size_t n) {
    if (is_small(v)) {
        SWord s = small_value(v);
        for (size_t i = 0; i < n; ++i) out[i] = i < 8 ? uint8_t(s >> (8 * i)) : (s < 0 ? 0xFF : 0);
        return;
    }
    const uint64_t* limbs = big_limbs(v);
    size_t nl = big_limb_count(v);
    bool neg = big_is_negative(v);
    unsigned carry = 1;
    for (size_t i = 0; i < n; ++i) {
        unsigned b = i / 8 < nl ? unsigned(limbs[i / 8] >> (8 * (i % 8))) & 0xFF : 0;
        if (neg) {
            b = (~b & 0xFF) + carry;
            carry = b >> 8;
            b &= 0xFF;
        }
        out[i] = uint8_t(b);
    }
}

void put_bytes_in_order(uint8_t* dst, size_t off, const uint8_t* le, size_t bits, bool little) {
    size_t n = (bits + 7) / 8;
    if (little) {
        size_t r = bits - (n - 1) * 8;  // 1..8 bits in the last chunk
        copy_bits(le, 0, dst, off, (n - 1) * 8);
        copy_bits(le + n - 1, 8 - r, dst, off + (n - 1) * 8, r);
        return;
    }
    ByteBuf be(n);
    for (size_t i = 0; i < n; ++i) be[i] = le[n - 1 - i];
    copy_bits(be.data(), n * 8 - bits, dst, off, bits);
}

// Reads `bits` bits into a little-endian byte buffer of (bits+7)/8 bytes (zero-extended).
void get_bytes_in_order(const uint8_t* src, size_t off, size_t bits, bool little, uint8_t* le) {
    size_t n = (bits + 7) / 8;
    if (little) {
        size_t r = bits - (n - 1) * 8;
        copy_bits(src, off, le, 0, (n - 1) * 8);
        le[n - 1] = 0;
        copy_bits(src, off + (n - 1) * 8, le + n - 1, 8 - r, r);
        return;
    }
    ByteBuf be(n);
    copy_bits(src, off, be.data(), n * 8 - bits, bits);
    for (size_t i = 0; i < n; ++i) le[i] = be[n - 1 - i];
}

// Fast paths for the common segments (measured on bench/binaries.erl: the general byte-buffer
// path was a third of the time spent in bit syntax). A big-endian field of up to 56 bits at any
// offset spans at most 8 bytes, so it is one read-modify-write of those bytes; a little-endian
// one is handled when byte-aligned and whole bytes.
inline size_t span_bytes(size_t off, size_t bits) { return ((off & 7) + bits + 7) / 8; }

inline uint64_t load_be(const uint8_t* p, size_t n) {
    uint64_t u = 0;
    for (size_t i = 0; i < n; ++i) u = (u << 8) | p[i];
    return u;
}

inline void store_be(uint8_t* p, size_t n, uint64_t u) {
    for (size_t i = n; i-- > 0;) {
        p[i] = uint8_t(u);
        u >>= 8;
    }
}

bool put_small_fast(uint8_t* dst, size_t off, uint64_t v, size_t bits, bool little) {
    if (little) {
        if ((off | bits) & 7 || bits > 64) return false;
        uint8_t* p = dst + (off >> 3);
        for (size_t i = 0; i < bits / 8; ++i) p[i] = uint8_t(v >> (8 * i));
        return true;
    }
    if (bits > 56) return false;
    size_t n = span_bytes(off, bits);
    unsigned shift = unsigned(n * 8 - (off & 7) - bits);
    uint64_t mask = ((uint64_t{1} << bits) - 1) << shift;
    uint8_t* p = dst + (off >> 3);
    store_be(p, n, (load_be(p, n) & ~mask) | ((v << shift) & mask));
    return true;
}

bool get_small_fast(const uint8_t* src, size_t off, size_t bits, bool little, uint64_t* out) {
    const uint8_t* p = src + (off >> 3);
    if (little) {
        if ((off | bits) & 7 || bits > 64) return false;
        uint64_t u = 0;
        for (size_t i = 0; i < bits / 8; ++i) u |= uint64_t(p[i]) << (8 * i);
        *out = u;
        return true;
    }
    if (bits > 56) return false;
    size_t n = span_bytes(off, bits);
    *out = (load_be(p, n) >> (n * 8 - (off & 7) - bits)) & ((uint64_t{1} << bits) - 1);
    return true;
}

// Sets `bits` bits from bit offset `off` to all zeros or all ones.
void fill_bits(uint8_t* dst, size_t off, size_t bits, bool ones) {
    auto set_bit = [&](size_t at) {
        uint8_t mask = uint8_t(0x80u >> (at & 7));
        dst[at >> 3] = ones ? uint8_t(dst[at >> 3] | mask) : uint8_t(dst[at >> 3] & ~mask);
    };
    for (; bits && (off & 7); ++off, --bits) set_bit(off);
    std::memset(dst + (off >> 3), ones ? 0xFF : 0, bits / 8);
    off += bits / 8 * 8;
    for (bits %= 8; bits; ++off, --bits) set_bit(off);
}

// A small integer in a field wider than 64 bits (<<0:N>> for a large N): 64 bits of value and
// the rest sign fill, written directly rather than through a buffer of the field's size.
void put_small_wide(uint8_t* dst, size_t off, int64_t v, size_t bits, bool little) {
    uint8_t le[8];
    for (int i = 0; i < 8; ++i) le[i] = uint8_t(uint64_t(v) >> (8 * i));
    if (little) {
        put_bytes_in_order(dst, off, le, 64, true);
        fill_bits(dst, off + 64, bits - 64, v < 0);
    } else {
        fill_bits(dst, off, bits - 64, v < 0);
        put_bytes_in_order(dst, off + bits - 64, le, 64, false);
    }
}

}  // namespace

void put_integer_bits(uint8_t* dst, size_t off, Term v, size_t bits, bool little) {
    if (bits == 0) return;
    if (is_small(v) && put_small_fast(dst, off, uint64_t(small_value(v)), bits, little)) return;
    if (is_small(v) && bits > 64) return put_small_wide(dst, off, small_value(v), bits, little);
    size_t n = (bits + 7) / 8;
    ByteBuf le(n);
    int_to_le_bytes(v, le.data(), n);
    put_bytes_in_order(dst, off, le.data(), bits, little);
}

Term get_integer_bits(TermAllocator& a, const uint8_t* src, size_t off, size_t bits, bool little, bool is_signed) {
    if (bits == 0) return make_small(0);
    if (uint64_t u; bits < 64 && get_small_fast(src, off, bits, little, &u)) {
        if (is_signed && (u >> (bits - 1)) & 1) return make_integer(a, int64_t(u | (~uint64_t{0} << bits)));
        return make_integer_u(a, u);
    }
    size_t n = (bits + 7) / 8;
    size_t limbs = (n + 7) / 8;
    ByteBuf le(limbs * 8);
    get_bytes_in_order(src, off, bits, little, le.data());
    bool neg = is_signed && ((le[(bits - 1) / 8] >> ((bits - 1) % 8)) & 1);
    if (bits <= 64) {
        uint64_t u;
        std::memcpy(&u, le.data(), 8);
        if (!neg) return make_integer_u(a, u);
        if (bits < 64) u |= ~uint64_t{0} << bits;
        return make_integer(a, int64_t(u));
    }
    if (neg) {
        // Sign-extend to whole limbs, then negate to get the magnitude.
        for (size_t b = bits; b < limbs * 64; ++b) le[b / 8] |= uint8_t(1u << (b % 8));
        unsigned carry = 1;
        for (size_t i = 0; i < limbs * 8; ++i) {
            unsigned v = (~unsigned(le[i]) & 0xFF) + carry;
            le[i] = uint8_t(v);
            carry = v >> 8;
        }
    }
    std::vector<uint64_t> mag(limbs);
    std::memcpy(mag.data(), le.data(), limbs * 8);
    return make_integer_limbs_limited(a, mag.data(), limbs, neg);
}

namespace {
// IEEE 754 binary16 by hand (clang 14 has no _Float16 on x86-64): rounded to nearest, ties to
// even, as a conversion to _Float16 rounds; too large becomes infinity.
uint16_t half_from_double(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    uint16_t sign = uint16_t((bits >> 48) & 0x8000);
    int exp = int((bits >> 52) & 0x7ff) - 1023;
    uint64_t mant = bits & ((uint64_t(1) << 52) - 1);
    if (exp == 1024) return sign | (mant ? 0x7e00 : 0x7c00);  // NaN, infinity
    if (exp > 15) return sign | 0x7c00;
    if (exp < -25) return sign;  // below half the smallest subnormal (double subnormals too)
    uint64_t full = mant | (uint64_t(1) << 52);
    // A normal half keeps 10 bits of the mantissa; a subnormal fewer, from 2^-24 up.
    int shift = exp >= -14 ? 42 : 42 + (-14 - exp);
    uint64_t kept = full >> shift, rest = full & ((uint64_t(1) << shift) - 1), half_way = uint64_t(1) << (shift - 1);
    uint32_t h = exp >= -14 ? (uint32_t(exp + 15) << 10) | uint32_t(kept & 0x3ff) : uint32_t(kept);
    if (rest > half_way || (rest == half_way && (kept & 1))) ++h;  // a carry moves into the exponent
    return sign | uint16_t(h);
}

double double_from_half(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double d = e == 0    ? std::ldexp(double(m), -24)
               : e == 31 ? (m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity())
                         : std::ldexp(double(m + 1024), e - 25);
    return h & 0x8000 ? -d : d;
}
}  // namespace

void put_float_bits(uint8_t* dst, size_t off, double d, size_t bits, bool little) {
    uint8_t le[8];
    if (bits == 64) {
        std::memcpy(le, &d, 8);
    } else if (bits == 32) {
        float f = float(d);
        std::memcpy(le, &f, 4);
    } else {
        uint16_t h = half_from_double(d);
        std::memcpy(le, &h, 2);
    }
    put_bytes_in_order(dst, off, le, bits, little);
}

std::optional<double> get_float_bits(const uint8_t* src, size_t off, size_t bits, bool little) {
    uint8_t le[8] = {};
    get_bytes_in_order(src, off, bits, little, le);
    double d;
    if (bits == 64) {
        std::memcpy(&d, le, 8);
    } else if (bits == 32) {
        float f;
        std::memcpy(&f, le, 4);
        d = f;
    } else {
        uint16_t h;
        std::memcpy(&h, le, 2);
        d = double_from_half(h);
    }
    if (!std::isfinite(d)) return std::nullopt;
    return d;
}

size_t put_utf8_bits(uint8_t* dst, size_t off, uint32_t cp) {
    uint8_t b[4];
    size_t n = utf8_bytes(cp);
    switch (n) {
    case 1: b[0] = uint8_t(cp); break;
    case 2:
        b[0] = uint8_t(0xC0 | (cp >> 6));
        b[1] = uint8_t(0x80 | (cp & 0x3F));
        break;
    case 3:
        b[0] = uint8_t(0xE0 | (cp >> 12));
        b[1] = uint8_t(0x80 | ((cp >> 6) & 0x3F));
        b[2] = uint8_t(0x80 | (cp & 0x3F));
        break;
    default:
        b[0] = uint8_t(0xF0 | (cp >> 18));
        b[1] = uint8_t(0x80 | ((cp >> 12) & 0x3F));
        b[2] = uint8_t(0x80 | ((cp >> 6) & 0x3F));
        b[3] = uint8_t(0x80 | (cp & 0x3F));
        break;
    }
    copy_bits(b, 0, dst, off, n * 8);
    return n * 8;
}

namespace {
void put_unit16(uint8_t* dst, size_t off, uint32_t u, bool little) {
    uint8_t le[2] = {uint8_t(u), uint8_t(u >> 8)};
    put_bytes_in_order(dst, off, le, 16, little);
}
uint32_t get_unit16(const uint8_t* src, size_t off, bool little) {
    uint8_t le[2];
    get_bytes_in_order(src, off, 16, little, le);
    return le[0] | (uint32_t(le[1]) << 8);
}
}  // namespace

size_t put_utf16_bits(uint8_t* dst, size_t off, uint32_t cp, bool little) {
    if (cp < 0x10000) {
        put_unit16(dst, off, cp, little);
        return 16;
    }
    uint32_t v = cp - 0x10000;
    put_unit16(dst, off, 0xD800 | (v >> 10), little);
    put_unit16(dst, off + 16, 0xDC00 | (v & 0x3FF), little);
    return 32;
}

size_t put_utf32_bits(uint8_t* dst, size_t off, uint32_t cp, bool little) {
    uint8_t le[4] = {uint8_t(cp), uint8_t(cp >> 8), uint8_t(cp >> 16), uint8_t(cp >> 24)};
    put_bytes_in_order(dst, off, le, 32, little);
    return 32;
}

std::optional<DecodedChar> get_utf8_bits(const uint8_t* src, size_t off, size_t avail) {
    uint8_t b[4];
    size_t have = std::min<size_t>(avail / 8, 4);
    if (have == 0) return std::nullopt;
    copy_bits(src, off, b, 0, have * 8);
    uint32_t c = b[0];
    size_t n;
    uint32_t min;
    if (c < 0x80) return DecodedChar{c, 8};
    if ((c & 0xE0) == 0xC0) n = 2, c &= 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0) n = 3, c &= 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0) n = 4, c &= 0x07, min = 0x10000;
    else return std::nullopt;
    if (have < n) return std::nullopt;
    for (size_t i = 1; i < n; ++i) {
        if ((b[i] & 0xC0) != 0x80) return std::nullopt;
        c = (c << 6) | (b[i] & 0x3F);
    }
    if (c < min || !is_unicode_scalar(c)) return std::nullopt;
    return DecodedChar{c, n * 8};
}

std::optional<DecodedChar> get_utf16_bits(const uint8_t* src, size_t off, size_t avail, bool little) {
    if (avail < 16) return std::nullopt;
    uint32_t w1 = get_unit16(src, off, little);
    if (w1 < 0xD800 || w1 > 0xDFFF) return DecodedChar{w1, 16};
    if (w1 > 0xDBFF || avail < 32) return std::nullopt;
    uint32_t w2 = get_unit16(src, off + 16, little);
    if (w2 < 0xDC00 || w2 > 0xDFFF) return std::nullopt;
    return DecodedChar{0x10000 + ((w1 - 0xD800) << 10) + (w2 - 0xDC00), 32};
}

std::optional<DecodedChar> get_utf32_bits(const uint8_t* src, size_t off, size_t avail, bool little) {
    if (avail < 32) return std::nullopt;
    uint8_t le[4];
    get_bytes_in_order(src, off, 32, little, le);
    uint32_t c = le[0] | (uint32_t(le[1]) << 8) | (uint32_t(le[2]) << 16) | (uint32_t(le[3]) << 24);
    if (!is_unicode_scalar(c)) return std::nullopt;
    return DecodedChar{c, 32};
}

}  // namespace beam

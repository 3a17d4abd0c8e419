// The inline parts of the bit-syntax matching instructions (vm/instructions.tab, binaries
// section) and their out-of-line slow paths (vm/bits_match_fast.cpp).
//
// A match context is [hdr MatchState][underlying HeapBin/RefcBin][bit position][bit end]
// (vm/bits_match.cpp), positions absolute in the underlying binary. The underlying binary
// holds at least (end + 7) / 8 bytes, so every read below stays inside them.
#pragma once

#include <cstring>

#include "vm/binary.hpp"
#include "vm/term.hpp"

namespace beam {

class Process;

namespace bits {

inline constexpr size_t MATCH_STATE_WORDS = 4;

// The 8 bits at bit `pos` (bs_get_u8 and bs_start_match_get_u8; the caller checked they exist).
inline Word u8_at(const uint8_t* base, size_t pos) {
    const uint8_t* q = base + (pos >> 3);
    unsigned s = unsigned(pos & 7);
    return s == 0 ? q[0] : ((unsigned(q[0]) << 8 | q[1]) >> (8 - s)) & 0xFF;
}

// `n` (1..64) bits at bit `pos`, as an unsigned number (the first bit most significant).
// `end` bounds the bytes that may be read: one 8-byte load whenever the binary has 8 bytes.
inline uint64_t load_bits(const uint8_t* base, size_t pos, size_t end, unsigned n) {
    const uint8_t* q = base + (pos >> 3);
    unsigned s = unsigned(pos & 7);
    size_t stop = (end + 7) >> 3;  // bytes that may be read: [0, stop)
    size_t avail = stop - (pos >> 3);
    uint64_t w;
    if (__builtin_expect(avail >= 8, 1)) {
        std::memcpy(&w, q, 8);
        w = __builtin_bswap64(w);
    } else if (stop >= 8) {
        // Near the end: the 8 bytes that end at `stop`, shifted so that *q comes first.
        std::memcpy(&w, base + stop - 8, 8);
        w = __builtin_bswap64(w) << (8 * (8 - avail));
    } else {
        w = 0;
        for (size_t i = 0; i < avail; ++i) w |= uint64_t(q[i]) << (56 - 8 * i);
    }
    if (s + n <= 64) return (w << s) >> (64 - n);
    return ((w << s) | (uint64_t(q[8]) >> (8 - s))) >> (64 - n);  // spans 9 bytes
}

// The value of an `n`-bit little-endian segment whose bits, read in order, are `v`. OTP's
// layout (vm/bits_codec.hpp): whole bytes least significant first, and the last, partial
// chunk holds the low bits of the most significant byte.
inline uint64_t little_value(uint64_t v, unsigned n) {
    unsigned whole = (n - 1) >> 3;  // bytes before the last chunk
    if (whole == 0) return v;
    unsigned r = n - 8 * whole;     // 1..8 bits in the last chunk
    uint64_t last = v & ((uint64_t{1} << r) - 1);
    uint64_t first = __builtin_bswap64(v >> r) >> (64 - 8 * whole);
    return first | (last << (8 * whole));
}

inline int64_t sign_extend(uint64_t v, unsigned n) { return int64_t(v << (64 - n)) >> (64 - n); }

// The float whose IEEE 754 bits (binary32 or binary64, n = 32 or 64) are the low n bits of v.
inline double float_of(uint64_t v, unsigned n) {
    if (n == 64) {
        double d;
        std::memcpy(&d, &v, 8);
        return d;
    }
    uint32_t w = uint32_t(v);
    float f;
    std::memcpy(&f, &w, 4);
    return f;
}

// Flags of bs_get_int (the loader's encoding).
inline constexpr Word INT_LITTLE = 1, INT_SIGNED = 2;

// Heap words of what make_slice builds for a part of `bits` bits that is not the whole
// underlying binary: a copy in a heap binary (plus a sub-binary over it for a bitstring)
// up to HEAP_BIN_LIMIT bytes, a sub-binary above.
inline size_t slice_words(size_t bits) {
    if (bits > HEAP_BIN_LIMIT * 8) return SUB_BIN_WORDS;
    return heap_bin_words((bits + 7) >> 3) + ((bits & 7) ? SUB_BIN_WORDS : 0);
}

inline size_t underlying_bits(Term under) { return size_t(boxed_ptr(under)[1].raw) << 3; }

// make_slice (vm/binary.hpp) of bits [pos, pos + bits) of the binary under a match context,
// built at *hp, which has slice_words(bits) free words.
inline Term slice_at(Term*& hp, Term under, size_t pos, size_t bits) {
    if (pos == 0 && bits == underlying_bits(under)) return under;
    if (bits > HEAP_BIN_LIMIT * 8) {
        Term* sb = hp;
        hp += SUB_BIN_WORDS;
        sb[0] = make_header(Sub::SubBin, SUB_BIN_WORDS - 1);
        sb[1] = under;
        sb[2] = Term{Word(pos)};
        sb[3] = Term{Word(bits)};
        return make_boxed(sb);
    }
    size_t bytes = (bits + 7) >> 3, words = heap_bin_words(bytes);
    Term* hb = hp;
    hp += words;
    hb[0] = make_header(Sub::HeapBin, words - 1);
    hb[1] = Term{Word(bytes)};
    hb[words - 1] = Term{0};
    uint8_t* data = reinterpret_cast<uint8_t*>(hb + 2);
    const uint8_t* base = binary_data_base(under);
    if ((pos & 7) == 0) {
        std::memcpy(data, base + (pos >> 3), bytes);
        if (bits & 7) data[bytes - 1] &= uint8_t(0xFF00u >> (bits & 7));  // unused bits read as zero
    } else if (bytes) {
        data[bytes - 1] = 0;
        copy_bits(base, pos, data, 0, bits);
    }
    Term copy = make_boxed(hb);
    if ((bits & 7) == 0) return copy;
    Term* sb = hp;
    hp += SUB_BIN_WORDS;
    sb[0] = make_header(Sub::SubBin, SUB_BIN_WORDS - 1);
    sb[1] = copy;
    sb[2] = Term{0};
    sb[3] = Term{Word(bits)};
    return make_boxed(sb);
}

// Bits of a Size * Unit segment whose size is a run-time term; false when the size is not a
// non-negative small integer or the product is absurd (the match fails, as in OTP).
inline bool size_bits(Term size, Word unit, size_t* bits) {
    if (!is_small(size) || small_value(size) < 0) return false;
    unsigned __int128 b = (unsigned __int128)small_value(size) * unit;
    if (b > (size_t{1} << 62)) return false;
    *bits = size_t(b);
    return true;
}

// ---- out of line (vm/bits_match_fast.cpp), called between SWAPOUT and SWAPIN ----
// A match context for `src`, or NON_VALUE (nothing raised) when it is not a bitstring.
Term start_match(Process* p, Term src);
// make_slice of the binary under context `ctx` when the heap gap is too small (heap fragment).
Term slice_slow(Process* p, Term ctx, size_t pos, size_t bits);
// An integer segment of up to 64 bits whose value is not a small integer (a bignum).
Term int_value_big(Process* p, uint64_t v, unsigned n, Word flags);
// An integer segment of any size (`bits` available at the context's position); NON_VALUE
// when its value is beyond the bignum limit.
Term int_slow(Process* p, Term ctx, size_t bits, Word flags);
// The UTF-8 character at the context's position: its code point, and in *bits its length;
// -1 when there is none (malformed, truncated, not a scalar value).
SWord utf8_slow(Term ctx, size_t* bits);
// bs_match_string at any alignment: whether the `bits` bits at the context's position are `s`.
bool string_matches(Term ctx, const uint8_t* s, size_t bits);

}  // namespace bits
}  // namespace beam

// For the handlers in vm/instructions.tab: these use the interpreter's locals and macros
// (I, E, HTOP, p, SWAPOUT, JUMP, RAISE: vm/interp.cpp).
//
// A failed test without a fail label raises badarg, as bs_match does.
#define BS_FAIL(fail)    \
    do {                 \
        if (fail) JUMP(fail); \
        BS_BADARG();     \
    } while (0)
#define BS_BADARG()      \
    do {                 \
        SWAPOUT;         \
        p->badarg();     \
        RAISE();         \
    } while (0)
// s = a match context for `s`: `s` when it is one, else bits::start_match's (out of line; the
// fused bs_start_match_get_* instructions, whose loops reuse one context); to `fail` if none.
#define BS_CONTEXT_OF(s, fail)                \
    do {                                      \
        if (!is_boxed_sub(s, Sub::MatchState)) { \
            SWAPOUT;                          \
            s = bits::start_match(p, s);      \
            SWAPIN;                           \
            if (is_non_value(s)) BS_FAIL(fail); \
        }                                     \
    } while (0)
// The words of match context `t`; anything else (only hand-written code passes one) is badarg.
#define BS_CTX(t)                                                 \
    ({                                                            \
        Term c_ = (t);                                            \
        if (__builtin_expect(!is_boxed_sub(c_, Sub::MatchState), 0)) BS_BADARG(); \
        boxed_ptr(c_);                                            \
    })
// dst = the integer segment of `n` (1..64) bits at `pos` (before `end`) of context words `ms`,
// flags `fl` (bits::INT_*); the position moves past it.
#define BS_GET_INT(ms, pos, end, n, fl, dst)                                      \
    do {                                                                          \
        Word fl_ = (fl);                                                          \
        uint64_t v_ = bits::load_bits(binary_data_base((ms)[1]), (pos), (end), unsigned(n)); \
        if (fl_ & bits::INT_LITTLE) v_ = bits::little_value(v_, unsigned(n));    \
        SWord sv_ = (fl_ & bits::INT_SIGNED) ? bits::sign_extend(v_, unsigned(n)) : SWord(v_); \
        Term r_;                                                                  \
        if ((fl_ & bits::INT_SIGNED) ? fits_small(sv_) : v_ <= uint64_t(SMALL_MAX)) { \
            r_ = make_small(sv_);                                                 \
        } else {                                                                  \
            SWAPOUT;                                                              \
            r_ = bits::int_value_big(p, v_, unsigned(n), fl_);                    \
            SWAPIN;                                                               \
        }                                                                         \
        (ms)[2] = Term{(pos) + (n)};                                              \
        dst = r_;                                                                 \
    } while (0)
// Whether `n` bits are not a whole number of `unit`s (unit 8 without a division).
#define BS_NOT_UNIT(n, unit) ((unit) == 8 ? ((n) & 7) != 0 : (unit) > 1 && (n) % (unit) != 0)
// dst = the `n` bits at `pos` of context `ctx` (words `ms`); the position does not move.
#define BS_SLICE(ctx, ms, pos, n, dst)                                            \
    do {                                                                          \
        Term r_;                                                                  \
        if (E - HTOP >= SWord(bits::slice_words(n) + S_RESERVED)) {               \
            r_ = bits::slice_at(HTOP, (ms)[1], (pos), (n));                       \
        } else {                                                                  \
            SWAPOUT;                                                              \
            r_ = bits::slice_slow(p, (ctx), (pos), (n));                          \
            SWAPIN;                                                               \
        }                                                                         \
        dst = r_;                                                                 \
    } while (0)

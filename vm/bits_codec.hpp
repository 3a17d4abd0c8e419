// Bit-level encoding and decoding of bit-syntax segment values: integers of any size and
// endianness, floats of 16/32/64 bits, and UTF-8/16/32 code points, at any bit offset.
// Shared by construction (vm/interp_bits.cpp) and matching (vm/bits_match.cpp).
//
// OTP's little-endian layout for sizes that are not whole bytes: the low-order bytes come
// first, and the final partial chunk holds the low bits of the most significant byte
// (<<16#123:12/little>> is <<16#23, 1:4>>).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

// Writes the low `bits` bits of integer `v` (two's complement) at bit `off` of `dst`.
void put_integer_bits(uint8_t* dst, size_t off, Term v, size_t bits, bool little);
// Reads a `bits`-bit integer at bit `off` of `src`; NON_VALUE when its magnitude needs more
// than MAX_BIG_LIMBS limbs (OTP's bs_get_integer fails the match there).
Term get_integer_bits(TermAllocator& a, const uint8_t* src, size_t off, size_t bits, bool little, bool is_signed);

// `bits` is 16, 32 or 64. Values too large for the format become infinities, as in OTP.
void put_float_bits(uint8_t* dst, size_t off, double d, size_t bits, bool little);
// nullopt for NaN and infinities, which a match refuses.
std::optional<double> get_float_bits(const uint8_t* src, size_t off, size_t bits, bool little);

inline bool is_unicode_scalar(int64_t cp) { return cp >= 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF); }
inline size_t utf8_bytes(uint32_t cp) { return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4; }
inline size_t utf16_bytes(uint32_t cp) { return cp < 0x10000 ? 2 : 4; }
// Encode `cp` (a Unicode scalar value) at bit `off`; return the number of bits written.
size_t put_utf8_bits(uint8_t* dst, size_t off, uint32_t cp);
size_t put_utf16_bits(uint8_t* dst, size_t off, uint32_t cp, bool little);
size_t put_utf32_bits(uint8_t* dst, size_t off, uint32_t cp, bool little);

struct DecodedChar {
    uint32_t cp;
    size_t bits;  // consumed
};
// Decode from `avail` bits at bit `off`; nullopt when malformed, truncated or not a scalar value.
std::optional<DecodedChar> get_utf8_bits(const uint8_t* src, size_t off, size_t avail);
std::optional<DecodedChar> get_utf16_bits(const uint8_t* src, size_t off, size_t avail, bool little);
std::optional<DecodedChar> get_utf32_bits(const uint8_t* src, size_t off, size_t avail, bool little);

}  // namespace beam

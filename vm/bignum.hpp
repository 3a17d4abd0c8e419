// Integer arithmetic on any integer term (small or bignum). Results are normalised: a value
// that fits a small integer is always a small integer. Bignum limbs are 64-bit, least
// significant first, magnitude only (sign in the header subtag); arithmetic uses GMP's mpn_*
// layer on limb arrays we own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

inline size_t big_limb_count(Term big) { return header_arity(box_header(big)); }
inline const uint64_t* big_limbs(Term big) { return reinterpret_cast<const uint64_t*>(boxed_ptr(big) + 1); }
inline bool big_is_negative(Term big) { return header_sub(box_header(big)) == Sub::NegBig; }

Term make_integer(TermAllocator& a, int64_t v);
Term make_integer_u(TermAllocator& a, uint64_t v);
// From a magnitude (limbs, least significant first; leading zero limbs allowed) and a sign.
Term make_integer_limbs(TermAllocator& a, const uint64_t* limbs, size_t n, bool negative);
// The same, but NON_VALUE when the magnitude needs more than MAX_BIG_LIMBS limbs. OTP refuses
// such integers where arithmetic or bit-syntax matching would make them (big_norm and
// bytes_to_big in big.c answer NIL); other conversions (binary:decode_unsigned) are not limited.
Term make_integer_limbs_limited(TermAllocator& a, const uint64_t* limbs, size_t n, bool negative);

// Each returns NON_VALUE only where noted; operands must be integers (small or big).
// + - * neg band bor bxor bnot and left shifts return NON_VALUE when the result would exceed
// MAX_BIG_LIMBS (OTP raises system_limit there).
Term int_add(TermAllocator& a, Term x, Term y);
Term int_sub(TermAllocator& a, Term x, Term y);
Term int_mul(TermAllocator& a, Term x, Term y);
Term int_neg(TermAllocator& a, Term x);
Term int_div(TermAllocator& a, Term x, Term y);  // truncating; NON_VALUE if y == 0
Term int_rem(TermAllocator& a, Term x, Term y);  // sign of x; NON_VALUE if y == 0
Term int_band(TermAllocator& a, Term x, Term y);  // two's complement semantics
Term int_bor(TermAllocator& a, Term x, Term y);
Term int_bxor(TermAllocator& a, Term x, Term y);
Term int_bnot(TermAllocator& a, Term x);
// Negative shift = right shift (arithmetic). NON_VALUE when the result would exceed
// MAX_BIG_LIMBS (OTP raises system_limit there).
Term int_bsl(TermAllocator& a, Term x, int64_t shift);
int int_compare(Term x, Term y);                           // -1, 0, 1
// Exact comparison of an integer with a finite double, as OTP's term order does it
// (no rounding of the integer: 2^64+1 > float(2^64)).
int int_compare_double(Term x, double d);
int int_sign(Term x);

// Conversions.
std::optional<int64_t> int_to_int64(Term x);
double int_to_double(Term x);  // may be +-inf for huge values; callers raise badarith
// Exact integer part of a finite double.
Term int_from_double(TermAllocator& a, double d);
std::string int_to_string(Term x, unsigned base = 10);  // upper-case digits, '-' sign
// Parses [+-]digits in `base`; nullopt when malformed.
std::optional<Term> int_from_string(TermAllocator& a, std::string_view s, unsigned base = 10);

// Largest bignum: OTP's BIG_ARITY_MAX (erl_term.h), 2^19-1 64-bit digits (about 2^25 bits);
// a larger result is a system_limit error there. Shifts check it (int_bsl); without it
// `1 bsl 16#8000000` built a 16 MB integer where erl fails at once.
inline constexpr size_t MAX_BIG_LIMBS = (size_t{1} << 19) - 1;

// Words a bignum of n limbs takes on the heap.
inline size_t big_words(size_t limbs) { return 1 + limbs; }

}  // namespace beam

// The out-of-line parts of the bit-syntax matching fast paths (vm/bits_fast.hpp): what the
// handlers leave when the heap gap is too small, the value is a bignum, or a string is not
// byte-aligned. Same results as the general path in vm/bits_match.cpp.
#include <vector>

#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/bits_codec.hpp"
#include "vm/bits_fast.hpp"
#include "vm/process.hpp"

namespace beam::bits {

Term start_match(Process* p, Term src) {
    if (is_boxed_sub(src, Sub::MatchState)) return src;
    if (!is_bitstring(src)) return NON_VALUE;
    const Term* b = boxed_ptr(src);
    Term under = src;
    size_t pos = 0, end;
    if (header_sub(b[0]) == Sub::SubBin) {
        under = b[1];
        pos = size_t(b[2].raw);
        end = pos + size_t(b[3].raw);
    } else {
        end = underlying_bits(src);
    }
    Term* hp = p->alloc(MATCH_STATE_WORDS);
    hp[0] = make_header(Sub::MatchState, MATCH_STATE_WORDS - 1);
    hp[1] = under;
    hp[2] = Term{Word(pos)};
    hp[3] = Term{Word(end)};
    return make_boxed(hp);
}

Term slice_slow(Process* p, Term ctx, size_t pos, size_t bits) { return make_slice(*p, ctx, pos, bits); }

Term int_value_big(Process* p, uint64_t v, unsigned n, Word flags) {
    if (flags & INT_SIGNED) return make_integer(*p, sign_extend(v, n));
    return make_integer_u(*p, v);
}

Term int_slow(Process* p, Term ctx, size_t bits, Word flags) {
    const Term* ms = boxed_ptr(ctx);
    return get_integer_bits(*p, binary_data_base(ms[1]), size_t(ms[2].raw), bits, (flags & INT_LITTLE) != 0,
                            (flags & INT_SIGNED) != 0);
}

SWord utf8_slow(Term ctx, size_t* bits) {
    const Term* ms = boxed_ptr(ctx);
    size_t pos = size_t(ms[2].raw);
    auto ch = get_utf8_bits(binary_data_base(ms[1]), pos, size_t(ms[3].raw) - pos);
    if (!ch) return -1;
    *bits = ch->bits;
    return SWord(ch->cp);
}

bool string_matches(Term ctx, const uint8_t* s, size_t bits) {
    const Term* ms = boxed_ptr(ctx);
    size_t pos = size_t(ms[2].raw), bytes = (bits + 7) / 8;
    uint8_t small[64];
    std::vector<uint8_t> big;
    uint8_t* got = small;
    if (bytes > sizeof small) {
        big.resize(bytes);
        got = big.data();
    }
    copy_bits(binary_data_base(ms[1]), pos, got, 0, bits);
    size_t whole = bits / 8;
    if (std::memcmp(got, s, whole) != 0) return false;
    unsigned r = bits % 8;
    if (r == 0) return true;
    unsigned mask = (0xFFu << (8 - r)) & 0xFF;
    return ((got[whole] ^ s[whole]) & mask) == 0;
}

}  // namespace beam::bits

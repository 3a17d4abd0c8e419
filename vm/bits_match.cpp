// Bit-syntax matching: bs_start_match3/4, bs_get_*, bs_skip_*, bs_test_*, bs_match_string,
// bs_get_tail, bs_get/set_position.
//
// A match context is  [hdr MatchState arity=3][underlying HeapBin/RefcBin][bit position][bit end]
// with absolute bit offsets into the underlying binary, so sub-binaries taken from it never
// nest and positions stay valid when the GC moves a heap binary. bs_get_position hands the
// absolute position out as a small integer; bs_set_position takes it back.
#include <cstring>

#include "bifs/bif_util.hpp"
#include "loader/generic_ops.hpp"
#include "vm/binary.hpp"
#include "vm/bits_codec.hpp"
#include "vm/bits_fast.hpp"
#include "vm/interp.hpp"
#include "vm/interp_support.hpp"

namespace beam {

namespace {

using namespace loader;

struct Ctx {
    Term* ms;
    const uint8_t* base;  // underlying binary's first byte
    size_t pos() const { return size_t(ms[2].raw); }
    size_t end() const { return size_t(ms[3].raw); }
    size_t left() const { return end() - pos(); }
    void advance(size_t bits) { ms[2] = Term{Word(pos() + bits)}; }
};

Ctx context(Term t) {
    Term* ms = boxed_ptr(t);
    return {ms, bit_view(t).base};
}

// Bits for a Size*Unit operand; false when the size is not a usable non-negative integer
// (the match fails, as in OTP).
bool segment_bits(Term size, Word unit, size_t* bits) {
    if (!is_small(size) || small_value(size) < 0) return false;
    unsigned __int128 b = (unsigned __int128)small_value(size) * unit;
    if (b > (size_t{1} << 62)) return false;
    *bits = size_t(b);
    return true;
}

// Bits a binary/skip segment takes: `all` takes the rest, which must be a whole number of units.
bool binary_bits(const Ctx& c, Term size, Word unit, size_t* bits) {
    if (size == am::all) {
        if (unit > 1 && c.left() % unit != 0) return false;
        *bits = c.left();
        return true;
    }
    return segment_bits(size, unit, bits) && *bits <= c.left();
}

std::optional<DecodedChar> get_char(const Ctx& c, uint8_t opcode, Word flags) {
    bool little = (flags & (BS_LITTLE | BS_NATIVE)) != 0;
    switch (opcode) {
    case op_bs_get_utf8:
    case op_bs_skip_utf8: return get_utf8_bits(c.base, c.pos(), c.left());
    case op_bs_get_utf16:
    case op_bs_skip_utf16: return get_utf16_bits(c.base, c.pos(), c.left(), little);
    default: return get_utf32_bits(c.base, c.pos(), c.left(), little);
    }
}

}  // namespace

const Word* bs_match(Process* p, Term* x, Term* E, const BsMatchOp* op) {
    const Word* a = op->args;
    auto fail = [&]() -> const Word* {
        if (op->fail) return op->fail;
        p->badarg();
        return nullptr;
    };
    auto arg = [&](int i) { return any_operand(a[i], x, E); };
    auto dst = [&](int i) -> Term& { return any_dest(a[i], x, E); };

    switch (op->opcode) {
    case op_bs_start_match3:
    case op_bs_start_match4: {
        Term ms = bits::start_match(p, arg(0));
        if (is_non_value(ms)) return fail();
        dst(1) = ms;
        return BS_NEXT;
    }
    case op_bs_context_to_binary: {
        Term t = arg(0);
        if (!is_boxed_sub(t, Sub::MatchState)) return BS_NEXT;
        Ctx c = context(t);
        dst(0) = make_sub_binary(*p, t, c.pos(), c.left());
        return BS_NEXT;
    }
    default: break;
    }

    Term ct = arg(0);
    if (!is_boxed_sub(ct, Sub::MatchState)) return fail();
    Ctx c = context(ct);
    switch (op->opcode) {
    case op_bs_get_integer2: {
        size_t bits;
        if (!segment_bits(arg(1), a[2], &bits) || bits > c.left()) return fail();
        bool little = (a[3] & (BS_LITTLE | BS_NATIVE)) != 0;
        Term v = get_integer_bits(*p, c.base, c.pos(), bits, little, (a[3] & BS_SIGNED) != 0);
        if (is_non_value(v)) return fail();  // beyond OTP's bignum limit: the match fails
        c.advance(bits);
        dst(4) = v;
        return BS_NEXT;
    }
    case op_bs_get_float2: {
        size_t bits;
        if (!segment_bits(arg(1), a[2], &bits) || bits > c.left()) return fail();
        if (bits != 16 && bits != 32 && bits != 64) return fail();
        auto d = get_float_bits(c.base, c.pos(), bits, (a[3] & (BS_LITTLE | BS_NATIVE)) != 0);
        if (!d) return fail();
        c.advance(bits);
        dst(4) = make_float(*p, *d);
        return BS_NEXT;
    }
    case op_bs_get_binary2: {
        size_t bits;
        if (!binary_bits(c, arg(1), a[2], &bits)) return fail();
        Term v = make_slice(*p, ct, c.pos(), bits);
        c.advance(bits);
        dst(4) = v;
        return BS_NEXT;
    }
    case op_bs_skip_bits2: {
        size_t bits;
        if (!binary_bits(c, arg(1), a[2], &bits)) return fail();
        c.advance(bits);
        return BS_NEXT;
    }
    case op_bs_test_tail2: return c.left() == a[1] ? BS_NEXT : fail();
    case op_bs_test_unit: return a[1] <= 1 || c.left() % a[1] == 0 ? BS_NEXT : fail();
    case op_bs_match_string:
        if (a[1] > c.left() || !bits::string_matches(ct, op->strings, a[1])) return fail();
        c.advance(a[1]);
        return BS_NEXT;
    case op_bs_get_utf8:
    case op_bs_get_utf16:
    case op_bs_get_utf32: {
        auto ch = get_char(c, op->opcode, a[1]);
        if (!ch) return fail();
        c.advance(ch->bits);
        dst(2) = make_small(ch->cp);
        return BS_NEXT;
    }
    case op_bs_skip_utf8:
    case op_bs_skip_utf16:
    case op_bs_skip_utf32: {
        auto ch = get_char(c, op->opcode, a[1]);
        if (!ch) return fail();
        c.advance(ch->bits);
        return BS_NEXT;
    }
    case op_bs_get_tail:
        dst(1) = make_slice(*p, ct, c.pos(), c.left());
        return BS_NEXT;
    case op_bs_get_position:
        dst(1) = make_small(SWord(c.pos()));
        return BS_NEXT;
    case op_bs_set_position: {
        Term pos = arg(1);
        if (!is_small(pos) || small_value(pos) < 0 || size_t(small_value(pos)) > c.end()) return fail();
        c.ms[2] = Term{Word(small_value(pos))};
        return BS_NEXT;
    }
    default:
        raise_not_implemented(p, "bit syntax matching instruction");
        return nullptr;
    }
}

}  // namespace beam

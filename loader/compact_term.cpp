#include "loader/compact_term.hpp"

#include <fmt/format.h>
#include <vector>

#include "vm/bignum.hpp"
#include "vm/module.hpp"

namespace beam::loader {

static Error at(const ByteReader& r, size_t offset, std::string_view why) {
    (void)r;
    return make_error(fmt::format("at offset {}: {}", offset, why));
}

// Fills `out`, or sets *err and returns false. Inlined into read_operand (below) with `out` in
// its frame: as a Result (a std::variant) the operand was stored field by field and then
// copied out with 16-byte loads the CPU could not forward from those stores, two thirds of
// read_operand's samples in the PGO build (module loading is part of every real workload's
// timed run: read_operand was about 1% of real_xmerl's and svc_genserver_ets').
[[gnu::always_inline]] inline bool read_raw(ByteReader& r, RawCompact& out, Error* err) {
    size_t start = r.file_offset();
    uint8_t b = 0;
    if (!r.u8(b)) return (*err = at(r, start, "truncated operand"), false);
    out.tag = CompactTag(b & 7);
    if (out.tag == CompactTag::z) {
        if (b & 0x08) return (*err = at(r, start, fmt::format("bad extended tag byte 0x{:02x}", b)), false);
        out.value = b >> 4;
        return true;
    }
    if (!(b & 0x08)) {
        out.value = b >> 4;
        return true;
    }
    if (!(b & 0x10)) {
        uint8_t lo = 0;
        if (!r.u8(lo)) return (*err = at(r, start, "truncated operand"), false);
        out.value = int64_t((b >> 5) << 8 | lo);
        return true;
    }
    uint64_t n = (b >> 5) + 2;
    if ((b >> 5) == 7) {
        // Nested length: a u-tagged number, itself never nested in practice (OTP writes it short).
        size_t len_at = r.file_offset();
        uint8_t lb = 0;
        if (!r.u8(lb)) return (*err = at(r, len_at, "truncated operand length"), false);
        if ((lb & 7) != 0 || (lb & 0x18) == 0x18) return (*err = at(r, len_at, "bad operand length encoding"), false);
        uint64_t extra = lb >> 4;
        if (lb & 0x08) {
            uint8_t lo = 0;
            if (!r.u8(lo)) return (*err = at(r, len_at, "truncated operand length"), false);
            extra = uint64_t((lb >> 5) << 8 | lo);
        }
        n = extra + 9;
    }
    std::span<const uint8_t> bytes;
    if (!r.bytes(n, bytes)) return (*err = at(r, start, fmt::format("operand of {} bytes exceeds the chunk", n)), false);
    if (n > 8) {
        out.big = bytes;
        return true;
    }
    uint64_t v = 0;
    for (uint8_t byte : bytes) v = v << 8 | byte;
    if (n < 8 && (bytes[0] & 0x80)) v |= ~uint64_t(0) << (8 * n);  // sign-extend
    out.value = int64_t(v);
    return true;
}

Result<RawCompact> read_compact_raw(ByteReader& r) {
    RawCompact out;
    Error err;
    if (!read_raw(r, out, &err)) return err;
    return out;
}

Result<uint64_t> read_compact_unsigned(ByteReader& r, uint64_t limit) {
    size_t start = r.file_offset();
    RawCompact raw;
    if (Error err; !read_raw(r, raw, &err)) return err;
    if (raw.tag != CompactTag::u) return at(r, start, "expected an untagged number");
    if (!raw.big.empty() || raw.value < 0 || uint64_t(raw.value) > limit)
        return at(r, start, fmt::format("number out of range (limit {})", limit));
    return uint64_t(raw.value);
}

Term integer_from_be_bytes(TermAllocator& a, std::span<const uint8_t> be, bool is_signed) {
    bool negative = is_signed && !be.empty() && (be[0] & 0x80);
    size_t nlimbs = (be.size() + 7) / 8;
    std::vector<uint64_t> limbs(nlimbs, 0);
    // Least significant byte first into the limbs; a negative value is complemented and
    // incremented (two's complement magnitude) on the way.
    unsigned carry = negative ? 1 : 0;
    for (size_t i = 0; i < be.size(); ++i) {
        unsigned byte = be[be.size() - 1 - i];
        if (negative) {
            byte = (~byte & 0xFF) + carry;
            carry = byte >> 8;
            byte &= 0xFF;
        }
        limbs[i / 8] |= uint64_t(byte) << (8 * (i % 8));
    }
    return make_integer_limbs(a, limbs.data(), nlimbs, negative);
}

static Result<Operand> read_operand(ByteReader& r, const CompactContext& ctx, int depth);

static Operand simple(OpKind kind, int64_t value, Term term = NIL) {
    Operand op;
    op.kind = kind;
    op.value = value;
    op.term = term;
    return op;
}

static Result<Operand> read_extended(ByteReader& r, const CompactContext& ctx, int depth, size_t start,
                                     int64_t sub) {
    Operand op = simple(OpKind::Unsigned, 0);
    switch (sub) {
    case 1: {  // list
        if (depth > 0) return at(r, start, "nested operand list");
        uint64_t n = BEAM_TRY(read_compact_unsigned(r, r.remaining()));
        op.kind = OpKind::List;
        op.list.reserve(n);
        for (uint64_t i = 0; i < n; ++i) op.list.push_back(BEAM_TRY(read_operand(r, ctx, depth + 1)));
        op.value = int64_t(n);
        return op;
    }
    case 2:
        op.kind = OpKind::FloatReg;
        op.value = int64_t(BEAM_TRY(read_compact_unsigned(r, MAX_FLOAT_REGISTERS - 1)));
        return op;
    case 3: {  // allocation list: [{kind, count}], kind 0 words, 1 floats, 2 funs
        uint64_t n = BEAM_TRY(read_compact_unsigned(r, r.remaining() / 2));
        uint64_t words = 0;
        for (uint64_t i = 0; i < n; ++i) {
            uint64_t kind = BEAM_TRY(read_compact_unsigned(r, 2));
            uint64_t count = BEAM_TRY(read_compact_unsigned(r, uint64_t(1) << 32));
            // A fun's fixed part is FUN_HEADER_WORDS (header, FunEntry*, creator pid); the
            // compiler counts its free variables in the words entry. Undercounting here lets
            // the instructions after a make_fun write past the heap top into the stack.
            words += kind == 0 ? count : kind == 1 ? count * FLOAT_WORDS : count * FUN_HEADER_WORDS;
        }
        op.kind = OpKind::AllocList;
        op.value = int64_t(words);
        return op;
    }
    case 4: {
        uint64_t idx = BEAM_TRY(read_compact_unsigned(r, UINT32_MAX));
        if (idx >= ctx.literals.size())
            return at(r, start, fmt::format("literal index {} out of range ({} literals)", idx, ctx.literals.size()));
        op.kind = OpKind::Literal;
        op.value = int64_t(idx);
        op.term = ctx.literals[idx];
        return op;
    }
    case 5: {  // typed register
        if (depth > 1) return at(r, start, "nested typed register");
        size_t reg_at = r.file_offset();
        Operand reg = BEAM_TRY(read_operand(r, ctx, 2));
        if (reg.kind != OpKind::X && reg.kind != OpKind::Y) return at(r, reg_at, "typed operand is not a register");
        reg.type_index = int32_t(BEAM_TRY(read_compact_unsigned(r, INT32_MAX)));
        return reg;
    }
    case 0:
        return at(r, start, "obsolete float operand (z/0)");
    default:
        return at(r, start, fmt::format("unknown extended operand tag z/{}", sub));
    }
}

static Result<Operand> read_operand(ByteReader& r, const CompactContext& ctx, int depth) {
    size_t start = r.file_offset();
    RawCompact raw;
    if (Error err; !read_raw(r, raw, &err)) return err;
    if (raw.tag == CompactTag::z) return read_extended(r, ctx, depth, start, raw.value);

    if (raw.tag == CompactTag::i) {
        if (raw.big.empty()) return simple(OpKind::Integer, raw.value);
        if (!ctx.area) return at(r, start, "integer literal too large");
        Operand op = simple(OpKind::Literal, 0);
        op.value = -1;  // not an index into LitT
        op.term = integer_from_be_bytes(*ctx.area, raw.big, true);
        return op;
    }
    if (!raw.big.empty() || raw.value < 0) {
        // erlc writes an unsigned operand as large as the source asks for (a tail test of
        // 1 bsl 64 bits, say); OTP's loader marks it as overflowed and lets the instruction's
        // rules decide. Other tags never carry such values.
        if (raw.tag == CompactTag::u) return simple(OpKind::Overflow, 0);
        return at(r, start, "operand value out of range");
    }
    int64_t v = raw.value;
    switch (raw.tag) {
    case CompactTag::u:
        return simple(OpKind::Unsigned, v);
    case CompactTag::a:
        if (v == 0) return simple(OpKind::Nil, 0, NIL);
        if (uint64_t(v) >= ctx.atoms.size())
            return at(r, start, fmt::format("atom index {} out of range ({} atoms)", v, ctx.atoms.size() - 1));
        return simple(OpKind::Atom, v, ctx.atoms[v]);
    case CompactTag::x:
        if (v >= MAX_X_REGISTERS) return at(r, start, fmt::format("x register {} out of range", v));
        return simple(OpKind::X, v);
    case CompactTag::y:
        if (v >= MAX_Y_REGISTERS) return at(r, start, fmt::format("y register {} out of range", v));
        return simple(OpKind::Y, v);
    case CompactTag::f:
        if (v != 0 && uint64_t(v) >= ctx.label_count)
            return at(r, start, fmt::format("label {} out of range (label count {})", v, ctx.label_count));
        return simple(OpKind::Label, v);
    case CompactTag::h:
        return simple(OpKind::Char, v);
    default:
        return at(r, start, "bad operand tag");
    }
}

Result<Operand> read_compact_operand(ByteReader& r, const CompactContext& ctx) { return read_operand(r, ctx, 0); }

}  // namespace beam::loader

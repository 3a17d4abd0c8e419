// The compact term encoding of instruction operands (Code and Line chunks).
//
// The low 3 bits of the first byte are the tag: u=0 i=1 a=2 x=3 y=4 f=5 h=6 z=7.
//   bit 3 clear            value = byte >> 4                           (0..15)
//   bits 4..3 = 01         value = (byte >> 5) << 8 | next byte        (0..2047)
//   bits 4..3 = 11         n = (byte >> 5) + 2 big-endian bytes follow; when (byte >> 5) == 7,
//                          n = 9 + a nested u-tagged value. i values are two's complement.
// z (extended) carries a sub-tag in byte >> 4: 1 list, 2 float register, 3 allocation list,
// 4 literal, 5 typed register (a register followed by a Type-chunk index). z/0 (old float
// literal) is not produced since OTP 20 and is rejected.
#pragma once

#include <span>

#include "loader/beam_module.hpp"
#include "loader/byte_reader.hpp"
#include "vm/heap.hpp"
#include "vm/result.hpp"

namespace beam::loader {

inline constexpr uint32_t MAX_X_REGISTERS = 1024;
inline constexpr uint32_t MAX_Y_REGISTERS = 1 << 16;
inline constexpr uint32_t MAX_FLOAT_REGISTERS = 1024;

enum class CompactTag : uint8_t { u = 0, i = 1, a = 2, x = 3, y = 4, f = 5, h = 6, z = 7 };

// What operands refer to. Spans must outlive the reader.
struct CompactContext {
    std::span<const Term> atoms;     // index 0 unused
    std::span<const Term> literals;  // LitT
    uint32_t label_count = 0;        // labels must be < label_count
    LiteralArea* area = nullptr;     // where integers too large for int64 are built
};

// Raw tag and value, before interpretation. Values wider than 64 bits are kept as bytes.
struct RawCompact {
    CompactTag tag;
    int64_t value = 0;
    std::span<const uint8_t> big;  // non-empty when the value needs more than 8 bytes
};

// Errors are "at offset N: reason"; callers prefix the module and chunk.
Result<RawCompact> read_compact_raw(ByteReader& r);
// Reads an untagged-number operand (tag u) that must fit `limit`.
Result<uint64_t> read_compact_unsigned(ByteReader& r, uint64_t limit);
// Reads and interprets one operand.
Result<Operand> read_compact_operand(ByteReader& r, const CompactContext& ctx);
// The commonest operands inline: a one-byte register, number, atom or label (value below 16)
// that is in range. Fills `out` and returns true, or reads nothing and returns false (then
// read_compact_operand reads it, or reports what is wrong with it).
inline bool read_short_operand(ByteReader& r, const CompactContext& ctx, Operand& out) {
    uint8_t b = 0;
    if (!r.peek(b) || (b & 0x08)) return false;
    const int64_t v = b >> 4;
    switch (CompactTag(b & 7)) {
    case CompactTag::u: out.kind = OpKind::Unsigned; break;
    case CompactTag::i: out.kind = OpKind::Integer; break;
    case CompactTag::a:
        if (v == 0) {
            out.kind = OpKind::Nil;
            out.term = NIL;
            break;
        }
        if (size_t(v) >= ctx.atoms.size()) return false;
        out.kind = OpKind::Atom;
        out.term = ctx.atoms[size_t(v)];
        break;
    case CompactTag::x: out.kind = OpKind::X; break;
    case CompactTag::y: out.kind = OpKind::Y; break;
    case CompactTag::f:
        if (v != 0 && uint64_t(v) >= ctx.label_count) return false;
        out.kind = OpKind::Label;
        break;
    case CompactTag::h: out.kind = OpKind::Char; break;
    default: return false;  // z: an extended operand
    }
    out.value = v;
    r.skip(1);
    return true;
}

// Builds the integer term for a big-endian two's complement byte string.
Term integer_from_be_bytes(TermAllocator& a, std::span<const uint8_t> be, bool is_signed);

}  // namespace beam::loader

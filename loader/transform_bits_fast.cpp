// The bit-syntax matching instructions in their common shapes become specific instructions
// with their operands in the code (vm/instructions.tab, binaries section: bs_start_match,
// bs_get_u8, bs_get_int, bs_get_binary_imm, bs_skip_reg, bs_get_float, bs_get_utf8, ...).
// Everything else (16-bit floats, utf16/32, constant sources, sizes that cannot be right)
// stays with the general bs_match instruction and its side table (loader/transform_bits.cpp).
#include <memory>
#include <vector>

#include "loader/generic_ops.hpp"
#include "loader/transform_bits.hpp"
#include "vm/bits_fast.hpp"
#include "vm/interp_support.hpp"

namespace beam::loader {

namespace {

bool is_reg(const Operand& o) { return o.kind == OpKind::X || o.kind == OpKind::Y; }
Arg reg(const Operand& o) { return {o.kind == OpKind::X ? 'x' : 'y', Word(o.value)}; }
// A fail label that is a label (0 when the instruction raises badarg instead).
Arg fail_of(const Operand& o) { return lbl(o.kind == OpKind::Label ? uint32_t(o.value) : 0); }

// Literal sizes beyond this are left to the general path (they cannot match a real binary).
constexpr uint64_t MAX_IMM_BITS = uint64_t{1} << 48;

// Bits of a literal Size * Unit, or false.
bool imm_bits(const Operand& size, const Operand& unit, uint64_t* bits) {
    if (size.kind != OpKind::Integer || size.value < 0 || unit.kind != OpKind::Unsigned) return false;
    unsigned __int128 b = (unsigned __int128)uint64_t(size.value) * uint64_t(unit.value);
    if (b > MAX_IMM_BITS) return false;
    *bits = uint64_t(b);
    return true;
}

// Flags of the matching instructions arrive as beam_asm's bit set: 0x02 little, 0x04
// signed, 0x10 native (little on every target beamvm runs on).
Word int_flags(const Operand& o) {
    Word f = Word(o.value), r = 0;
    if (f & (0x02 | 0x10)) r |= bits::INT_LITTLE;
    if (f & 0x04) r |= bits::INT_SIGNED;
    return r;
}

// bs_get_integer2 Fail Ctx Live Size Unit Flags Dst with a label to fail to and registers for
// the context and the destination: the shape every fast form needs.
bool get_integer_fits(const OperandRange& a) {
    return a[0].kind == OpKind::Label && a[0].value != 0 && is_reg(a[1]) && is_reg(a[6]);
}
// Its literal size in bits when it reads an unsigned big-endian small (up to 59 bits, always a
// small: bs_get_u8 and bs_get_uint_be), else 0.
uint64_t plain_uint_bits(const OperandRange& a) {
    uint64_t n;
    if (!imm_bits(a[3], a[4], &n) || n == 0 || n > 59 || int_flags(a[5]) != 0) return 0;
    return n;
}

bool get_integer(const OperandRange& a, Emitter& em) {  // Fail Ctx Live Size Unit Flags Dst
    uint64_t n;
    if (!get_integer_fits(a)) return false;
    Arg fail = lbl(uint32_t(a[0].value));
    Word flags = int_flags(a[5]);
    if (is_reg(a[3]) && a[4].kind == OpKind::Unsigned)
        return em.try_emit("bs_get_int_reg", {fail, reg(a[1]), reg(a[3]), ux(Word(a[4].value)), ux(flags), reg(a[6])});
    if (uint64_t plain = plain_uint_bits(a))
        return plain == 8 ? em.try_emit("bs_get_u8", {fail, reg(a[1]), reg(a[6])})
                          : em.try_emit("bs_get_uint_be", {fail, reg(a[1]), ux(plain), reg(a[6])});
    if (!imm_bits(a[3], a[4], &n) || n == 0 || n > 64) return false;
    return em.try_emit("bs_get_int", {fail, reg(a[1]), ux(n), ux(flags), reg(a[6])});
}

// bs_get_binary2 Fail Ctx Live Size Unit Flags Dst and bs_skip_bits2 Fail Ctx Size Unit Flags.
bool binary_or_skip(const OperandRange& a, bool skip, Emitter& em) {
    const Operand& size = a[skip ? 2 : 3];
    const Operand& unit = a[skip ? 3 : 4];
    if (a[0].kind != OpKind::Label || a[0].value == 0 || !is_reg(a[1]) || unit.kind != OpKind::Unsigned) return false;
    if (!skip && !is_reg(a[6])) return false;
    Arg fail = lbl(uint32_t(a[0].value)), ctx = reg(a[1]);
    uint64_t n;
    if (imm_bits(size, unit, &n)) {
        return skip ? em.try_emit("bs_skip_imm", {fail, ctx, ux(n)})
                    : em.try_emit("bs_get_binary_imm", {fail, ctx, ux(n), reg(a[6])});
    }
    Word u = Word(unit.value);
    if (is_reg(size)) {
        return skip ? em.try_emit("bs_skip_reg", {fail, ctx, reg(size), ux(u)})
                    : em.try_emit("bs_get_binary_reg", {fail, ctx, reg(size), ux(u), reg(a[6])});
    }
    if (size.kind == OpKind::Atom && size.term == am::all) {
        return skip ? em.try_emit("bs_skip_all", {fail, ctx, ux(u)})
                    : em.try_emit("bs_get_binary_all", {fail, ctx, ux(u), reg(a[6])});
    }
    return false;
}

bool match_string(const OperandRange& a, const ParsedModule& pm, ModuleCode& mc, Emitter& em) {
    // Fail Ctx Bits Offset
    if (a[0].kind != OpKind::Label || a[0].value == 0 || !is_reg(a[1]) || a[2].kind != OpKind::Unsigned) return false;
    uint64_t n = uint64_t(a[2].value), bytes = (n + 7) / 8;
    if (n == 0 || a[3].value < 0 || uint64_t(a[3].value) > pm.strings.size() ||
        bytes > pm.strings.size() - uint64_t(a[3].value))
        return false;  // the general path reports the bad string
    auto str = std::make_shared<std::vector<uint8_t>>(pm.strings.begin() + a[3].value,
                                                      pm.strings.begin() + a[3].value + bytes);
    if (!em.try_emit("bs_match_string", {lbl(uint32_t(a[0].value)), reg(a[1]), ux(n), px(str->data())})) return false;
    mc.side_tables.push_back(str);
    return true;
}

}  // namespace

std::vector<BsFastSeg> fast_create_segments(const OperandList& list, const BsCreateOp& op) {
    std::vector<BsFastSeg> fast;
    if (op.segs.size() > BS_FAST_MAX) return fast;
    for (size_t i = 0; i < op.segs.size(); ++i) {
        const BsSegment& s = op.segs[i];
        const Operand& size = list[6 * i + 5];
        BsFastSeg f;
        f.value = s.value;
        f.little = (s.flags & (BS_LITTLE | BS_NATIVE)) != 0;
        if (s.type == am::string) {
            f.kind = BsFastSeg::String;
            f.bits = s.size * 8;
        } else if (s.type == am::integer && size.kind == OpKind::Integer && size.value >= 0 && size.value <= 64 &&
                   uint64_t(size.value) * s.unit <= 64) {
            f.kind = BsFastSeg::Int;
            f.bits = Word(size.value) * s.unit;
        } else if (s.type == am::integer && is_reg(size)) {
            f.kind = BsFastSeg::IntVar;
            f.size = s.size;
            f.unit = s.unit;
        } else if (s.type == am::binary || s.type == am::append || s.type == am::private_append) {
            if (size.kind == OpKind::Atom && (size.term == am::all || size.term == am::undefined)) {
                f.kind = BsFastSeg::BinAll;
                f.unit = s.unit;
            } else if (s.type == am::binary && size.kind == OpKind::Integer && size.value >= 0 && uint64_t(size.value) <= MAX_IMM_BITS / s.unit) {
                f.kind = BsFastSeg::BinImm;
                f.bits = Word(size.value) * s.unit;
            } else if (s.type == am::binary && is_reg(size)) {
                f.kind = BsFastSeg::BinVar;
                f.size = s.size;
                f.unit = s.unit;
            } else {
                return {};
            }
        } else if (s.type == am::utf8) {
            f.kind = BsFastSeg::Utf8;
        } else {
            return {};
        }
        fast.push_back(f);
    }
    return fast;
}

size_t start_match_get_integer(const std::vector<GenericInstr>& code, size_t i, Emitter& em) {
    if (i + 1 >= code.size()) return 0;
    const GenericInstr& sm = code[i];
    const GenericInstr& gi = code[i + 1];
    if (gi.opcode != op_bs_get_integer2) return 0;
    // bs_start_match3: Fail Bin Live Dst; bs_start_match4: Fail Live Src Dst.
    const Operand& src = sm.args[sm.opcode == op_bs_start_match3 ? 1 : 2];
    const Operand& ctx = sm.args[3];
    const auto& a = gi.args;  // Fail Ctx Live Size Unit Flags Dst
    if (!is_reg(src) || !is_reg(ctx) || !get_integer_fits(a) || a[1].kind != ctx.kind || a[1].value != ctx.value)
        return 0;
    uint64_t n = plain_uint_bits(a);
    if (n == 0) return 0;
    Arg fail2 = lbl(uint32_t(a[0].value));
    if (n == 8)
        return em.try_emit("bs_start_match_get_u8", {fail_of(sm.args[0]), reg(src), reg(ctx), fail2, reg(a[6])}) ? 2 : 0;
    return em.try_emit("bs_start_match_get_uint_be", {fail_of(sm.args[0]), reg(src), reg(ctx), fail2, ux(n), reg(a[6])})
               ? 2
               : 0;
}

bool transform_bits_fast(const GenericInstr& gi, const ParsedModule& pm, ModuleCode& mc, Emitter& em) {
    const auto& a = gi.args;
    switch (gi.opcode) {
    case op_bs_start_match3:  // Fail Bin Live Dst
        return is_reg(a[1]) && is_reg(a[3]) && em.try_emit("bs_start_match", {fail_of(a[0]), reg(a[1]), reg(a[3])});
    case op_bs_start_match4:  // Fail Live Src Dst; Fail may be the atom no_fail or resume
        return is_reg(a[2]) && is_reg(a[3]) && em.try_emit("bs_start_match", {fail_of(a[0]), reg(a[2]), reg(a[3])});
    case op_bs_get_integer2: return get_integer(a, em);
    case op_bs_get_binary2: return binary_or_skip(a, false, em);
    case op_bs_skip_bits2: return binary_or_skip(a, true, em);
    case op_bs_test_tail2:  // Fail Ctx Bits
        return a[0].kind == OpKind::Label && a[0].value != 0 && is_reg(a[1]) && a[2].kind == OpKind::Unsigned &&
               em.try_emit("bs_test_tail", {lbl(uint32_t(a[0].value)), reg(a[1]), ux(Word(a[2].value))});
    case op_bs_test_unit:  // Fail Ctx Unit
        return a[0].kind == OpKind::Label && a[0].value != 0 && is_reg(a[1]) && a[2].kind == OpKind::Unsigned &&
               em.try_emit("bs_test_unit", {lbl(uint32_t(a[0].value)), reg(a[1]), ux(Word(a[2].value))});
    case op_bs_match_string: return match_string(a, pm, mc, em);
    case op_bs_get_float2: {  // Fail Ctx Live Size Unit Flags Dst
        uint64_t n;
        return a[0].kind == OpKind::Label && a[0].value != 0 && is_reg(a[1]) && is_reg(a[6]) &&
               imm_bits(a[3], a[4], &n) && (n == 32 || n == 64) &&
               em.try_emit("bs_get_float", {lbl(uint32_t(a[0].value)), reg(a[1]), ux(n), ux(int_flags(a[5])), reg(a[6])});
    }
    case op_bs_get_utf8:  // Fail Ctx Live Flags Dst
        return a[0].kind == OpKind::Label && a[0].value != 0 && is_reg(a[1]) && is_reg(a[4]) &&
               em.try_emit("bs_get_utf8", {lbl(uint32_t(a[0].value)), reg(a[1]), reg(a[4])});
    case op_bs_skip_utf8:  // Fail Ctx Live Flags
        return a[0].kind == OpKind::Label && a[0].value != 0 && is_reg(a[1]) &&
               em.try_emit("bs_skip_utf8", {lbl(uint32_t(a[0].value)), reg(a[1])});
    case op_bs_get_tail:  // Ctx Dst Live
        return is_reg(a[0]) && is_reg(a[1]) && em.try_emit("bs_get_tail", {reg(a[0]), reg(a[1])});
    case op_bs_get_position:  // Ctx Dst Live
        return is_reg(a[0]) && is_reg(a[1]) && em.try_emit("bs_get_position", {reg(a[0]), reg(a[1])});
    case op_bs_set_position:  // Ctx Pos
        return is_reg(a[0]) && is_reg(a[1]) && em.try_emit("bs_set_position", {reg(a[0]), reg(a[1])});
    default: return false;
    }
}

}  // namespace beam::loader

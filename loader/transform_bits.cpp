// Bit-syntax instructions (OTP 25's and the older construction ones) become one specific
// instruction that points at a side table holding the decoded operands (vm/interp_support.hpp:
// BsCreateOp, BsMatchOp), except the matching instructions in their common shapes, which get
// inline instructions (loader/transform_bits_fast.cpp). The side tables are owned by
// ModuleCode::side_tables; labels inside them are patched by the Emitter.
#include "loader/transform_bits.hpp"

#include <fmt/format.h>

#include <memory>

#include "loader/generic_ops.hpp"
#include "vm/interp_support.hpp"

namespace beam::loader {

namespace {

Word any_word(const Operand& o, ModuleCode& mc) {
    Arg a = src_arg(o, mc.literals);
    switch (a.kind) {
    case 'x': return encode_x(a.w);
    case 'y': return encode_y(a.w);
    default: return a.w;
    }
}

// Flags of the matching instructions arrive as beam_asm's bit set.
Word match_flags(const Operand& o) {
    Word f = Word(o.value), r = 0;
    if (f & 0x02) r |= BS_LITTLE;
    if (f & 0x04) r |= BS_SIGNED;
    if (f & 0x10) r |= BS_NATIVE;
    return r;
}

// Flags of bs_create_bin segments arrive as a literal list of atoms, or nil.
Word create_flags(const Operand& o) {
    Word r = 0;
    if (o.kind != OpKind::Literal) return r;
    for (Term l = o.term; is_list(l); l = tail(l)) {
        Term f = head(l);
        if (f == am::little) r |= BS_LITTLE;
        else if (f == am::signed_) r |= BS_SIGNED;
        else if (f == am::native) r |= BS_NATIVE;
    }
    return r;
}

bool copy_strings(const ParsedModule& pm, int64_t offset, size_t bytes, std::vector<uint8_t>& out, Emitter& em) {
    if (offset < 0 || size_t(offset) > pm.strings.size() || bytes > pm.strings.size() - size_t(offset)) {
        em.fail(fmt::format("string {}+{} outside the StrT chunk ({} bytes)", offset, bytes, pm.strings.size()));
        return false;
    }
    out.insert(out.end(), pm.strings.begin() + offset, pm.strings.begin() + offset + bytes);
    return true;
}

void create_bin(const GenericInstr& gi, const ParsedModule& pm, ModuleCode& mc, Emitter& em) {
    // bs_create_bin Fail Alloc Live Unit Dst OpList; OpList is a flat list of 6-tuples
    // Type Seg Unit Flags Value Size.
    const auto& a = gi.args;
    auto op = std::make_shared<BsCreateOp>();
    op->live = Word(a[2].value);
    op->alloc = Word(a[1].value);  // words the following instructions allocate without a check
    op->dst = any_word(a[4], mc);
    const auto& list = a[5].list;
    if (list.size() % 6 != 0) return em.fail("bs_create_bin: segment list is not a multiple of 6");
    for (size_t i = 0; i < list.size(); i += 6) {
        BsSegment s;
        s.type = list[i].term;
        s.seg = Word(list[i + 1].value);
        s.unit = Word(list[i + 2].value);
        s.flags = create_flags(list[i + 3]);
        if (s.type == am::string) {
            s.value = op->string_bytes.size();
            s.size = Word(list[i + 5].value);
            if (!copy_strings(pm, list[i + 4].value, s.size, op->string_bytes, em)) return;
        } else {
            s.value = any_word(list[i + 4], mc);
            s.size = any_word(list[i + 5], mc);
        }
        if (s.unit == 0) s.unit = 1;
        op->segs.push_back(s);
    }
    op->strings = op->string_bytes.data();
    op->fast = fast_create_segments(list, *op);
    op->code = &mc;
    uint32_t fail = uint32_t(a[0].value);
    em.side_label(&op->fail, fail);
    op->code_pos = em.pos();
    mc.side_tables.push_back(op);
    // In a guard the instruction has a fail label and must jump instead of raising.
    em.emit(fail ? "bs_create_bin_guard" : "bs_create_bin", {px(op.get())});
}

void match(const GenericInstr& gi, const ParsedModule& pm, ModuleCode& mc, Emitter& em) {
    const auto& a = gi.args;
    if (gi.opcode == op_bs_test_tail2 && a[2].kind == OpKind::Overflow) {
        // No tail is 2^64 bits or longer: the test always fails.
        em.emit("jump", {lbl(uint32_t(a[0].value))});
        return;
    }
    if (transform_bits_fast(gi, pm, mc, em)) return;
    auto op = std::make_shared<BsMatchOp>();
    op->opcode = gi.opcode;
    uint32_t fail = 0;
    auto w = [&](size_t i) { return any_word(a[i], mc); };
    Word* r = op->args;
    switch (gi.opcode) {
    case op_bs_start_match3:  // Fail Bin Live Dst
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = w(3);
        break;
    case op_bs_start_match4:  // Fail Live Src Dst; Fail may be the atom no_fail or resume
        if (a[0].kind == OpKind::Label) fail = uint32_t(a[0].value);
        r[0] = w(2), r[1] = w(3);
        break;
    case op_bs_get_integer2:  // Fail Ctx Live Size Unit Flags Dst
    case op_bs_get_float2:
    case op_bs_get_binary2:
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = w(3), r[2] = Word(a[4].value), r[3] = match_flags(a[5]), r[4] = w(6);
        break;
    case op_bs_skip_bits2:  // Fail Ctx Size Unit Flags
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = w(2), r[2] = Word(a[3].value), r[3] = match_flags(a[4]);
        break;
    case op_bs_test_tail2:  // Fail Ctx Bits
    case op_bs_test_unit:   // Fail Ctx Unit
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = Word(a[2].value);
        break;
    case op_bs_match_string: {  // Fail Ctx Bits Offset
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = Word(a[2].value);
        if (!copy_strings(pm, a[3].value, (r[1] + 7) / 8, op->string_bytes, em)) return;
        op->strings = op->string_bytes.data();
        break;
    }
    case op_bs_get_utf8:  // Fail Ctx Live Flags Dst
    case op_bs_get_utf16:
    case op_bs_get_utf32:
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = match_flags(a[3]), r[2] = w(4);
        break;
    case op_bs_skip_utf8:  // Fail Ctx Live Flags
    case op_bs_skip_utf16:
    case op_bs_skip_utf32:
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = match_flags(a[3]);
        break;
    case op_bs_get_tail:      // Ctx Dst Live
    case op_bs_get_position:  // Ctx Dst Live
    case op_bs_set_position:  // Ctx Pos
        r[0] = w(0), r[1] = w(1);
        break;
    case op_bs_context_to_binary:  // Reg
        r[0] = w(0);
        break;
    default: return;
    }
    em.side_label(&op->fail, fail);
    mc.side_tables.push_back(op);
    em.emit("bs_match", {px(op.get())});
}

// The construction instructions of OTP 24 and earlier; operand layout in vm/interp_support.hpp.
void legacy(const GenericInstr& gi, const ParsedModule& pm, ModuleCode& mc, Emitter& em) {
    const auto& a = gi.args;
    auto op = std::make_shared<BsMatchOp>();
    op->opcode = gi.opcode;
    uint32_t fail = 0;
    auto w = [&](size_t i) { return any_word(a[i], mc); };
    auto u = [&](size_t i) { return Word(a[i].value); };
    Word* r = op->args;
    switch (gi.opcode) {
    case op_bs_init2:  // Fail Size Words Live Flags Dst
    case op_bs_init_bits:
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = u(2), r[2] = u(3), r[3] = w(5);
        break;
    case op_bs_append:  // Fail Size Extra Live Unit Bin Flags Dst
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = u(2), r[2] = u(3), r[3] = u(4), r[4] = w(5), r[5] = w(7);
        break;
    case op_bs_private_append:  // Fail Size Unit Bin Flags Dst
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = u(2), r[2] = w(3), r[3] = w(5);
        break;
    case op_bs_add:  // Fail Src1 Src2 Unit Dst
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = w(2), r[2] = u(3), r[3] = w(4);
        break;
    case op_bs_utf8_size:  // Fail Src Dst
    case op_bs_utf16_size:
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = w(2);
        break;
    case op_bs_put_integer:  // Fail Size Unit Flags Src
    case op_bs_put_float:
    case op_bs_put_binary:
        fail = uint32_t(a[0].value);
        r[0] = w(1), r[1] = u(2), r[2] = match_flags(a[3]), r[3] = w(4);
        break;
    case op_bs_put_string:  // Bytes StringOffset
        r[0] = u(0);
        if (!copy_strings(pm, a[1].value, r[0], op->string_bytes, em)) return;
        op->strings = op->string_bytes.data();
        break;
    case op_bs_put_utf8:  // Fail Flags Src
    case op_bs_put_utf16:
    case op_bs_put_utf32:
        fail = uint32_t(a[0].value);
        r[0] = match_flags(a[1]), r[1] = w(2);
        break;
    default: return;
    }
    em.side_label(&op->fail, fail);
    mc.side_tables.push_back(op);
    em.emit("bs_construct_legacy", {px(op.get())});
}

}  // namespace

bool transform_bits(const GenericInstr& gi, const ParsedModule& pm, ModuleCode& mc, Emitter& em) {
    switch (gi.opcode) {
    case op_bs_create_bin: create_bin(gi, pm, mc, em); return true;
    case op_bs_init_writable: em.emit("bs_init_writable", {}); return true;
    case op_bs_start_match3:
    case op_bs_start_match4:
    case op_bs_get_integer2:
    case op_bs_get_float2:
    case op_bs_get_binary2:
    case op_bs_skip_bits2:
    case op_bs_test_tail2:
    case op_bs_test_unit:
    case op_bs_match_string:
    case op_bs_get_utf8:
    case op_bs_get_utf16:
    case op_bs_get_utf32:
    case op_bs_skip_utf8:
    case op_bs_skip_utf16:
    case op_bs_skip_utf32:
    case op_bs_get_tail:
    case op_bs_get_position:
    case op_bs_set_position:
    case op_bs_context_to_binary: match(gi, pm, mc, em); return true;
    case op_bs_init2:
    case op_bs_init_bits:
    case op_bs_append:
    case op_bs_private_append:
    case op_bs_add:
    case op_bs_utf8_size:
    case op_bs_utf16_size:
    case op_bs_put_integer:
    case op_bs_put_float:
    case op_bs_put_binary:
    case op_bs_put_string:
    case op_bs_put_utf8:
    case op_bs_put_utf16:
    case op_bs_put_utf32: legacy(gi, pm, mc, em); return true;
    default: return false;
    }
}

}  // namespace beam::loader

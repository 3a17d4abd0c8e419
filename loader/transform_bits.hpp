// Bit-syntax instructions: construction (bs_create_bin) and matching (bs_start_match3/4,
// bs_get_*, bs_skip_*, bs_test_*, bs_match_string, bs_get_tail, bs_get/set_position).
#pragma once

#include "loader/beam_module.hpp"
#include "loader/emitter.hpp"
#include "vm/interp_support.hpp"
#include "vm/module.hpp"

namespace beam::loader {

// Emits the specific form of a bit-syntax generic instruction. False if `gi` is not one.
bool transform_bits(const GenericInstr& gi, const ParsedModule& pm, ModuleCode& mc, Emitter& em);
// The matching instructions in their common shapes as inline instructions
// (loader/transform_bits_fast.cpp). False (nothing emitted) when `gi` needs the general path.
bool transform_bits_fast(const GenericInstr& gi, const ParsedModule& pm, ModuleCode& mc, Emitter& em);
// bs_start_match3/4 at code[i] and a bs_get_integer2 of 8, or up to 59 unsigned big-endian,
// bits from the context it made: one instruction (the <<B, Rest/binary>> loop). Returns the
// instructions taken, 0 when they are not that shape.
size_t start_match_get_integer(const std::vector<GenericInstr>& code, size_t i, Emitter& em);
// The fast shapes of bs_create_bin's segments (`list`: the generic operand list, `op`: the
// segments decoded from it), or nothing when some segment has none.
std::vector<BsFastSeg> fast_create_segments(const OperandList& list, const BsCreateOp& op);

}  // namespace beam::loader

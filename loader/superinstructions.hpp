// Superinstructions: runs of generic instructions that the interpreter executes as one
// specific instruction (declared in vm/instructions.tab, section "superinstructions"). Which
// runs are worth fusing comes from the pair counts of tools/op_profile.sh (docs/benchmarks.md).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "loader/beam_module.hpp"
#include "loader/emitter.hpp"

namespace beam::loader {

// Records a line instruction (op_line) for the instruction emitted at a code position.
using LineRecorder = std::function<void(const GenericInstr& line, size_t pos)>;

// Emits the superinstruction that starts at code[i], if any; returns how many generic
// instructions it replaces (0: none starts here, nothing emitted). Only instructions that
// follow each other directly are fused, with one exception: a line record right before a call
// (the compiler puts one before most calls) joins the run, and is given to `on_line` with the
// address of the fused instruction. The call's return address lies inside that instruction,
// so a stack trace finds the same line as before; the instructions fused before the call
// (moves, allocate, trim) cannot raise, so no other lookup changes.
size_t emit_superinstruction(const std::vector<GenericInstr>& code, size_t i, Emitter& em, LiteralArea& literals,
                             const LineRecorder& on_line);

}  // namespace beam::loader

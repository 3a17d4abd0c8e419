// Superinstructions: runs of generic instructions that the interpreter executes as one
// specific instruction (declared in vm/instructions.tab, section "superinstructions"). Which
// runs are worth fusing comes from the pair counts of tools/op_profile.sh (docs/benchmarks.md).
#pragma once

#include <cstddef>
#include <vector>

#include "loader/beam_module.hpp"
#include "loader/emitter.hpp"

namespace beam::loader {

// Emits the superinstruction that starts at code[i], if any; returns how many generic
// instructions it replaces (0: none starts here, nothing emitted). Only instructions that
// follow each other directly are fused: a label or line record between them keeps them apart.
size_t emit_superinstruction(const std::vector<GenericInstr>& code, size_t i, Emitter& em, LiteralArea& literals);

}  // namespace beam::loader

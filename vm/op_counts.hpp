// Instruction counts for profiling builds (cmake -DBEAMVM_OP_COUNTS=ON): every executed specific
// instruction is counted, and so is every pair of instructions where the second is the one
// placed right after the first in the code (the pairs a superinstruction could fuse).
// tools/op_profile.sh builds such a tree, runs workloads and reports the hottest. A
// variable-length instruction (select_val, put_tuple2, ...) is followed by no counted pair:
// its size in the metadata is the fixed part only. Counting costs a call per instruction.
// In normal builds OP_COUNT compiles to nothing.
#pragma once

#include <cstddef>

#include "vm/term.hpp"

namespace beam {

#ifdef BEAMVM_OP_COUNTS
// Called at the start of every handler with the instruction's id and size in words.
void op_count(size_t id, const Word* at, size_t size);
#define OP_COUNT(id, size) ::beam::op_count(size_t(id), I, (size))
#else
#define OP_COUNT(id, size) ((void)0)
#endif

}  // namespace beam

// Generic instructions -> threaded code (design notes §6): the second loader stage.
#pragma once

#include "loader/beam_module.hpp"
#include "vm/code_table.hpp"
#include "vm/module.hpp"
#include "vm/result.hpp"

namespace beam::loader {

// Fills mc.code, functions, lines, funs, exports from `pm`. Imports are bound to export
// entries of `ns` and to BIFs; nothing becomes visible to running code until commit.
Result<void> transform_module(const ParsedModule& pm, ModuleCode& mc, Namespace& ns);

}  // namespace beam::loader

// Loading shared by erlang:load_module/2 and beamvm:namespace_load/3
// (bifs/system_code_loading.cpp, bifs/system_namespaces.cpp).
#pragma once

#include "vm/code_table.hpp"
#include "vm/process.hpp"

namespace beam {

// erlang:load_module/2 in `ns`: {module, M}, or {error, badfile | not_purged | on_load} (a
// module with an on_load function then waits for erlang:call_on_load_function/1); badarg for
// a module that is not an atom or code that is not a binary.
Term load_module_into(Process* p, Namespace& ns, Term m, Term bin);

}  // namespace beam

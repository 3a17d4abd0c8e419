// erts_debug:dirty_cpu/2, dirty_io/2 and dirty/3 (OTP's test functions for dirty schedulers),
// as built-in dirty NIFs (nif/debug_dirty.cpp).
#pragma once

#include "vm/term.hpp"

namespace beam {

struct NifFunction;

// The built-in NIF for erts_debug:Function/Arity if it is one of these, else null. The code
// table binds it to the export entry (vm/code_table.cpp).
const NifFunction* debug_dirty_function(Term module, Term function, unsigned arity);

}  // namespace beam

// The interpreter's one entry into NIF libraries (nif/): the nif_slot instruction at the entry of
// each function of a module that imports erlang:load_nif/2 calls call_nif once load_nif has bound
// a NifFunction to the slot.
#pragma once

#include "vm/term.hpp"

namespace beam {

class Process;
struct NifFunction;

// Runs the NIF with the arity's x registers as arguments. Returns its result, or NON_VALUE
// with the exception set on `p` (the NIF's frame, {M, F, Args, []}, as p->ftop).
Term call_nif(Process* p, const NifFunction* f, Term* x);

}  // namespace beam

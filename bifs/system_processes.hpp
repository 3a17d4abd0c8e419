// What other BIF families need from the process BIFs (bifs/system_processes.cpp).
#pragma once

#include "vm/process.hpp"

namespace beam {

class Namespace;

// spawn/3 (link: spawn_link/3) with the child in `ns` instead of the caller's namespace
// (beamvm:namespace_spawn/4, namespace_spawn_link/4). Bad M, F or Args raise badarg.
Term spawn_in_namespace(Process* p, Namespace& ns, Term m, Term f, Term args, bool link);

// A priority atom as ProcessSched::prio numbers it (max 0 .. low 3), -1 for anything else.
int prio_of(Term t);

}  // namespace beam

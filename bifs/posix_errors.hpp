// POSIX error numbers as the atoms erl reports them in {error, Reason}: enoent, eacces,
// eisdir, ... (the lower-case name of the errno macro; OTP's erl_errno_id).
#pragma once

#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

// The atom for errno value `err`; 'unknown' for a number without a name here.
Term posix_error_atom(int err);
// {error, Atom} built on `p`.
Term posix_error_tuple(Process* p, int err);

}  // namespace beam

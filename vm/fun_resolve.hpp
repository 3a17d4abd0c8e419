// Local funs made by binary_to_term whose code was not loaded when they were decoded
// (FunEntry::detached): resolved when they are called, as OTP does through
// error_handler:undefined_lambda.
#pragma once

#include "vm/module.hpp"
#include "vm/process.hpp"

namespace beam {

// The loaded FunEntry that `fun` (whose entry is detached) stands for, loading its module from
// the code path if needed. On failure raises as OTP 25 does and returns null: undef with the
// frame {Fun, Args, []} when the module cannot be loaded, {badfun, Fun} when the loaded code
// has no matching fun (another version: md5, index or uniq differ).
FunEntry* resolve_detached_fun(Process* p, Term* x, unsigned arity, Term fun);

}  // namespace beam

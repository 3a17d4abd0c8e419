// Arithmetic operators, shared by the erlang:'+'/2 ... BIFs and the interpreter's slow path
// (the interpreter handles small+small inline and calls these for everything else).
// Each returns NON_VALUE with the reason set on the process on error (badarith, or
// system_limit for shifts whose result could not be stored), exactly as OTP 25 raises it.
#pragma once

#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

Term arith_add(Process* p, Term a, Term b);
Term arith_sub(Process* p, Term a, Term b);
Term arith_mul(Process* p, Term a, Term b);
Term arith_fdiv(Process* p, Term a, Term b);  // '/'
Term arith_div(Process* p, Term a, Term b);   // div
Term arith_rem(Process* p, Term a, Term b);
Term arith_band(Process* p, Term a, Term b);
Term arith_bor(Process* p, Term a, Term b);
Term arith_bxor(Process* p, Term a, Term b);
Term arith_bsl(Process* p, Term a, Term b);
Term arith_bsr(Process* p, Term a, Term b);
Term arith_bnot(Process* p, Term a);
Term arith_neg(Process* p, Term a);   // unary '-'
Term arith_plus(Process* p, Term a);  // unary '+': the number itself

}  // namespace beam

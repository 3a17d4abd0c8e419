// The out-of-line parts of instructions: everything rare, long, or that walks the stack.
// Called between SWAPOUT and SWAPIN, so p->htop and p->stop are current. Functions that can
// fail return NON_VALUE or nullptr with the exception set on the process.
#pragma once

#include <vector>

#include "bifs/arith.hpp"
#include "bifs/bif.hpp"
#include "vm/bits_fast.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"

namespace beam {

// ---- exceptions (vm/exception.cpp) ----
// Records that BIF `spec` failed with `args`, so the stack trace starts with it.
void note_bif_error(Process* p, const BifSpec* spec, const Term* args);
// Builds the stack trace and unwinds to the innermost catch. Returns the handler address
// (x0 = NON_VALUE, x1 = class, x2 = reason, x3 = raw trace), or nullptr if uncaught.
const Word* handle_exception(Process* p, Term* x, const Word* pc);
void raise_function_clause(Process* p, Term* x, const FunctionInfo* fn);
Term catch_value(Process* p, Term* x);               // the value of a `catch Expr` that raised
void reraise(Process* p, Term raw_trace, Term value);  // the `raise` instruction
Term stacktrace_of(Process* p, Term raw_trace);        // build_stacktrace
// process_info(Q, current_stacktrace), at most max(min_depth, backtrace_depth) frames.
Term current_stacktrace(Process* p, const Process* q, size_t min_depth = 0);
bool raw_raise(Process* p, Term cls, Term reason, Term trace);
void raise_not_implemented(Process* p, const char* what);
Term class_atom(ErrorClass c);
const BifSpec* bif_plus();
const BifSpec* bif_minus();

// ---- calls (vm/calls.cpp) ----
// *arity is e's arity on entry, and the live x registers of the returned target on exit.
// RETRY_CALL: another process is loading the module; call again in the next time slice.
inline const Word* const RETRY_CALL = reinterpret_cast<const Word*>(uintptr_t(8));
const Word* resolve_undefined(Process* p, Term* x, Export* e, unsigned* arity);
// A function with a debug breakpoint (erts_debug:breakpoint/2) was called with its arguments
// in x: they become x0..x2 = Module, Function, Args for ErrorHandler:breakpoint/3, whose code
// is returned; nullptr with undef raised when the handler is not loaded (as erts).
const Word* debug_breakpoint_target(Process* p, Term* x, Term module, Term function, unsigned arity);
// erlang:call_on_load_function/1 (x0 = module): the on_load function's entry, or nullptr
// with badarg raised.
const Word* on_load_target(Process* p, Term* x);
// M in x[arity], F in x[arity+1]; *arity may change (erlang:apply/3 applied is unwrapped).
// `pushed`: the call pushed its return address, which names the applying function in a stack
// trace; a tail call did not, so the trace takes that function from the pc (as OTP's does).
const Word* apply_target(Process* p, Term* x, unsigned* arity, bool pushed);
// The code a fun call enters; *total receives the live argument count (arity + free vars).
const Word* fun_target(Process* p, Term* x, unsigned arity, Term fun, unsigned* total);
// Copies the elements of a proper list into x[0..n); false if not a proper list (or too long).
bool unpack_args(Term list, Term* x, unsigned* n);
// badarg from erlang:apply/2,3 with a bad argument list (f is NON_VALUE for apply/2);
// `pushed` as for apply_target.
void bad_apply_list(Process* p, Term m_or_fun, Term f, Term args, bool pushed);
Term make_closure(Process* p, FunEntry* fe, const Word* free_ops, Term* x, Word n);
bool is_function_of_arity(Term f, Term arity);
const Word* select_value(Term v, const Word* fail, const Word* table, Word n);
double number_as_double(Term t);
// What fmove puts into a float register (fload and the instructions fused with it).
inline double fload_value(Term t) { return is_float(t) ? float_value(t) : number_as_double(t); }
// Quotient of small `v` by 2^k truncated toward zero, as div: a negative dividend is biased by
// 2^k - 1 before the shift (int_div_pow2, int_rem_pow2).
inline SWord div_pow2(SWord v, Word k) { return (v + ((v >> 63) & ((SWord(1) << k) - 1))) >> k; }

// ---- maps (vm/interp_maps.cpp) ----
// [k1 v1 ... kn vn] any-encoded; exact: every key must exist ({badkey,K} otherwise).
Term put_map(Process* p, Term src, bool exact, const Word* kv, Word n, Term* x);
// [v1 ... vn] any-encoded, in the order of the literal keys tuple.
Term new_map_lit(Process* p, Term keys, const Word* values, Word n, Term* x);

// ---- bit syntax (vm/interp_bits.cpp construction, vm/bits_match.cpp matching) ----
// Operands of the complex bit-syntax instructions live in side tables the loader builds
// (loader/transform_bits.cpp), owned by ModuleCode::side_tables.
struct BsSegment {
    Term type;       // integer, float, binary, utf8, utf16, utf32, string, append, private_append
    Word unit;
    Word flags;      // BS_LITTLE | BS_SIGNED | BS_NATIVE
    Word value;      // any-encoded; for string: byte offset into BsCreateOp::strings
    Word size;       // any-encoded; the atom `all` or `undefined` as constants; string: byte count
    Word seg = 0;    // the compiler's segment number, reported in error causes
};
inline constexpr Word BS_LITTLE = 1, BS_SIGNED = 2, BS_NATIVE = 4;
// A segment in a shape the construction fast path handles (vm/bits_create_fast.cpp): an
// integer of at most 64 bits, a binary of a given size or `all`, a utf8 code point, a string.
// Sizes are literals or registers (IntVar, BinVar: checked when the instruction runs).
struct BsFastSeg {
    enum Kind : uint8_t { Int, IntVar, BinAll, BinImm, BinVar, Utf8, String } kind;
    bool little = false;
    Word bits = 0;   // Int, BinImm, String: the segment's size in bits
    Word value = 0;  // any-encoded (String: byte offset into BsCreateOp::strings)
    Word unit = 1;   // BinAll, IntVar, BinVar
    Word size = 0;   // IntVar, BinVar: the any-encoded size operand
};
struct BsCreateOp {
    const Word* fail = nullptr;
    Word live = 0;
    Word alloc = 0;  // heap words guaranteed free afterwards (the compiler's Alloc operand)
    Word dst = 0;  // any-encoded destination
    std::vector<BsSegment> segs;
    const uint8_t* strings = nullptr;  // the bytes string segments refer to (string_bytes)
    std::vector<uint8_t> string_bytes;
    // Where the instruction sits, so an error can name the function and line like OTP does.
    const ModuleCode* code = nullptr;
    size_t code_pos = 0;
    // One entry per segment when every segment has a fast shape (at most BS_FAST_MAX), else empty.
    std::vector<BsFastSeg> fast;
};
inline constexpr size_t BS_FAST_MAX = 16;
// One generic matching instruction with its operands any-encoded (see loader/transform_bits.cpp).
// args by opcode (generic operand order without Fail and Live; flags decoded to BS_* bits):
//   start_match3/4: [src dst]   get_integer2/float2/binary2: [ctx size unit flags dst]
//   skip_bits2: [ctx size unit flags]   test_tail2: [ctx bits]   test_unit: [ctx unit]
//   match_string: [ctx bits] (strings holds the bytes)   get_utf*: [ctx flags dst]
//   skip_utf*: [ctx flags]   get_tail/get_position: [ctx dst]   set_position: [ctx pos]
//   context_to_binary: [reg]
struct BsMatchOp {
    uint8_t opcode;  // generic opcode number
    const Word* fail = nullptr;  // nullptr: a failed test raises badarg (no_fail/resume)
    Word args[8] = {};
    const uint8_t* strings = nullptr;
    std::vector<uint8_t> string_bytes;
};
inline const Word* const BS_NEXT = reinterpret_cast<const Word*>(1);
Term bs_create_bin(Process* p, Term* x, Term* E, const BsCreateOp* op);
// bs_create_bin for an op with fast segments whose values are what the shapes expect (small
// integers, bitstrings long enough); NON_VALUE, with nothing done, for anything else, which
// the general path then handles (and reports) as it always does.
Term bs_create_bin_fast(Process* p, Term* x, Term* E, const BsCreateOp* op);
// bs_init_writable: an empty binary that later appends extend (size_hint is in bytes).
Term bs_init_writable(Process* p, Term size_hint);
const Word* bs_match(Process* p, Term* x, Term* E, const BsMatchOp* op);
// The construction instructions of OTP 24 and earlier (vm/bits_legacy.cpp), operands in a
// BsMatchOp: init2/init_bits: [size words live dst]  append: [size extra live unit bin dst]
//   private_append: [size unit bin dst]  add: [src1 src2 unit dst]  utf8/16_size: [src dst]
//   put_integer/float/binary: [size unit flags src]  put_string: [bytes]  put_utf*: [flags src]
const Word* bs_construct_legacy(Process* p, Term* x, Term* E, const BsMatchOp* op);

// ---- messages (vm/mailbox.cpp) ----
Term send_message(Process* p, Term to, Term msg);
// The next message after the save position once queued signals are taken in; NON_VALUE if
// none (p->sched.exit_pending if an exit signal ended the process meanwhile).
Term fetch_signals(Process* p);
inline void advance_message(Process* p) { p->mailbox_save++; }
void remove_message(Process* p);
bool set_timeout(Process* p, Term timeout);
void clear_timeout(Process* p);
// recv_marker_reserve: a marker at the end of the mailbox (vm/recv_markers.hpp), 'undefined'
// if the mailbox is empty, NON_VALUE if a signal taken in meanwhile ended the process.
Term reserve_recv_marker(Process* p);
// recv_marker_use: the receive that follows starts at the marker named `ref`, if there is one.
void use_recv_marker(Process* p, Term ref);

}  // namespace beam

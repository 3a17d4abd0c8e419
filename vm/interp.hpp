// The threaded-code interpreter: specific instruction ids, their metadata, and the entry point.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {

enum class Op : uint16_t {
#include "vm/instr_ids.inc"
    COUNT
};

struct InstrMeta {
    const char* name;   // specific name, e.g. "move_xy"
    const char* base;   // instruction as declared, e.g. "move"
    const char* kinds;  // operand kinds of this variant, e.g. "xy"
    uint8_t size;       // words including the handler address (variable-length: the fixed part)
    // The x, y and n operands sit in 16-bit fields after the handler word, four to a word, in
    // order; the other operands follow, a word each (tools/gen_instructions.py, `pack`).
    bool packed;
};

inline constexpr unsigned PACKED_FIELDS_PER_WORD = 4;
inline constexpr Word PACKED_FIELD_MAX = 0xFFFF;

const InstrMeta& instr_meta(Op op);
// The handler address that stands for `op` in threaded code.
Word handler_word(Op op);
// Reverse mapping for disassembly; Op::COUNT if `w` is no handler.
Op op_of_handler(Word w);

enum class RunStatus : uint8_t {
    Yielded,  // reduction budget spent; resume at p->pc
    Waiting,  // in receive with no matching message; resume at p->pc when one arrives
    Exited,   // returned from its initial call
    Crashed,  // uncaught exception: class/reason/trace in p->fclass/fvalue/ftrace
    Halted,   // erlang:halt was called
    Killed,   // an exit signal ended it while it looked for messages, or the GC found it over its
              // max_heap_size (kill): reason in p->sched.exit_reason
    Dirty,    // its NIF call goes on on a dirty scheduler (vm/nif_call.hpp); resume at p->pc after
};

inline constexpr int64_t REDUCTION_BUDGET = 4000;

// Runs `p` from p->pc, its live x registers taken from p->saved_x (p->arity of them), until
// it yields, waits, exits or crashes; after a yield or a wait p->saved_x holds them again.
RunStatus execute(Process* p);

// Operands that may be a register or a constant ("a" kind) are encoded as: a term, or for a
// register a header-tagged word (no term is header-tagged) holding its number and x/y flag.
inline constexpr Word encode_x(Word n) { return n << 3; }
inline constexpr Word encode_y(Word n) { return (n << 3) | 4; }
inline Term any_operand(Word w, Term* x, Term* E) {
    if ((w & 3) != 0) return Term{w};
    return (w & 4) ? E[w >> 3] : x[w >> 3];
}
inline Term& any_dest(Word w, Term* x, Term* E) { return (w & 4) ? E[w >> 3] : x[w >> 3]; }

// Packed operand field `k` (0-3) of code word `w`: the low half-word first, as the loader
// writes it (loader/emitter.cpp); copied out, not cast, so it is one 16-bit load.
static_assert(std::endian::native == std::endian::little, "packed operand fields are laid out little-endian");
inline Word packed_field(const Word* w, unsigned k) {
    uint16_t v;
    std::memcpy(&v, reinterpret_cast<const char*>(w) + 2 * k, sizeof v);
    return v;
}
inline constexpr Word packed_field_value(Word v, unsigned k) { return v << (16 * k); }

// Live x registers after an instruction that wrote `dst` (any-encoded): Live, or more if the
// destination is an x register at or above it.
inline Word live_with_dest(Word live, Word dst) {
    if ((dst & 3) == 0 && !(dst & 4) && (dst >> 3) >= live) return (dst >> 3) + 1;
    return live;
}

// is_tagged_tuple's test: a tuple of `arity` elements whose first is `tag`.
inline bool is_tagged_tuple_of(Term t, Word arity, Term tag) {
    return is_tuple_of_arity(t, arity) && tuple_elem(t, 0) == tag;
}

inline Term make_cp(const Word* addr) { return Term{reinterpret_cast<Word>(addr)}; }
inline const Word* cp_of(Term t) { return reinterpret_cast<const Word*>(t.raw); }
inline bool is_cp(Term t) { return is_header(t); }

}  // namespace beam

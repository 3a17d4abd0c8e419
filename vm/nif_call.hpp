// The interpreter's and the schedulers' one entry into NIF libraries (nif/): the nif_slot
// instruction at the entry of each function of a module that imports erlang:load_nif/2 calls
// call_nif once load_nif has bound a NifFunction to the slot; nif_resume continues a call that
// enif_schedule_nif rescheduled; a dirty scheduler thread runs the steps flagged dirty.
//
// A NIF call in progress (rescheduled or dirty) keeps every term it needs in x registers, the
// GC roots of a process that is scheduled out (p->saved_x): the original arguments in
// x0..x(A-1) (an exception's frame names them, as erts restores them), then the next step's
// arguments, or its result or exception reason, from xA on. NifContinuation says what the
// registers hold; it is plain data, so vm/ needs nothing of nif/ to keep it.
#pragma once

#include <cstdint>

#include <vector>

#include "vm/term.hpp"

namespace beam {

class Process;
struct NifFunction;

namespace dirty_kind {
inline constexpr uint8_t NONE = 0;
inline constexpr uint8_t CPU = 1;  // ERL_NIF_DIRTY_JOB_CPU_BOUND
inline constexpr uint8_t IO = 2;   // ERL_NIF_DIRTY_JOB_IO_BOUND
}  // namespace dirty_kind

struct NifContinuation {
    enum class State : uint8_t {
        Idle,    // no call in progress
        Step,    // the next step: fn(args in x[origin_arity .. origin_arity+argc))
        Done,    // the call returned x[origin_arity] (after a dirty step)
        Raised,  // the call raised error:x[origin_arity] (after a dirty step)
    };
    State state = State::Idle;
    uint8_t dirty = dirty_kind::NONE;  // where the next step runs
    uint16_t origin_arity = 0;
    uint16_t argc = 0;
    const NifFunction* origin = nullptr;  // the NIF that the Erlang code called
    void* fn = nullptr;                   // the step's ERL_NIF_TERM (*)(ErlNifEnv*, int, const ERL_NIF_TERM[])
    Term module = NIL;                    // origin's module
    Term name = NIL;                      // the step's name (enif_schedule_nif's fun_name)
    unsigned live() const { return unsigned(origin_arity) + (state == State::Step ? argc : 1u); }
};

// What the interpreter does next with a NIF call.
enum class NifNext : uint8_t {
    Return,    // the call returned `value`
    Raise,     // the call raised: the exception is set on p, p->ftop names the NIF's frame
    Continue,  // the process yields; the next step runs at nif_resume_code() with `live` x registers
    Dirty,     // the next step runs on a dirty scheduler: the process leaves with RunStatus::Dirty
};
struct NifStep {
    NifNext next;
    unsigned live = 0;
    Term value = NIL;
};

// Runs the NIF with the arity's x registers as arguments.
NifStep call_nif(Process* p, const NifFunction* f, Term* x);
// The next step of p's call in progress (the nif_resume instruction), x as described above.
NifStep resume_nif(Process* p, Term* x);
// On a dirty scheduler thread: runs the dirty step of p, which is scheduled out with its x
// registers in p->saved_x and p->pc at nif_resume_code(). Leaves p's registers ready for
// nif_resume; returns where the next step runs (dirty_kind::NONE: on a normal scheduler).
uint8_t run_dirty_nif(Process* p);

// One instruction, nif_resume, where a process with a NIF call in progress continues
// (vm/interp.cpp).
const Word* nif_resume_code();

// erlang:system_info(taints): the modules that have called a NIF library's nif_init, oldest
// first (erts' list, which never shrinks).
std::vector<Term> nif_taints();

}  // namespace beam

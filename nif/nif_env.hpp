// erl_nif's environment (ErlNifEnv, opaque to NIF libraries) and the conversions every enif_*
// function uses. An environment is where a NIF's terms live:
//   - a call environment: the calling process's heap (NIF calls and load/upgrade/unload
//     callbacks run in a process, whose heap never collects while native code runs);
//   - a process-independent environment (enif_alloc_env): an area of its own that keeps its
//     terms until enif_clear_env or enif_free_env, usable from any thread.
// ERL_NIF_TERM is beamvm's own term word (design notes §12): a NIF only passes it back.
#pragma once

#include <erl_nif.h>

#include <memory>

#include "vm/heap.hpp"
#include "vm/process.hpp"
#include "vm/term.hpp"

namespace beam {
class VM;
struct NifModule;
struct NifFunction;
}  // namespace beam

struct enif_environment_t {
    beam::VM* vm = nullptr;
    beam::Process* proc = nullptr;         // the calling process, or null (independent env)
    beam::TermAllocator* heap = nullptr;   // proc, or `own`
    std::unique_ptr<beam::LiteralArea> own;
    const beam::NifModule* module = nullptr;  // whose priv_data enif_priv_data answers
    // enif_raise_exception / enif_make_badarg: the reason the call raises when it returns.
    beam::Term exception = beam::NON_VALUE;
    // enif_schedule_nif: the call that replaces this one when it returns.
    struct Scheduled {
        ERL_NIF_TERM (*fn)(ErlNifEnv*, int, const ERL_NIF_TERM[]) = nullptr;
        int flags = 0;
        beam::Term name = beam::NIL;  // an atom
        int argc = 0;
        beam::Term args[256];
    };
    std::unique_ptr<Scheduled> scheduled;
    // The call runs on a dirty scheduler (beam::dirty_kind): enif_consume_timeslice does nothing.
    uint8_t dirty = 0;
};

namespace beam::nif {

inline Term T(ERL_NIF_TERM t) { return Term{Word(t)}; }
inline ERL_NIF_TERM N(Term t) { return ERL_NIF_TERM(t.raw); }
inline TermAllocator& heap(ErlNifEnv* env) { return *env->heap; }

// The VM of the thread that runs now (a scheduler or a thread the VM started for NIFs), else the
// VM that last loaded a NIF library: the one a foreign thread's enif_send addresses.
VM* current_vm();
void set_current_vm(VM* vm);

// A call environment for `p` (NIF calls, load callbacks).
void init_call_env(ErlNifEnv& env, Process* p, const NifModule* module);

// A resource destructor's or down callback's environment: an independent area for its terms.
struct CallbackEnv {
    ErlNifEnv env;
    explicit CallbackEnv(VM* vm);
};

}  // namespace beam::nif

// NIF libraries bound to module versions (erlang:load_nif/2).
//
// A NifLibrary is one dlopen'ed shared object; it stays open while a module version or a
// resource type of it needs its code. A NifModule is what one module version got from it: the
// library's ErlNifEntry, its priv_data, and one NifFunction per entry of the function table.
// Each function of a module that imports erlang:load_nif/2 starts with a `nif_slot`
// instruction (loader/transform.cpp) whose operand is null until load_nif stores the
// NifFunction there; from then on a call of that function runs the NIF (vm/nif_call.hpp).
#pragma once

#include <erl_nif.h>

#include <memory>
#include <string>
#include <vector>

#include "vm/term.hpp"

namespace beam {

class VM;
struct ModuleCode;

struct NifLibrary {
    void* handle = nullptr;  // dlopen's
    std::string path;        // as opened, with ".so"
    ~NifLibrary();
};

struct NifModule;

struct NifFunction {
    Term module;
    Term name;
    unsigned arity;
    unsigned flags;  // 0, ERL_NIF_DIRTY_JOB_CPU_BOUND or ERL_NIF_DIRTY_JOB_IO_BOUND
    ERL_NIF_TERM (*fptr)(ErlNifEnv*, int, const ERL_NIF_TERM[]);
    const NifModule* owner;
};

struct NifModule {
    std::shared_ptr<NifLibrary> library;
    ErlNifEntry entry;  // a copy, as the library's own may be static data of an older layout
    void* priv_data = nullptr;
    bool loaded = false;  // its load or upgrade callback succeeded: only then does unload run
    std::vector<std::unique_ptr<NifFunction>> functions;
    VM* vm = nullptr;
    ~NifModule();  // runs the library's unload callback, if it was loaded
};

}  // namespace beam

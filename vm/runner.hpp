// Runs a process to completion on the calling thread. Issue 4 replaces this with per-core
// schedulers; until then the start process is the only process.
#pragma once

#include <vector>

#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beam {

struct RunResult {
    int exit_status;  // halt status, 0 when the process ended normally, 1 when it crashed
};

// Spawns a process in `ns` that calls Module:Function(Args...) and runs it until it ends or
// the VM halts. Args are built by `make_args` on the new process's heap.
RunResult run_call(VM& vm, Namespace& ns, Term module, Term function,
                   std::vector<Term> (*make_args)(Process& p, void* ctx), void* ctx);

}  // namespace beam

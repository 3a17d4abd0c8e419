// Runs the VM: starts the schedulers, spawns the first process, and waits until erlang:halt
// is called or no process is left.
#pragma once

#include <functional>

#include "vm/heap.hpp"
#include "vm/vm.hpp"

namespace beam {

// Spawns Module:Function(Args...) as the first process, where Args is the list `make_args`
// builds, and runs everything until the VM halts. Returns the exit status. `on_started` runs
// once the schedulers and the I/O servers are up (beamvm --watch starts its watcher there).
// Without `io_servers` (OTP booted: kernel starts `user` and `standard_error`), the first
// process is its own group leader, as erts makes it.
int run_vm(VM& vm, int schedulers, Term module, Term function, Term (*make_args)(TermAllocator& a, void* ctx),
           void* ctx, const std::function<void()>& on_started = {}, bool io_servers = true);

}  // namespace beam

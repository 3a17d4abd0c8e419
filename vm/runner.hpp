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
// With `as_init` (OTP booted: kernel starts `user` and `standard_error`), beamvm's I/O
// servers are not started, and `as_init` sets up the first process (not yet runnable) as
// erts' init before it runs.
int run_vm(VM& vm, int schedulers, Term module, Term function, Term (*make_args)(TermAllocator& a, void* ctx),
           void* ctx, const std::function<void()>& on_started = {},
           const std::function<void(Process*)>& as_init = {});

// Starts beamvm's own I/O servers, registered as `user` (stdout) and `standard_error`, and
// returns user's pid, every process's group leader (the schedulers must be running).
Term start_io_servers(VM& vm);

}  // namespace beam

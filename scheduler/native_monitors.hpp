// Natives that watch a process's exit: OTP's enif_monitor_process, which prim_socket uses to
// close a socket when its owner dies and to drop a waiting reader, writer or acceptor that
// died, and NIF resources use (nif/resource_monitors.hpp). A native monitor is not a process
// monitor: it sends no 'DOWN' message, and it is in process_info(monitored_by) only as the
// term its watcher names (erl shows the resource there); the watcher's on_exit runs on the
// dying process's scheduler thread, in exit_process, with no lock held.
#pragma once

#include <cstdint>
#include <memory>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beam {

class VM;
class Process;

class ExitWatcher {
public:
    virtual ~ExitWatcher() = default;
    // `pid` has exited; `id` is what native_monitor returned for this watch.
    virtual void on_exit(Term pid, uint64_t id) = 0;
    // What process_info(P, monitored_by) lists for this watch, built in `a`; NON_VALUE: not
    // listed. Called with the target's info_mutex held: it must take no lock that is held
    // while calling native_monitor.
    virtual Term monitored_by_term(TermAllocator& a) const {
        (void)a;
        return NON_VALUE;
    }
};

// Watches the local process `pid`. Returns the monitor's id (never 0; a number of the reference
// counter, vm/term_refs.hpp, so ids are unique and ordered with references), or 0 when there is no
// such live process (erl's enif_monitor_process answers > 0 then): the caller acts as if it
// had exited.
uint64_t native_monitor(VM& vm, Term pid, std::shared_ptr<ExitWatcher> w);
// Ends the watch `id` on `pid` (nothing if it has already fired or never existed).
void native_demonitor(VM& vm, Term pid, uint64_t id);
// exit_process: runs and drops every native watch on `p`; later native_monitor calls on it
// answer 0. `reason`: its exit reason, which a watcher's on_exit reads with
// native_exit_reason() (a process-carried connection's nodedown reason).
void fire_native_monitors(Process* p, Term reason = NIL);
// In an on_exit: the exiting process's reason (on its heap, valid during the call); NIL elsewhere.
Term native_exit_reason();

}  // namespace beam

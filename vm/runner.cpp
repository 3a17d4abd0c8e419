#include "vm/runner.hpp"

#include <cstdio>
#include <cstdlib>

#include "bifs/bif_util.hpp"
#include "crashdump/crash_dump.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/scheduler.hpp"

namespace beam {

Term start_io_servers(VM& vm) {
    Term user = NIL;
    for (int fd : {1, 2}) {
        Process* io = vm.new_process(vm.root(), 0, NIL, true);
        LiteralArea tmp;
        Term fd_arg = make_list_from(tmp, std::initializer_list<Term>{make_small(fd)}.begin(), 1);
        vm.setup_call(io, atom("beamvm_io_server"), atom("init"), fd_arg);
        vm.procs.register_name(atom(fd == 1 ? "user" : "standard_error"), io);
        if (fd == 1) user = io->pid;
        io->group_leader = user;
        vm.start_process(io);
        ProcessTable::release(io);
    }
    return user;
}

int run_vm(VM& vm, int schedulers, Term module, Term function, Term (*make_args)(TermAllocator& a, void* ctx),
           void* ctx, const std::function<void()>& on_started, const std::function<void(Process*)>& as_init) {
    vm.start(schedulers);
    install_fatal_error_dump(vm);  // vm/fatal_error.hpp: internal fatal errors dump too
    // The I/O servers: `user` (stdout) is every process's group leader; `standard_error`.
    // Booted OTP's kernel starts its own.
    Term user = as_init ? NIL : start_io_servers(vm);

    if (on_started) on_started();

    LiteralArea scratch;
    Term args = make_args(scratch, ctx);
    Process* p = vm.new_process(vm.root(), 0, user);
    if (as_init) as_init(p);
    vm.setup_call(p, module, function, args);
    vm.start_process(p);
    ProcessTable::release(p);
    if (vm.exit_process_when_done) {
        int status = vm.scheds->wait_until_done();
        finish_requested_crash_dump(vm);  // halt with a slogan: the dump, then the OS process ends
        if (!vm.ports_started.load(std::memory_order_acquire)) {
            // Joining the schedulers and freeing the tables took a tenth of a hello-world's
            // start-up, most of it the allocator's per-thread clean-up (docs/benchmarks.md,
            // "Issue 11: session 9 changes"). The output is written, files are raw
            // descriptors: nothing is lost.
            std::fflush(nullptr);
            std::quick_exit(status);
        }
        if (vm.scheds->dirty().running() > 0) {
            // A NIF still runs on a dirty scheduler (it may never return): as erl's halt, the
            // OS process ends without it, once the ports have had their orderly shutdown.
            status = vm.scheds->run_until_done();
            vm.ports.reset();
            std::fflush(nullptr);
            std::quick_exit(status);
        }
    }
    int status = vm.scheds->run_until_done();
    finish_requested_crash_dump(vm);
    std::fflush(vm.out);
    vm.timers.stop();
    return status;
}

}  // namespace beam

#include "vm/runner.hpp"

namespace beam {

int run_vm(VM& vm, int schedulers, Term module, Term function, Term (*make_args)(TermAllocator& a, void* ctx),
           void* ctx) {
    vm.start(schedulers);
    // The I/O server, registered as `user`, is every process's group leader.
    Process* io = vm.new_process(vm.root(), 0, NIL, true);
    vm.setup_call(io, atom("beamvm_io_server"), atom("init"), NIL);
    vm.procs.register_name(atom("user"), io);
    Term user = io->pid;
    io->group_leader = user;
    vm.start_process(io);
    ProcessTable::release(io);

    LiteralArea scratch;
    Term args = make_args(scratch, ctx);
    Process* p = vm.new_process(vm.root(), 0, user);
    vm.setup_call(p, module, function, args);
    vm.start_process(p);
    ProcessTable::release(p);
    int status = vm.scheds->run_until_done();
    std::fflush(vm.out);
    vm.timers.stop();
    return status;
}

}  // namespace beam

#include "vm/runner.hpp"

#include "bifs/bif_util.hpp"

namespace beam {

int run_vm(VM& vm, int schedulers, Term module, Term function, Term (*make_args)(TermAllocator& a, void* ctx),
           void* ctx, const std::function<void()>& on_started, bool io_servers) {
    vm.start(schedulers);
    // The I/O servers: `user` (stdout) is every process's group leader; `standard_error`.
    Term user = NIL;
    for (int fd : {1, 2}) {
        if (!io_servers) break;
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

    if (on_started) on_started();

    LiteralArea scratch;
    Term args = make_args(scratch, ctx);
    // Booted OTP: pids as erts gives them. init is <0.0.0>; erts' system processes follow
    // (1-5); erl_init's prim_file helper is <0.6.0>; beamvm has no socket NIFs, so the two
    // number erl gives socket_registry is left out.
    if (!io_servers) vm.number_pids_from(0, 6, 1);
    Process* p = vm.new_process(vm.root(), 0, user);
    if (!io_servers) {
        p->group_leader = p->pid;
        vm.init_pid = p->pid;
        // Booted OTP: erts' system processes, idle in beamvm (code purging is native,
        // bifs/system_code_loading.cpp; literal areas and dirty-process signals need no
        // helpers), there because OTP code looks erts_code_purger up and lists processes.
        for (const char* m : {"erts_code_purger", "erts_literal_area_collector", "erts_dirty_process_signal_handler",
                              "erts_dirty_process_signal_handler", "erts_dirty_process_signal_handler"}) {
            Process* sys = vm.new_process(vm.root(), 0, p->pid, true);
            vm.setup_call(sys, atom(m), atom("start"), NIL);
            vm.start_process(sys);
            ProcessTable::release(sys);
        }
    }
    vm.setup_call(p, module, function, args);
    vm.start_process(p);
    ProcessTable::release(p);
    int status = vm.scheds->run_until_done();
    std::fflush(vm.out);
    vm.timers.stop();
    return status;
}

}  // namespace beam

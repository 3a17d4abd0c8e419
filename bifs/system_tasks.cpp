// Requests one process makes of another's runtime, and what erts_internal tells of a process
// (OTP: request_system_task in erl_process.c, erl_bif_info.c): the natives under
// erlang:garbage_collect/1,2 and erlang:process_display/2, is_system_process/1,
// dirty_process_handle_signals/1, system_check/1.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

bool is_live_process(Process* p, Term pid) {
    if (pid == p->pid) return true;
    Process* q = p->vm->procs.lookup(pid);
    if (!q) return false;
    bool alive = !(q->sched.state.load(std::memory_order_acquire) & run_state::EXITED);
    ProcessTable::release(q);
    return alive;
}

// erts_internal:garbage_collect(Type): the caller's own collection. A native cannot collect
// (the interpreter holds the heap top); the next heap check does, as for garbage_collect/0.
Term erts_garbage_collect_1(Process* p, const Term* a) {
    if (a[0] != atom("major") && a[0] != atom("minor")) return p->badarg();
    return am::true_;
}

// erts_internal:request_system_task(Requester, Target, Prio, {Type, ReqId, Arg...}): `ok`,
// and later {Type, ReqId, Result} to Requester. Garbage collection of another process answers
// true when it is alive (beamvm collects a heap only from its owner's own thread, at its next
// heap check) and false when it is not, as erts; the other task types are not implemented.
Term request_system_task(Process* p, Term requester, Term target, Term prio, Term op) {
    if (!is_pid(target)) return p->badarg();
    if (prio != atom("max") && prio != atom("high") && prio != am::normal && prio != atom("low") &&
        prio != atom("inherit"))
        return p->badarg();
    if (!is_tuple(op) || tuple_arity(op) < 2 || tuple_arity(op) > 4) return p->badarg();
    Term type = tuple_elem(op, 0);
    if (type == atom("garbage_collect")) {
        Term kind = tuple_arity(op) > 2 ? tuple_elem(op, 2) : NON_VALUE;
        if (kind != atom("major") && kind != atom("minor")) return p->badarg();
        Term result = make_bool(is_local_pid(target) && is_live_process(p, target));
        post_message(*p->vm, requester, make_tuple(*p, {type, tuple_elem(op, 1), result}));
        return am::ok;
    }
    if (type == atom("check_process_code") || type == atom("system_task_test"))
        return p->error(make_tuple(*p, {atom("not_implemented"), type}));
    return p->badarg();
}

Term request_system_task_3(Process* p, const Term* a) { return request_system_task(p, p->pid, a[0], a[1], a[2]); }
Term request_system_task_4(Process* p, const Term* a) { return request_system_task(p, a[0], a[1], a[2], a[3]); }

// erts_internal:process_display(Pid, Type): `badopt`, `badarg` (not a live process), or the
// backtrace printed on stderr, which beamvm cannot print yet (docs/bif_fuzz_differences.md).
Term erts_process_display_2(Process* p, const Term* a) {
    if (a[1] != atom("backtrace")) return atom("badopt");
    if (!is_local_pid(a[0]) || !is_live_process(p, a[0])) return am::badarg;
    return p->error(make_tuple(*p, {atom("not_implemented"), atom("process_display")}));
}

// beamvm starts no system processes (erts' code purger, literal collector, ...): every local
// process is an ordinary one.
Term is_system_process_1(Process* p, const Term* a) { return is_pid(a[0]) ? am::false_ : p->badarg(); }

// Handling the signals of a process stuck in a dirty native: beamvm has no dirty schedulers,
// and erts answers `notsup` in that case too.
Term dirty_process_handle_signals_1(Process* p, const Term*) { return p->error(atom("notsup")); }

// system_check(schedulers): every scheduler answers a check request; beamvm's schedulers take
// no such requests, so there is nothing to wait for.
Term system_check_1(Process* p, const Term* a) { return a[0] == atom("schedulers") ? am::ok : p->badarg(); }

const BifSpec table[] = {
    {"erts_internal", "is_system_process", 1, &is_system_process_1},
    {"erts_internal", "dirty_process_handle_signals", 1, &dirty_process_handle_signals_1},
    {"erts_internal", "system_check", 1, &system_check_1},
    {"erts_internal", "garbage_collect", 1, &erts_garbage_collect_1},
    {"erts_internal", "request_system_task", 3, &request_system_task_3},
    {"erts_internal", "request_system_task", 4, &request_system_task_4},
    {"erts_internal", "process_display", 2, &erts_process_display_2},
};

}  // namespace

std::span<const BifSpec> system_task_bifs() { return table; }

}  // namespace beam

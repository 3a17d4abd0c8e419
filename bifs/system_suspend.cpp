// erts_internal:suspend_process/2 (behind erlang:suspend_process/1,2, which turn its atoms
// into errors) and erlang:resume_process/1 (OTP: erl_process.c). The work is in
// scheduler/suspend.cpp. A synchronous suspend returns once the target is not running, so
// it never hands erlang.erl a reference to wait on; {asynchronous, Tag} sends {Tag, State}
// to the caller, as erts' reply does.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "scheduler/suspend.hpp"
#include "vm/interp_support.hpp"
#include "vm/vm.hpp"

namespace beam {
namespace {

Term suspend_process_2(Process* p, const Term* a) {
    Term target = a[0];
    if (target == p->pid || !is_local_pid(target)) return am::badarg;  // never oneself
    bool unless_suspending = false, async = false;
    Term reply_tag = NON_VALUE;
    Term opts = a[1];
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (o == atom("unless_suspending")) unless_suspending = true;
        else if (o == atom("asynchronous")) async = true;
        else if (is_tuple(o) && tuple_arity(o) == 2 && tuple_elem(o, 0) == atom("asynchronous"))
            async = true, reply_tag = tuple_elem(o, 1);
        else return atom("badopt");
    }
    if (!is_nil(opts)) return atom("badopt");

    SuspendOutcome r = suspend_process(*p->vm, p, target, unless_suspending, !async);
    if (is_value(reply_tag)) {
        // erts answers a request to a process that is already gone with badarg (not the
        // documented `exited`, which it sends when the process exits before the request).
        Term state = r == SuspendOutcome::NoProcess ? am::badarg : atom("suspended");
        Term msg = make_tuple(*p, {reply_tag, state});
        if (is_non_value(send_message(p, p->pid, msg))) return NON_VALUE;
    }
    switch (r) {
    case SuspendOutcome::Suspended: return am::true_;
    case SuspendOutcome::AlreadySuspending: return am::false_;
    case SuspendOutcome::NoProcess: return async ? am::true_ : am::badarg;
    }
    return am::badarg;
}

Term resume_process_1(Process* p, const Term* a) {
    if (a[0] == p->pid || !is_local_pid(a[0])) return p->badarg();
    return resume_process(*p->vm, p, a[0]) ? am::true_ : p->badarg();
}

const BifSpec table[] = {
    {"erts_internal", "suspend_process", 2, &suspend_process_2},
    {"erlang", "resume_process", 1, &resume_process_1},
};

}  // namespace

std::span<const BifSpec> suspend_bifs() { return table; }

}  // namespace beam

// Spawning, shared by spawn/spawn_opt (bifs/system_processes.cpp) and spawn_request
// (bifs/system_spawn_request.cpp).
#pragma once

#include "bifs/system_heap_options.hpp"
#include "bifs/system_monitors.hpp"
#include "vm/gc_internal.hpp"
#include "vm/gc_options.hpp"
#include "vm/process.hpp"
#include "vm/system_flags.hpp"

namespace beam {

class Namespace;

struct SpawnOpts {
    bool link = false;
    bool monitor = false;
    MonitorOpts monitor_opts;  // {monitor, Opts}
    int prio = 2;
    // Unless given, the VM's defaults (erlang:system_flag/2, vm/system_flags.hpp).
    explicit SpawnOpts(VM& vm)
        : min_heap(system_flags(vm).min_heap_size.load(std::memory_order_relaxed)),
          max_heap(system_flags(vm).max_heap_size()),
          fullsweep_after(system_flags(vm).fullsweep_after.load(std::memory_order_relaxed)) {}
    size_t min_heap;  // rounded as OTP does
    MaxHeapSize max_heap;
    uint32_t fullsweep_after;
    static SpawnOpts of(VM& vm, bool link, bool monitor) {
        SpawnOpts o(vm);
        o.link = link;
        o.monitor = monitor;
        return o;
    }
    bool message_queue_off_heap = false;
    int scheduler = 0;  // {scheduler, N}: bound to scheduler N (1-based) as process_flag(scheduler, N); 0 any
    Namespace* ns = nullptr;  // where the child runs: the parent's unless beamvm:namespace_spawn
    // spawn_request only: {reply_tag, Tag}, {reply, yes | no | error_only | success_only}.
    Term reply_tag = NON_VALUE;
    // spawn_request by a seq_trace token holder: {M, F, Args, Opts} as the request was made,
    // for the reported spawn request (vm/seq_trace.hpp).
    Term request_call = NON_VALUE;
    bool reply_success = true;
    bool reply_error = true;
};

// As OTP's option parser: 0 when every option is good, -1 when one is not (badopt; the
// others are still read, so spawn_request knows its reply tag), 1 when `opts` is not a proper
// list. `request`: spawn_request's reply options are allowed.
int parse_spawn_opts(Term opts, SpawnOpts* o, bool request);

// The spawn itself: Pid, or {Pid, MonitorRef} with a monitor, or badarg for bad M, F, Args.
// `req_ref`, when given, is the monitor's reference (spawn_request's ReqId).
Term spawn_mfa(Process* p, Term m, Term f, Term args, const SpawnOpts& o, Term req_ref = NON_VALUE);

}  // namespace beam

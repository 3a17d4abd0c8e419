// What spawning needs from the monitor BIFs (bifs/system_monitors.cpp): monitor/3's options,
// which spawn_opt/spawn_request's {monitor, Opts} take too.
#pragma once

#include "scheduler/process_sched.hpp"
#include "vm/process.hpp"

namespace beam {

struct MonitorOpts {
    bool alias = false;
    AliasKind alias_kind = AliasKind::Explicit;
    Term tag = NON_VALUE;  // {tag, Tag}; NON_VALUE: 'DOWN'
};

// [{alias, explicit_unalias | demonitor | reply_demonitor} | {tag, Tag}]; false on anything
// else (OTP's badopt).
bool parse_monitor_opts(Term opts, MonitorOpts* o);

// The monitoring side of a new monitor `m` (reference number `ref`) of `p`: its tag and its
// alias. The caller then adds `m` to p's monitors.
void apply_monitor_opts(Process* p, MonitorEntry& m, uint64_t ref, const MonitorOpts& o);

// monitor(port, Port | Name, Opts) (bifs/system_ports.cpp).
Term monitor_port(Process* p, Term target, const MonitorOpts& opts);

}  // namespace beam

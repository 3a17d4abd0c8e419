// Purging old code and check_process_code (design notes §5; OTP: erts_code_purger and
// erts_internal:check_process_code).
//
// Every other process is looked at while it is not running: the purger borrows it from the
// schedulers (scheduler/Schedulers::borrow), takes in its pending signals (messages in flight
// may carry funs), and scans what it can reach (vm/code_use.hpp). A process using the old
// version is killed (hard purge) or makes the purge refuse (soft purge); one that only holds
// literals of it gets them copied onto its heap by a collection. Then the version's memory
// (code, literals, fun entries) is freed.
//
// The caller is looked at in place: these functions run inside a BIF, where only x0..x(live-1)
// are live and the interpreter reloads its heap and stack registers after the call, so the
// caller can be collected too.
#pragma once

#include <memory>

#include "vm/code_table.hpp"
#include "vm/process.hpp"

namespace beam {

enum class PurgeMode {
    Hard,  // kill processes using the old version (erlang:purge_module, code:purge)
    Soft,  // refuse if any process uses it (code:soft_purge)
};

struct PurgeResult {
    bool had_old = false;  // there was old code to purge
    bool purged = false;   // it is gone (false when refused)
    bool killed = false;   // a process was killed for using it (code:purge's result)
};

PurgeResult purge_old_code(Process* self, Term* x, unsigned live, Namespace& ns, Term module, PurgeMode mode);

// Purges a version that never became current or old (an on_load function failed): its users
// are killed, and its memory freed.
void purge_version(Process* self, Term* x, unsigned live, std::unique_ptr<ModuleCode> version);

// erlang:check_process_code/2: does `pid` use the old version of `module` in the caller's
// namespace? False if there is no old version or no such process.
bool check_process_code(Process* self, Term* x, unsigned live, Term pid, Term module);

}  // namespace beam

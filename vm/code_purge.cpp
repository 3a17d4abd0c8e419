#include "vm/code_purge.hpp"

#include "scheduler/borrowed_visit.hpp"
#include "vm/code_use.hpp"
#include "vm/gc.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

enum class Verdict { Unused, Used, Gone, Unreachable };

// Looks at `q` (not the caller) while it is borrowed; on use, kills it when `kill` is set.
// With `copy_literals` (a purge, not a mere check), literals of `old` it holds are copied.
// One executing a dirty NIF cannot be looked at (erts kills one that holds the code at once).
Verdict visit_other(VM& vm, Process* q, const ModuleCode& old, bool kill, bool copy_literals) {
    bool used = false;
    Visit v = visit_borrowed(vm, q, [&](Process* b) -> Term {
        CodeUse use = scan_code_use(b, old, b->saved_x.data(), b->arity);
        used = use.uses();
        if (used && kill) return am::killed;
        if (copy_literals && !used && use.literals)
            garbage_collect_literals(b, b->saved_x.data(), b->arity, old.literals);
        return NON_VALUE;
    });
    if (v == Visit::Gone) return Verdict::Gone;
    if (v == Visit::Unreachable) return Verdict::Unreachable;
    return used ? Verdict::Used : Verdict::Unused;
}

struct Sweep {
    bool used = false;         // someone uses the version (soft: the sweep stopped there)
    bool keep_memory = false;  // someone may still run it: never free it
};

// Looks at every process for `v`. Hard: users are killed. Soft: stops at the first user.
// Processes that only hold literals of `v` get them copied (also in a sweep that then stops).
Sweep sweep(Process* self, Term* x, unsigned live, const ModuleCode& v, bool hard) {
    Sweep r;
    VM& vm = *self->vm;
    // The caller first: a soft purge refuses at once; a hard one kills it (as OTP's purger
    // process would) once this BIF returns, so its code memory stays: it is still on it.
    CodeUse mine = scan_code_use(self, v, x, live);
    if (mine.uses()) {
        r.used = true;
        if (!hard) return r;
        r.keep_memory = true;
        send_exit_signal(vm, self->pid, self->pid, am::kill, false);
    } else if (mine.literals) {
        garbage_collect_literals(self, x, live, v.literals);
    }
    for (Term pid : vm.procs.pids()) {
        if (pid == self->pid) continue;
        Process* q = vm.procs.lookup(pid);
        if (!q) continue;
        Verdict verdict = visit_other(vm, q, v, hard, true);
        ProcessTable::release(q);
        if (verdict == Verdict::Used) {
            r.used = true;
            if (!hard) return r;
        }
        // A process that could not be looked at may still hold the code: keep its memory.
        if (verdict == Verdict::Unreachable) r.keep_memory = true;
    }
    return r;
}

}  // namespace

PurgeResult purge_old_code(Process* self, Term* x, unsigned live, Namespace& ns, Term module, PurgeMode mode) {
    PurgeResult r;
    ModuleCode* old = ns.begin_purge(module);
    if (!old) return r;
    r.had_old = true;
    VM& vm = *self->vm;
    if (mode == PurgeMode::Soft && sweep(self, x, live, *old, false).used) {
        ns.end_purge(module, false);
        return r;
    }
    // From here on a call of one of its funs finds no code (badfun, as OTP); a process that
    // still enters it through a fun called just before is on it when the sweep looks.
    vm.detach_funs(*old);
    Sweep s = sweep(self, x, live, *old, true);
    r.purged = true;
    r.killed = s.used;
    vm.retire_code(ns.end_purge(module, true), s.keep_memory);
    return r;
}

void purge_version(Process* self, Term* x, unsigned live, std::unique_ptr<ModuleCode> version) {
    if (!version) return;
    self->vm->detach_funs(*version);
    Sweep s = sweep(self, x, live, *version, true);
    self->vm->retire_code(std::move(version), s.keep_memory);
}

bool check_process_code(Process* self, Term* x, unsigned live, Term pid, Term module) {
    ModuleCode* old = self->ns->old_version(module);
    if (!old) return false;
    if (pid == self->pid) return scan_code_use(self, *old, x, live).uses();
    VM& vm = *self->vm;
    Process* q = vm.procs.lookup(pid);
    if (!q) return false;
    Verdict v = visit_other(vm, q, *old, false, false);
    ProcessTable::release(q);
    return v == Verdict::Used || v == Verdict::Unreachable;
}

}  // namespace beam

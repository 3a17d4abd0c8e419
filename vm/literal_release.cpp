#include "vm/literal_release.hpp"

#include <mutex>

#include "scheduler/borrowed_visit.hpp"
#include "vm/code_use.hpp"
#include "vm/gc.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

void release_one(Process* self, Term* x, unsigned live, std::unique_ptr<LiteralArea> area) {
    VM& vm = *self->vm;
    if (holds_literals(self, *area, x, live)) garbage_collect_literals(self, x, live, *area);
    bool all = true;
    if (vm.scheds) {
        for (Term pid : vm.procs.pids()) {
            if (pid == self->pid) continue;
            Process* q = vm.procs.lookup(pid);
            if (!q) continue;
            Visit v = visit_borrowed(vm, q, [&](Process* b) -> Term {
                if (holds_literals(b, *area, b->saved_x.data(), b->arity))
                    garbage_collect_literals(b, b->saved_x.data(), b->arity, *area);
                return NON_VALUE;
            });
            all = all && v != Visit::Unreachable;
            ProcessTable::release(q);
        }
    }
    if (all) return;  // `area` is freed here
    std::unique_lock lock(vm.persistent.mutex);
    vm.persistent.retained.push_back(std::move(area));
}

}  // namespace

void release_literal_area(Process* self, Term* x, unsigned live, std::unique_ptr<LiteralArea> area) {
    if (!area) return;
    PersistentTerms& s = self->vm->persistent;
    {
        std::unique_lock lock(s.mutex);
        if (s.releasing) {  // another process is looking at every process: this one is kept
            s.retained.push_back(std::move(area));
            return;
        }
        s.releasing = true;
    }
    release_one(self, x, live, std::move(area));
    std::unique_lock lock(s.mutex);
    s.releasing = false;
}

}  // namespace beam

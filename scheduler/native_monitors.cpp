#include "scheduler/native_monitors.hpp"

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

#include "scheduler/process_table.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

uint64_t native_monitor(VM& vm, Term pid, std::shared_ptr<ExitWatcher> w) {
    if (!is_local_pid(pid)) return 0;
    Process* p = vm.procs.lookup(pid);
    if (!p) return 0;
    uint64_t id = 0;
    {
        std::lock_guard lock(p->sched.info_mutex);
        if (!p->sched.native_monitors_fired) {
            // From the reference counter: ids order with monitor references by age
            // (process_info(P, monitored_by) lists both newest first, as erl).
            id = next_ref_number();
            auto& v = p->sched.native_monitors;
            if (!v) v = std::make_unique<std::vector<std::pair<uint64_t, std::shared_ptr<ExitWatcher>>>>();
            v->emplace_back(id, std::move(w));
        }
    }
    ProcessTable::release(p);
    return id;
}

void native_demonitor(VM& vm, Term pid, uint64_t id) {
    if (id == 0 || !is_local_pid(pid)) return;
    Process* p = vm.procs.lookup(pid);
    if (!p) return;
    std::shared_ptr<ExitWatcher> dropped;  // released after the lock: its destructor may do work
    {
        std::lock_guard lock(p->sched.info_mutex);
        auto* v = p->sched.native_monitors.get();
        for (size_t i = 0; v && i < v->size(); ++i) {
            if ((*v)[i].first == id) {
                dropped = std::move((*v)[i].second);
                (*v)[i] = std::move(v->back());
                v->pop_back();
                break;
            }
        }
    }
    ProcessTable::release(p);
}

namespace {
thread_local Term tls_exit_reason = NIL;
}

Term native_exit_reason() { return tls_exit_reason; }

void fire_native_monitors(Process* p, Term reason) {
    std::vector<std::pair<uint64_t, std::shared_ptr<ExitWatcher>>> watches;
    {
        std::lock_guard lock(p->sched.info_mutex);
        p->sched.native_monitors_fired = true;
        if (p->sched.native_monitors) watches.swap(*p->sched.native_monitors);
    }
    Term prev = tls_exit_reason;
    tls_exit_reason = reason;
    for (auto& [id, w] : watches) w->on_exit(p->pid, id);
    tls_exit_reason = prev;
}

}  // namespace beam

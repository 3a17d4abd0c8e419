#include "crashdump/break_info.hpp"

#include <algorithm>

#include "crashdump/dump_output.hpp"
#include "crashdump/dump_sections.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/scheduler.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beam::crashdump {

namespace {

DumpOutput terminal(std::FILE* f) { return DumpOutput(f, UINT64_MAX, DumpPurpose::BreakMenu); }

std::vector<Term> pids_in_order(VM& vm) {
    std::vector<Term> pids = vm.procs.pids();
    std::sort(pids.begin(), pids.end(), [](Term a, Term b) { return local_pid_number(a) < local_pid_number(b); });
    return pids;
}

bool print_one(DumpOutput& out, VM& vm, Term pid) {
    Process* p = vm.procs.lookup(pid);
    if (!p) return false;
    using namespace run_state;
    uint32_t flags = p->sched.state.load(std::memory_order_acquire);
    bool dirty = p->sched.dirty.load(std::memory_order_acquire) != dirty_kind::NONE;
    // Schedulers::borrow waits for the end of its time slice and fails on an exited process.
    bool stopped = !dirty && vm.scheds && vm.scheds->borrow(p);
    if (stopped) flags = p->sched.state.load(std::memory_order_acquire) & ~RUNNING;
    write_process_info(out, vm, {p, flags, stopped, false});
    if (stopped) vm.scheds->give_back(p, false);  // signals that came meanwhile wake it there
    ProcessTable::release(p);
    return true;
}

}  // namespace

void print_processes(VM& vm, std::FILE* f) {
    DumpOutput out = terminal(f);
    for (Term pid : pids_in_order(vm)) print_one(out, vm, pid);
    if (vm.ports_started.load(std::memory_order_acquire)) write_ports(out, vm);
}

void print_ports(VM& vm, std::FILE* f) {
    DumpOutput out = terminal(f);
    if (vm.ports_started.load(std::memory_order_acquire)) write_ports(out, vm);
}

void print_system_info(VM& vm, std::FILE* f) {
    DumpOutput out = terminal(f);
    write_memory(out, vm);
    write_tables_summary(out, vm);
}

void print_loaded(VM& vm, std::FILE* f) {
    DumpOutput out = terminal(f);
    write_loaded(out, vm);
}

void print_ets_tables(VM& vm, std::FILE* f) {
    DumpOutput out = terminal(f);
    write_ets(out, vm);
}

void print_distribution(VM& vm, std::FILE* f) {
    DumpOutput out = terminal(f);
    write_node(out, vm);
}

std::vector<Term> processes_newest_first(VM& vm) {
    std::vector<Term> pids = pids_in_order(vm);
    std::reverse(pids.begin(), pids.end());
    return pids;
}

bool print_process(VM& vm, std::FILE* f, Term pid) {
    DumpOutput out = terminal(f);
    return print_one(out, vm, pid);
}

}  // namespace beam::crashdump

// The sections of erl_crash.dump, each written by one function, in the order erts writes
// them (erts/emulator/beam/break.c, erl_crash_dump_v). Shared by crashdump/*.cpp only.
#pragma once

#include <string>
#include <vector>

#include "crashdump/dump_output.hpp"
#include "vm/term.hpp"

namespace beam {
class VM;
class Process;
}

namespace beam::crashdump {

// A process as the dump sees it. `stopped`: the dump holds its RUNNING bit (as process_info
// borrows a process, scheduler/scheduler.cpp), so no scheduler runs it while its heap is
// read, and none ever will again: the OS process ends after the dump. A process that stays
// running past the wait (a long native call, a dirty NIF) is written as erts writes one
// running on another scheduler: "State: Running", without its heap and stack.
struct DumpedProcess {
    Process* p;
    uint32_t flags;     // its run_state flags before the dump took it
    bool stopped;
    bool caller;        // the process that called halt/1: "Running", as in erts
};

std::vector<DumpedProcess> stop_processes(VM& vm, Term caller);

// The header's Taints: the modules that loaded a NIF library, comma-separated (erts lists
// them in load order; beamvm in module-table order).
std::string nif_taints(VM& vm);

void write_schedulers(DumpOutput& out, VM& vm, const std::vector<DumpedProcess>& procs, int calling_scheduler);
void write_memory(DumpOutput& out, VM& vm);
void write_tables_summary(DumpOutput& out, VM& vm);  // =index_table
void write_process_summaries(DumpOutput& out, VM& vm, const std::vector<DumpedProcess>& procs);  // =proc
// One process's =proc section; on the terminal (out.crash_dumping() false) in the break
// menu's form, with its message queue, dictionary and stack.
void write_process_info(DumpOutput& out, VM& vm, const DumpedProcess& d);
void write_ports(DumpOutput& out, VM& vm);
void write_ets(DumpOutput& out, VM& vm);  // on the terminal with each hash bucket's objects, as erl's (D)b-tables
void write_node(DumpOutput& out, VM& vm);
void write_modules(DumpOutput& out, VM& vm);  // =loaded_modules, =mod, =fun
// erts' loaded(): the code totals, then each module (a =mod section in a dump, one line
// "name size" on the terminal, as the break menu's (l)oaded).
void write_loaded(DumpOutput& out, VM& vm);
class HeapWriter;
// A stopped process's stack, frame by frame; its terms go to `heap` as roots when given.
void write_stack(DumpOutput& out, VM& vm, Process* p, HeapWriter* heap);
void write_process_memory(DumpOutput& out, VM& vm, const std::vector<DumpedProcess>& procs);  // =proc_* details
void write_persistent_terms(DumpOutput& out, VM& vm);  // =persistent_terms, =literals
void write_atoms(DumpOutput& out);

// "<0.N.S>", "#Port<0.N>", as erts prints ids in the dump.
std::string id_text(Term id);

}  // namespace beam::crashdump

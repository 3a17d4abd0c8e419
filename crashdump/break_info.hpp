// What the break menu (^C, io/tty/break_menu.cpp) prints for its answers, in erts' section
// format (erts/emulator/beam/break.c): the crash dump's own printers (crashdump/dump_*.cpp)
// writing to the terminal. Unlike a crash dump, the system runs on meanwhile: each process
// is borrowed from the schedulers while it is printed (as process_info reads one) and given
// back, and a process that stays busy is shown as "Running" without its heap.
#pragma once

#include <cstdio>
#include <vector>

#include "vm/term.hpp"

namespace beam {
class VM;
}

namespace beam::crashdump {

void print_processes(VM& vm, std::FILE* f);     // (p)roc info: every process, then every port
void print_ports(VM& vm, std::FILE* f);         // o: every port (erl answers it, unlisted)
void print_system_info(VM& vm, std::FILE* f);   // (i)nfo: memory and the index tables
void print_loaded(VM& vm, std::FILE* f);        // (l)oaded: code sizes, one module a line
void print_ets_tables(VM& vm, std::FILE* f);          // (D)b-tables: every table with its objects
void print_distribution(VM& vm, std::FILE* f);  // (d)istribution: this node, its connections

// (k)ill walks the processes newest first (erts walks its process table from the top).
std::vector<Term> processes_newest_first(VM& vm);
// One process's section; false if it has gone meanwhile.
bool print_process(VM& vm, std::FILE* f, Term pid);

}  // namespace beam::crashdump

// erl_crash.dump: what erl writes when it halts with a slogan (erlang:halt/1,2 with a
// string) or dies of a fatal error, in erts' section format (=erl_crash_dump:0.5), so that
// OTP's crashdump_viewer reads it. docs/crash_dump.md lists the sections and what beamvm
// writes in place of what it does not have.
//
// How it stays safe: the dump is written by the thread that waits for the VM to halt
// (vm/runner.cpp), after Schedulers::halt has stopped the schedulers from taking new work.
// Each process is then taken as process_info takes one (its RUNNING bit), so no scheduler
// runs it again while its heap is read; one still running after a short wait (a long
// native call) is written as "Running" without its heap, as erts writes a process running
// on another scheduler. The OS process ends when the dump is written.
#pragma once

#include <string>

#include "vm/term.hpp"

namespace beam {

class VM;

// erlang:halt/1,2 with a string, from process `caller` on scheduler `scheduler` (1-based;
// 0 for another thread). The first request wins (erts dumps once).
void request_crash_dump(std::string slogan, Term caller, int scheduler);

// Where the VM's halt is waited for: if a dump was requested, writes it as erl does
// (ERL_CRASH_DUMP, ERL_CRASH_DUMP_SECONDS, ERL_CRASH_DUMP_BYTES, ERL_CRASH_DUMP_NICE; the
// lines on stderr) and ends the OS process with status 1. Returns if none was requested.
void finish_requested_crash_dump(VM& vm);

// Writes a dump now with `slogan` (a fatal error's text), honouring the same variables.
// `caller`: the process to show as running, or NIL.
void write_crash_dump(VM& vm, const std::string& slogan, Term caller, int scheduler);

// Makes vm/fatal_error.hpp's fatal_error write a dump of `vm` (from the failing thread: its
// own process, RUNNING there, is written as "Running" after the stop wait).
void install_fatal_error_dump(VM& vm);

}  // namespace beam

// erl's emulator flags (`+X...`, erl's manual "Emulator Flags"): one table (emu_flags.cpp)
// says for each how its value is written, what a bad value gets (erl's message), and whether
// beamvm honours it or accepts and ignores it (docs/command_line.md lists the same).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "vm/emulator_options.hpp"

namespace beam {

class VM;

// What the emulator flags ask for, once parsed. Zero or empty: erl's default.
struct EmuFlags {
    int schedulers = 0, schedulers_online = 0;      // +S N:M (a value <= 0 counts from the cores)
    bool schedulers_given = false, online_given = false;
    int schedulers_pct = 100, online_pct = 100;     // +SP P:Q
    int dirty_cpu = 0, dirty_cpu_online = 0;        // +SDcpu N:M (<= 0 counts from the cores)
    bool dirty_cpu_given = false, dirty_cpu_online_given = false;
    int dirty_cpu_pct = 100, dirty_cpu_online_pct = 100;  // +SDPcpu P:Q
    int dirty_io = 0;                               // +SDio N
    std::string warning_map;                        // +W: "warning", "info" or "error"
    long min_heap = 0, min_bin_vheap = 0;           // +hms, +hmbs (words)
    long max_heap = -1;                             // +hmax (words; -1: not given)
    std::optional<bool> max_heap_kill, max_heap_error_logger;  // +hmaxk, +hmaxel
    bool print_version = false;                     // +V
    char filename_encoding = 'a';                   // +fn: 'u', 'l' or 'a' (the locale's)
    char break_handling = 0;                        // +B: 'c', 'd', 'i'; 0: the break menu
    int busy_wait = -1;                             // +sbwt: a BusyWait (scheduler/busy_wait.hpp); -1: default
    EmulatorOptions options;
};

// If args[i] is an emulator flag (it starts with '+'), parses it and its value (joined, as in
// +sbtu and +A1, or the next argument, as in +sbt u), advancing i past what it used.
// Returns erl's error message for an unknown flag or a bad value (the caller prints it with
// emu_flag_usage_exit); empty when fine. `program` names the emulator in "unknown flag".
std::string parse_emu_flag(const std::vector<std::string>& args, size_t& i, EmuFlags& out,
                           const std::string& program);

// The scheduler counts after every flag: erl's defaults, +S's negative forms and +SP's
// percentages applied. Returns an error message as erl's when they do not fit together.
struct SchedulerCounts {
    int schedulers, online, dirty_cpu, dirty_cpu_online, dirty_io;
};
std::string resolve_schedulers(const EmuFlags& f, SchedulerCounts* out);

// Sets what the flags ask for in `vm` and the VM-wide system flags (heap sizes).
void apply_emu_flags(const EmuFlags& f, VM& vm);

// Prints `message` and beamvm's usage line on stderr, exits 1 as erl's emulator does.
[[noreturn]] void emu_flag_usage_exit(const std::string& message);

// The line erl's +V prints: beamvm's, with the ERTS and OTP versions it emulates.
std::string emulator_version_line();

}  // namespace beam

// Starting a distributed node as erlexec (erts/etc/common/erlexec.c) does before the emulator
// runs: which flags make the node distributed, starting epmd, and -detached.
#pragma once

#include <string>

namespace beam {

// What erlexec reads from the command line for distribution. Every one of these flags (except
// -epmd, which erlexec consumes) is also passed on to init, where OTP's net_kernel, auth and
// erl_distribution read them.
struct NodeStartFlags {
    bool distributed = false;  // -sname or -name
    bool start_epmd = true;    // -start_epmd false / -no_epmd turn it off
    bool no_epmd = false;
    bool proto_dist = false;
    std::string epmd_program;  // -epmd PROG: the whole command erlexec runs instead
    bool detached = false;
};

// Notes the flag argv[i] (and its value) in `flags`. Returns an error text for a bad value.
std::string note_node_start_flag(NodeStartFlags& flags, int argc, char** argv, int i);

// erlexec's checks after the command line: -no_epmd needs -proto_dist. Empty when fine.
std::string check_node_start_flags(const NodeStartFlags& flags);

// Runs `"BINDIR/epmd" -daemon` (or the -epmd command) as erlexec does, through the shell, when
// the node is distributed and epmd is to be started. epmd -daemon returns at once; one that
// finds another epmd on its port exits quietly. Returns false when the shell could not run.
bool start_epmd_if_needed(const NodeStartFlags& flags, const std::string& erts_bindir);

// -detached: erlexec forks twice (the first child calls setsid) and the grandchild, with stdin,
// stdout and stderr on /dev/null, becomes the emulator; the command returns 0 at once. Must run
// before the VM starts any thread. Returns in the grandchild; the parents exit.
void detach_from_terminal();

// True when argv (before -extra) holds -detached.
bool wants_detached(int argc, char** argv);

}  // namespace beam

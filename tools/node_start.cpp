#include "tools/node_start.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace beam {

std::string note_node_start_flag(NodeStartFlags& flags, int argc, char** argv, int i) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "-sname" || a == "-name") {
        if (!has_value) return a + " needs a node name";
        flags.distributed = true;
    } else if (a == "-no_epmd") {
        flags.no_epmd = true;
        flags.start_epmd = false;
    } else if (a == "-proto_dist") {
        if (!has_value) return "-proto_dist needs a protocol module prefix";
        flags.proto_dist = true;
    } else if (a == "-start_epmd") {
        if (!has_value || (std::strcmp(argv[i + 1], "true") && std::strcmp(argv[i + 1], "false")))
            return "expected boolean argument for '-start_epmd'";
        flags.start_epmd = std::strcmp(argv[i + 1], "true") == 0;
    } else if (a == "-epmd") {
        if (!has_value) return "-epmd needs a command";
        flags.epmd_program = argv[i + 1];
    } else if (a == "-detached") {
        flags.detached = true;
    }
    return {};
}

std::string check_node_start_flags(const NodeStartFlags& flags) {
    // erlexec: the default protocol (inet_tcp) finds nodes through epmd.
    if (flags.no_epmd && !flags.proto_dist) return "missing -proto_dist option, expected when using -no_epmd";
    return {};
}

bool start_epmd_if_needed(const NodeStartFlags& flags, const std::string& erts_bindir) {
    // erlexec starts epmd for -sname/-name unless -no_epmd or -start_epmd false; it does not
    // look at -epmd_module (a node with its own epmd module still gets the daemon started).
    if (!flags.distributed || !flags.start_epmd) return true;
    std::string cmd = flags.epmd_program.empty() ? "\"" + erts_bindir + "/epmd\" -daemon" : flags.epmd_program;
    std::fflush(stdout);
    std::fflush(stderr);
    if (std::system(cmd.c_str()) == -1) {
        std::fprintf(stderr, "beamvm: error spawning %s\n", cmd.c_str());
        return false;
    }
    return true;
}

bool wants_detached(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "-extra") == 0) return false;
        if (std::strcmp(argv[i], "-detached") == 0) return true;
    }
    return false;
}

void detach_from_terminal() {
    std::fflush(stdout);
    std::fflush(stderr);
    if (fork() != 0) std::_Exit(0);  // erlexec's parent returns 0 (fork failure included)
    setsid();
    if (fork() != 0) std::_Exit(0);
    int in = open("/dev/null", O_RDONLY);
    int out = open("/dev/null", O_WRONLY);
    if (in >= 0) dup2(in, 0);
    if (out >= 0) {
        dup2(out, 1);
        dup2(out, 2);
    }
    if (in > 2) close(in);
    if (out > 2) close(out);
}

}  // namespace beam

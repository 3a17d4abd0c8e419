// Starting a port's child with posix_spawn: safe in a threaded process (no code of ours runs
// between fork and exec), every descriptor but the child's own pipes closed in the child
// (closefrom), signal mask and dispositions reset (beamvm ignores SIGPIPE; a child must not
// inherit that). The child is then held by a pidfd, so it can be signalled without the risk of
// reaching a process that reused its pid.
// Without pidfds (a kernel before 5.3; valgrind 3.19, which does not know pidfd_open, so
// that beamvm could not even boot under it: kernel's start spawns inet_gethost), the child is
// held by its pid. That is as safe for a child of ours: nothing else reaps it, and the pid of
// a child not yet reaped is never given to another process. The I/O thread then looks for its
// exit every few milliseconds (PortSystem::poll_pidless_children). BEAMVM_PORT_NO_PIDFD=1 takes
// this path on any kernel (the tests run it).
#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "scheduler/port_system.hpp"
#include "vm/process.hpp"  // trace_flags_of, used by vm/trace.hpp's inline helpers

extern char** environ;

namespace beam {

namespace {

// The environment of the child: ours with {Name, Value} set and {Name, false} removed.
std::vector<std::string> child_environment(const PortSettings& s) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) env.emplace_back(*e);
    for (const auto& [name, value] : s.env) {
        std::string prefix = name + "=";
        std::erase_if(env, [&](const std::string& v) { return v.compare(0, prefix.size(), prefix) == 0; });
        if (value) env.push_back(prefix + *value);
    }
    return env;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
    std::vector<char*> out;
    for (auto& s : v) out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

// A pipe whose both ends sit above 9 and close on exec, so placing them at 0/1 or 3/4 in
// the child can never overwrite the other end.
bool high_pipe(int fds[2]) {
    int raw[2];
    if (pipe2(raw, O_CLOEXEC) != 0) return false;
    for (int i = 0; i < 2; ++i) {
        fds[i] = fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
        ::close(raw[i]);
    }
    if (fds[0] < 0 || fds[1] < 0) {
        if (fds[0] >= 0) ::close(fds[0]);
        if (fds[1] >= 0) ::close(fds[1]);
        return false;
    }
    return true;
}

}  // namespace

int spawn_child(const PortSettings& s, Port& port, Child& child) {
    int to[2] = {-1, -1}, from[2] = {-1, -1};
    auto fail = [&](int err) {
        for (int fd : {to[0], to[1], from[0], from[1]})
            if (fd >= 0) ::close(fd);
        return err;
    };
    if (s.out && !high_pipe(to)) return fail(errno);
    if (s.in && !high_pipe(from)) return fail(errno);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    int child_in = s.use_stdio ? 0 : 3, child_out = s.use_stdio ? 1 : 4;
    if (s.out) posix_spawn_file_actions_adddup2(&fa, to[0], child_in);
    if (s.in) posix_spawn_file_actions_adddup2(&fa, from[1], child_out);
    if (s.in && s.stderr_to_stdout) posix_spawn_file_actions_adddup2(&fa, from[1], 2);
    if (s.cd) posix_spawn_file_actions_addchdir_np(&fa, s.cd->c_str());
    posix_spawn_file_actions_addclosefrom_np(&fa, s.use_stdio ? 3 : 5);

    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> argv_s;
    std::string file;
    if (s.kind == PortSettings::Kind::Spawn) {
        file = "/bin/sh";
        argv_s = {"sh", "-c", "exec " + s.command};  // as erts' spawn driver
    } else {
        file = s.command;
        argv_s.push_back(s.arg0 ? *s.arg0 : s.command);
        for (const auto& a : s.args) argv_s.push_back(a);
    }
    std::vector<std::string> env_s = child_environment(s);
    std::vector<char*> argv = c_strings(argv_s), envp = c_strings(env_s);

    pid_t pid = 0;
    int err = posix_spawn(&pid, file.c_str(), &fa, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (err != 0) return fail(err);

    static const bool no_pidfd = std::getenv("BEAMVM_PORT_NO_PIDFD") != nullptr;
    int pidfd = no_pidfd ? -1 : static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    if (pidfd >= 0) fcntl(pidfd, F_SETFD, FD_CLOEXEC);
    if (s.out) {
        ::close(to[0]);
        port.to_child = to[1];
        fcntl(to[1], F_SETFL, fcntl(to[1], F_GETFL) | O_NONBLOCK);
    }
    if (s.in) {
        ::close(from[1]);
        port.from_child = from[0];
        fcntl(from[0], F_SETFL, fcntl(from[0], F_GETFL) | O_NONBLOCK);
    }
    child.os_pid = pid;
    child.pidfd = pidfd;
    return 0;
}

}  // namespace beam

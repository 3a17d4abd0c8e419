#include "scheduler/os_signals.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <mutex>
#include <thread>

#include "bifs/bif_util.hpp"
#include "crashdump/crash_dump.hpp"
#include "scheduler/scheduler.hpp"
#include "scheduler/signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

struct Named {
    const char* name;
    int signo;
};
constexpr Named settable[] = {
    {"sighup", SIGHUP},   {"sigquit", SIGQUIT}, {"sigabrt", SIGABRT}, {"sigalrm", SIGALRM},
    {"sigterm", SIGTERM}, {"sigusr1", SIGUSR1}, {"sigusr2", SIGUSR2}, {"sigchld", SIGCHLD},
    {"sigstop", SIGSTOP}, {"sigtstp", SIGTSTP},
};

// One forwarder for the OS process: the handler writes the signal number to a pipe (all it
// may safely do), a thread reads it and posts the message.
struct Forwarder {
    std::mutex mutex;          // guards `handler_vm` against VM teardown while posting
    VM* handler_vm[NSIG] = {};
    VM* dump_vm = nullptr;     // dump_on_sigusr1's
    int pipe_fds[2] = {-1, -1};
    std::once_flag started;
};

Forwarder& forwarder() {
    static Forwarder* f = new Forwarder;  // never destroyed: the thread may outlive main's objects
    return *f;
}

void on_signal(int signo) {
    int saved = errno;
    unsigned char b = static_cast<unsigned char>(signo);
    [[maybe_unused]] ssize_t n = ::write(forwarder().pipe_fds[1], &b, 1);
    errno = saved;
}

const char* signal_name(int signo) {
    for (const Named& n : settable)
        if (n.signo == signo) return n.name;
    return nullptr;
}

void forward_loop() {
    Forwarder& f = forwarder();
    for (;;) {
        unsigned char b;
        ssize_t n = ::read(f.pipe_fds[0], &b, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        std::lock_guard lock(f.mutex);
        VM* vm = f.handler_vm[b];
        if (b == SIGUSR1 && !vm && f.dump_vm && f.dump_vm->scheds) {
            // As erts: the slogan on stderr, the dump written by the thread that waits for
            // the halt (crashdump/crash_dump.hpp), exit status 1.
            std::fprintf(stderr, "Received SIGUSR1\r\n");
            request_crash_dump("Received SIGUSR1", NIL, 0);
            f.dump_vm->scheds->halt(1);
            continue;
        }
        const char* name = signal_name(b);
        if (!vm || !name) continue;
        Term server = vm->procs.whereis(&vm->root(), atom("erl_signal_server"));
        if (!is_local_pid(server)) continue;
        LiteralArea scratch;
        post_message(*vm, server, make_tuple(scratch, {atom("notify"), atom(name)}));
    }
}

void start_forwarder() {
    Forwarder& f = forwarder();
    if (::pipe2(f.pipe_fds, O_CLOEXEC) != 0) return;
    std::thread(forward_loop).detach();
}

}  // namespace

int signal_number(std::string_view name) {
    for (const Named& n : settable)
        if (name == n.name) return n.signo;
    return 0;
}

void set_os_signal(VM* vm, int signo, SignalDisposition d) {
    Forwarder& f = forwarder();
    struct sigaction sa {};
    sigemptyset(&sa.sa_mask);
    bool dumps;
    {
        std::lock_guard lock(f.mutex);
        dumps = signo == SIGUSR1 && f.dump_vm == vm;
    }
    if (d == SignalDisposition::Handle || (d == SignalDisposition::Default && dumps)) {
        std::call_once(f.started, start_forwarder);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESTART;
    } else {
        sa.sa_handler = d == SignalDisposition::Ignore ? SIG_IGN : SIG_DFL;
    }
    {
        std::lock_guard lock(f.mutex);
        f.handler_vm[signo] = d == SignalDisposition::Handle ? vm : nullptr;
    }
    ::sigaction(signo, &sa, nullptr);  // fails for SIGSTOP, which erl accepts all the same
}

void forget_os_signals(VM* vm) {
    Forwarder& f = forwarder();
    std::lock_guard lock(f.mutex);
    for (VM*& v : f.handler_vm)
        if (v == vm) v = nullptr;
    if (f.dump_vm == vm) f.dump_vm = nullptr;
}

void dump_on_sigusr1(VM* vm) {
    Forwarder& f = forwarder();
    std::call_once(f.started, start_forwarder);
    {
        std::lock_guard lock(f.mutex);
        f.dump_vm = vm;
    }
    struct sigaction sa {};
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGUSR1, &sa, nullptr);
}

}  // namespace beam

// The break handler (io/tty/break_menu.hpp). SIGINT's handler only writes a byte to a pipe;
// a thread of its own, asleep on that pipe until then, runs the menu. The menu blocks on the
// user's answer, which must not hold up the poller or a scheduler: erts stops the whole
// system for it, beamvm lets processes run on and only takes the terminal's input away from
// tty_sl meanwhile.
#include "io/tty/break_menu.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

#include "crashdump/break_info.hpp"
#include "crashdump/crash_dump.hpp"
#include "io/tty/terminal_mode.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/signals.hpp"
#include "vm/atom_table.hpp"
#include "vm/otp_version.hpp"
#include "vm/vm.hpp"

namespace beam::tty {

namespace {

constexpr const char* kHelp =
    "BREAK: (a)bort (A)bort with dump (c)ontinue (p)roc info (i)nfo\n"
    "       (l)oaded (v)ersion (k)ill (D)b-tables (d)istribution\n";

int wake_pipe[2] = {-1, -1};
std::atomic<bool> in_break{false};
VM* break_vm = nullptr;

// tty_sl's parked input (park_tty_input).
std::mutex parked_mu;
VM* parked_vm = nullptr;
IoHandle parked_handle = 0;
uint32_t parked_events = 0;

void on_sigint(int) {
    int saved = errno;
    if (wake_pipe[1] >= 0) [[maybe_unused]] ssize_t n = ::write(wake_pipe[1], "b", 1);
    errno = saved;
}

void say(const std::string& s) {
    for (size_t done = 0; done < s.size();) {
        ssize_t n = ::write(1, s.data() + done, s.size() - done);
        if (n <= 0 && errno != EINTR && errno != EAGAIN) return;
        if (n > 0) done += size_t(n);
    }
}

// The answer: the first byte of what one read gives (erts' sys_get_key); 0 at end of input.
int read_key() {
    char buf[64];
    for (;;) {
        pollfd p{0, POLLIN, 0};
        if (::poll(&p, 1, -1) < 0 && errno == EINTR) continue;
        ssize_t n = ::read(0, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        return n <= 0 ? 0 : static_cast<unsigned char>(buf[0]);
    }
}

[[noreturn]] void abort_vm(int status) {
    restore_initial_mode();
    std::fflush(nullptr);
    std::_Exit(status);
}

// Prints what `print` writes to stdout, then hands the terminal back to say().
template <class F>
void print_section(F&& print) {
    print(stdout);
    std::fflush(stdout);
}

// (k)ill: each process, newest first, with the choice to kill it (an exit signal `kill`
// from init, as erts sends it), go on to the next or return to the system.
void process_killer(VM& vm) {
    say("\n\nProcess Information\n\n--------------------------------------------------\n");
    for (Term pid : crashdump::processes_newest_first(vm)) {
        bool shown = false;
        print_section([&](std::FILE* f) { shown = crashdump::print_process(vm, f, pid); });
        if (!shown) continue;  // it ended meanwhile
        say("(k)ill (n)ext (r)eturn:\n");
        int key = read_key();
        if (key == 0) abort_vm(0);
        if (key == 'k') send_exit_signal(vm, vm.procs.whereis(&vm.root(), atom("init")), pid, am::kill, false);
        else if (key != 'n') return;
    }
}

// One pass of the menu: returns when the user continues.
void do_break(VM& vm) {
    say(std::string("\n") + kHelp);
    for (;;) {
        int key = read_key();
        switch (key) {
        case 0:
        case 'a':
        case 'q':
        case '*': abort_vm(0);
        case 'A':  // as erts: a crash dump with this slogan, then exit status 1
            restore_initial_mode();
            std::fprintf(stderr, "Crash dump requested by user\r\n");
            write_crash_dump(vm, "Crash dump requested by user", NIL, 0);
            abort_vm(1);
        case 'c':
        case 'm': return;
        case 'v': say(std::string("Erlang (BEAM) emulator version ") + ERTS_VERSION + "\n"); return;
        // Each of these prints and then lets the system continue, as erl does.
        case 'p': print_section([&](std::FILE* f) { crashdump::print_processes(vm, f); }); return;
        case 'o': print_section([&](std::FILE* f) { crashdump::print_ports(vm, f); }); return;
        case 'i': print_section([&](std::FILE* f) { crashdump::print_system_info(vm, f); }); return;
        case 'l': print_section([&](std::FILE* f) { crashdump::print_loaded(vm, f); }); return;
        case 'd': print_section([&](std::FILE* f) { crashdump::print_distribution(vm, f); }); return;
        case 'D': print_section([&](std::FILE* f) { crashdump::print_ets_tables(vm, f); }); return;
        case 'k': process_killer(vm); return;
        case '\n': continue;
        default:
            say(std::string("Invalid option '") + char(key) + "'. Please enter one of the following:\n" + kHelp);
        }
    }
}

void break_loop() {
    for (;;) {
        char b;
        ssize_t n = ::read(wake_pipe[0], &b, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        in_break = true;
        int flags = ::fcntl(0, F_GETFL);
        ::fcntl(0, F_SETFL, flags & ~O_NONBLOCK);
        suspend_driver_mode();
        do_break(*break_vm);
        resume_driver_mode();
        ::fcntl(0, F_SETFL, flags);
        in_break = false;
        std::lock_guard lock(parked_mu);
        if (parked_vm) ports_of(*parked_vm).arm_watcher(parked_handle, parked_events);
        parked_vm = nullptr;
    }
}

}  // namespace

bool break_in_progress() { return in_break.load(); }

void park_tty_input(VM* vm, IoHandle h, uint32_t rearm_events) {
    std::lock_guard lock(parked_mu);
    parked_vm = vm;
    parked_handle = h;
    parked_events = rearm_events;
    // The menu may have ended between the driver's check and now: re-arm at once.
    if (vm && !in_break) {
        ports_of(*vm).arm_watcher(h, rearm_events);
        parked_vm = nullptr;
    }
}

void install_break_handler(VM& vm, BreakMode mode) {
    remember_initial_mode();
    if (mode == BreakMode::Disabled) return;  // SIGINT keeps its default action
    if (mode == BreakMode::Ignored) {
        ::signal(SIGINT, SIG_IGN);
        ::signal(SIGQUIT, SIG_IGN);
        ::signal(SIGTSTP, SIG_IGN);
        return;
    }
    if (mode == BreakMode::ToShell) disable_interrupt_key();
    if (wake_pipe[0] >= 0 || ::pipe2(wake_pipe, O_CLOEXEC) != 0) return;
    break_vm = &vm;
    std::thread(break_loop).detach();
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
}

}  // namespace beam::tty

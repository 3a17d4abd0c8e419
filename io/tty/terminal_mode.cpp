// Terminal modes (io/tty/terminal_mode.hpp). The state is process-wide, as the terminal is:
// one VM per OS process owns fd 0's modes, as erts does.
#include "io/tty/terminal_mode.hpp"

#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace beam::tty {

namespace {

struct termios initial_mode;     // fd 0 at start-up
struct termios before_driver;    // the driver's fd before it went raw
struct termios driver_mode;      // what the driver set
std::atomic<bool> have_initial{false};
std::atomic<int> driver_fd{-1};  // -1: no driver owns the terminal
std::atomic<bool> winch{false};
std::once_flag installed;

// Fatal signals: put the terminal back, then let the signal do what it did before (the
// previous disposition is restored and the signal raised again, so a core dump or another
// handler still happens).
constexpr int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction previous[NSIG];

void on_fatal(int sig) {
    restore_initial_mode();
    ::sigaction(sig, &previous[sig], nullptr);
    ::raise(sig);
}

// As erts' cont(): after ^Z and `fg` the shell has put its own mode back; ours again.
void on_cont(int) {
    int fd = driver_fd.load();
    if (fd >= 0) ::tcsetattr(fd, TCSANOW, &driver_mode);
}

void on_winch(int) { winch = true; }

void install_handlers() {
    std::atexit(restore_initial_mode);
    std::at_quick_exit(restore_initial_mode);
    for (int sig : fatal_signals) {
        struct sigaction sa {};
        sa.sa_handler = on_fatal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(sig, &sa, &previous[sig]);
        // Someone else's handler stays: it is theirs to restore the terminal or not.
        if (previous[sig].sa_handler != SIG_DFL) ::sigaction(sig, &previous[sig], nullptr);
    }
    struct sigaction sa {};
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_cont;
    ::sigaction(SIGCONT, &sa, nullptr);
    sa.sa_handler = on_winch;
    ::sigaction(SIGWINCH, &sa, nullptr);
}

}  // namespace

void remember_initial_mode() {
    std::call_once(installed, [] {
        if (::isatty(0) && ::tcgetattr(0, &initial_mode) == 0) have_initial = true;
        install_handlers();
    });
}

void restore_initial_mode() {
    if (have_initial) ::tcsetattr(0, TCSANOW, &initial_mode);
}

bool enter_driver_mode(int fd, int canon, int echo, int sig) {
    remember_initial_mode();
    struct termios m;
    if (::tcgetattr(fd, &m) != 0) return false;
    before_driver = m;
    m.c_iflag &= ~ISTRIP;
    if (canon > 0) {
        m.c_iflag |= ICRNL;
        m.c_lflag |= ICANON;
        m.c_oflag |= OPOST;
    } else if (canon < 0) {
        // Raw input, one byte at a time; output untranslated (the driver sends \r\n itself).
        m.c_iflag &= ~ICRNL;
        m.c_lflag &= ~ICANON;
        m.c_oflag &= ~OPOST;
        m.c_cc[VMIN] = 1;
        m.c_cc[VTIME] = 0;
    }
    if (echo > 0) m.c_lflag |= ECHO;
    if (echo < 0) m.c_lflag &= ~ECHO;
    if (sig > 0) {
        m.c_iflag |= BRKINT | IGNPAR | ICRNL | IXON | IXANY;
        m.c_lflag |= ISIG | IEXTEN;
    } else if (sig < 0) {
        m.c_iflag &= ~(BRKINT | IGNPAR | ICRNL | IXON | IXANY);
        m.c_lflag &= ~(ISIG | IEXTEN);
    }
    if (::tcsetattr(fd, TCSANOW, &m) != 0) return false;
    driver_mode = m;
    driver_fd = fd;
    return true;
}

void leave_driver_mode(int fd) {
    if (driver_fd.exchange(-1) == fd) ::tcsetattr(fd, TCSANOW, &before_driver);
}

void suspend_driver_mode() {
    // The break menu reads a line as the user's shell would (erts: the initial mode).
    if (have_initial) ::tcsetattr(0, TCSANOW, &initial_mode);
}

void resume_driver_mode() {
    int fd = driver_fd.load();
    if (fd >= 0) ::tcsetattr(fd, TCSANOW, &driver_mode);
}

void disable_interrupt_key() {
    remember_initial_mode();
    struct termios m;
    if (!::isatty(0) || ::tcgetattr(0, &m) != 0) return;
    m.c_cc[VINTR] = 0;
    ::tcsetattr(0, TCSANOW, &m);
}

bool window_changed() { return winch.exchange(false); }

}  // namespace beam::tty

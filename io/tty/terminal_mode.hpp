// The terminal's modes for the VM: what it was when the VM started, the raw mode tty_sl puts
// it in, and putting it back on every way out (halt, exit, a fatal signal), as erts'
// sys_tty_reset does. Without this a crashed VM leaves the user's shell without echo.
#pragma once

namespace beam::tty {

// Saves fd 0's mode as the one to restore at exit (erts saves it at start-up, before +Bc or
// tty_sl change anything) and installs the restoring handlers. Does nothing when fd 0 is not
// a terminal. Idempotent.
void remember_initial_mode();

// Puts `fd` in the mode tty_sl's flags ask for: canon/echo/sig are +1 (on), -1 (off) or 0
// (leave). Returns false (and changes nothing) if `fd` is not a terminal.
bool enter_driver_mode(int fd, int canon, int echo, int sig);
// Back to the mode `fd` had before enter_driver_mode (the port closed).
void leave_driver_mode(int fd);

// The break menu reads its answer in the initial (cooked) mode and then returns to the
// driver's mode: these bracket it.
void suspend_driver_mode();
void resume_driver_mode();

// +Bc: ^C no longer makes SIGINT (VINTR disabled), so it reaches the shell as a byte.
void disable_interrupt_key();

// The terminal is put back as it was at start-up; async-signal-safe.
void restore_initial_mode();

// SIGWINCH arrived since the last call (the driver re-reads the width).
bool window_changed();

}  // namespace beam::tty

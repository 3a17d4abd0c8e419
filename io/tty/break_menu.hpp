// erl's break handler: ^C (SIGINT) stops the shell's input and asks
//   BREAK: (a)bort (A)bort with dump (c)ontinue (p)roc info (i)nfo
//          (l)oaded (v)ersion (k)ill (D)b-tables (d)istribution
// reading the answer in the terminal's own (cooked) mode, as erts' do_break. The +B flags
// choose what ^C does instead.
#pragma once

#include <cstdint>

#include "io/poller.hpp"

namespace beam {
class VM;
}

namespace beam::tty {

enum class BreakMode {
    Menu,      // default
    Disabled,  // +Bd, +B: SIGINT ends the VM (its default action)
    Ignored,   // +Bi: ^C, ^\ and ^Z are ignored
    ToShell,   // +Bc: ^C is no signal but a byte that user_drv hands to the shell
};

// Sets SIGINT's handling for `vm` (once, before the VM runs code).
void install_break_handler(VM& vm, BreakMode mode);

// True while the menu owns the terminal: tty_sl must leave its input alone.
bool break_in_progress();

// tty_sl's input descriptor, parked while the menu runs; re-armed (EPOLLIN) when it ends.
// Called with the port's lock held; `vm` null forgets it.
void park_tty_input(VM* vm, IoHandle h, uint32_t rearm_events);

}  // namespace beam::tty

// OTP's tty_sl driver: the terminal port that user_drv opens with
// open_port({spawn, "tty_sl -c -e"}, [eof]) to run Eshell's line editing on a terminal.
//
// Opening puts the terminal in the mode the flags ask for (-c: not canonical, -e: no echo,
// -s: no signals; + turns them on) and fails when standard input or output is not a
// terminal, so that user_drv starts the line-at-a-time `user` instead, as on erl. Typed bytes
// come to the owner as {Port, {data, Bytes}} (UTF-8, or Latin-1 recoded to UTF-8 once the
// input proves not to be UTF-8). port_command data is an operation byte and its argument
// (user_drv's OP_PUTC 0, OP_MOVE 1, OP_INSC 2, OP_DELC 3, OP_BEEP 4, OP_PUTC_SYNC 5, which
// is answered {Port, ok} once written); port_control answers the window size and the UTF-8
// state (16#018b0900 + 100, 101, 102). Closing the port puts the terminal back.
#pragma once

#include <memory>
#include <string_view>

#include "scheduler/port_driver.hpp"

namespace beam {

// nullptr when the terminal cannot be opened (open_port then fails with einval, as erl's).
std::unique_ptr<PortDriver> make_tty_sl(std::string_view command);

}  // namespace beam

// The cursor controls of the terminal named by $TERM, from the terminfo database (libtinfo),
// as tty_sl reads them through termcap in erts.
#pragma once

#include <optional>

#include "io/tty/line_model.hpp"

namespace beam::tty {

// Empty when $TERM is unset or unknown, or lacks a cursor-up or cursor-right control: tty_sl
// then fails to open and user_drv falls back to the line-at-a-time `user`, as erl does.
std::optional<CursorCaps> load_cursor_caps(int fd);

// The window's columns and rows (80x24 when the terminal does not say).
void window_size(int fd, unsigned& cols, unsigned& rows);

}  // namespace beam::tty

// Terminfo look-ups for tty_sl (io/tty/terminal_caps.hpp). <term.h> defines many short macros
// (columns, lines, ...), so it is included here and nowhere else.
#include "io/tty/terminal_caps.hpp"

#include <sys/ioctl.h>

#include <cstdlib>
#include <mutex>
#include <string>

// clang-format off
#include <curses.h>
#include <term.h>
// clang-format on

namespace beam::tty {

namespace {

// A capability string without terminfo's padding delays ($<5>): a terminal emulator needs
// none, and writing them would show them.
std::optional<std::string> cap(const char* name) {
    char* s = ::tigetstr(const_cast<char*>(name));
    if (s == nullptr || s == reinterpret_cast<char*>(-1)) return std::nullopt;
    std::string out;
    for (const char* p = s; *p; ++p) {
        if (p[0] == '$' && p[1] == '<') {
            while (*p && *p != '>') ++p;
            if (!*p) break;
            continue;
        }
        out += *p;
    }
    return out;
}

}  // namespace

std::optional<CursorCaps> load_cursor_caps(int fd) {
    static std::mutex mu;  // terminfo keeps one current terminal per process
    std::lock_guard lock(mu);
    const char* term = std::getenv("TERM");
    if (!term || !*term) return std::nullopt;
    int err = 0;
    if (::setupterm(term, fd, &err) != OK) return std::nullopt;
    CursorCaps c;
    auto up = cap("cuu1"), right = cap("cuf1");
    if (!up || !right) return std::nullopt;
    c.up = *up;
    c.right = *right;
    c.down = cap("cud1").value_or("\n");
    c.left.assign(1, '\b');  // erts: ^H unless termcap's bc says otherwise, which no terminfo entry does
    c.wraps_late = ::tigetflag(const_cast<char*>("xenl")) > 0;
    return c;
}

void window_size(int fd, unsigned& cols, unsigned& rows) {
    struct winsize ws {};
    cols = 80;
    rows = 24;
    if (::ioctl(fd, TIOCGWINSZ, &ws) == 0) {
        if (ws.ws_col > 0) cols = ws.ws_col;
        if (ws.ws_row > 0) rows = ws.ws_row;
    }
}

}  // namespace beam::tty

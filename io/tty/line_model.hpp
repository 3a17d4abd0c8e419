// The current screen line as tty_sl keeps it (erts' ttsl_drv.c): user_drv sends relative
// edits (put chars, move the cursor n characters, insert, delete, beep) and the driver turns
// them into the cursor movements and characters a terminal needs, wrapping at its width.
//
// The line is a row of cells, one per screen column a character takes in its printed form:
// a printable character is one cell; a control character prints as ^X in two cells; a tab
// pads to the next multiple of 8 with cells that print as spaces; without UTF-8 a character
// above 127 prints as \ooo or \x{H..}. Cells past the first of such a group are padding, which
// moves step over. A newline in output ends the line: the model starts a new, empty one.
// Columns are counted as erts counts them (wcwidth of each cell; colour escapes take none),
// so the cursor lands where erl's would on the same terminal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace beam::tty {

// The terminal's cursor controls (terminfo cuu1, cud1, cub1, cuf1; xenl).
struct CursorCaps {
    std::string up, down, left, right;
    bool wraps_late = false;  // xn: after the last column the cursor waits at the edge
};

class LineModel {
public:
    LineModel(CursorCaps caps, int cols) : caps_(std::move(caps)), cols_(cols > 0 ? cols : 80) {}

    void set_columns(int cols) { cols_ = cols > 0 ? cols : 80; }
    void set_utf8(bool on) { utf8_ = on; }
    bool utf8() const { return utf8_; }

    // Each appends to `out` the bytes to write to the terminal. Text is UTF-8 (a byte that is
    // not valid UTF-8 counts as the character of that value, as in erts).
    void put_chars(std::string_view text, std::string& out);
    void move_rel(int n, std::string& out);
    void insert_chars(std::string_view text, std::string& out);
    void delete_chars(int n, std::string& out);

private:
    // A line longer than this starts a new one before the next edit (erts' MAXSIZE).
    static constexpr size_t kMaxLine = size_t(1) << 16;

    int insert_cells(std::string_view text, std::string& out);
    void write_cells(size_t from, size_t n, bool next_is_newline, std::string& out);
    int move_cursor(size_t from, size_t to, std::string& out);
    size_t step_over(int n) const;
    int column_of(size_t pos) const;
    void repeat(const std::string& cap, int n, std::string& out) const;

    CursorCaps caps_;
    int cols_;
    bool utf8_ = false;
    std::vector<uint32_t> cells_;  // the line: size() is its length
    size_t pos_ = 0;               // the cursor, as a cell index
};

}  // namespace beam::tty

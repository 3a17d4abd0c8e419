// The tty_sl line model (io/tty/line_model.hpp).
#include "io/tty/line_model.hpp"

#include <algorithm>
#include <cctype>
#include <cwchar>

#include "bifs/bif_util.hpp"  // append_utf8

namespace beam::tty {

namespace {

// Cell tags above any code point (the largest is 0x10FFFF). A tag with value 0 is padding:
// a column that belongs to the cell before it.
constexpr uint32_t CONTROL = 0x10000000u;  // shown as ^X, or a tab, or an escape
constexpr uint32_t ESCAPED = 0x01000000u;  // shown as \ooo or \x{H..} (no UTF-8 terminal)
constexpr uint32_t TAG_MASK = 0xFF000000u;

bool is_padding(uint32_t c) { return (c & TAG_MASK) && (c & ~TAG_MASK) == 0; }

// One code point of `s` at `i`, advancing `i`; -1 when the bytes there are not valid UTF-8
// (overlong forms, surrogates, U+FFFE/U+FFFF, beyond U+10FFFF, or cut short).
int32_t next_code_point(std::string_view s, size_t& i) {
    auto b = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
    size_t left = s.size() - i;
    uint8_t c0 = b(0);
    auto cont = [&](size_t k) { return (b(k) & 0xC0) == 0x80; };
    if (c0 < 0x80) {
        ++i;
        return c0;
    }
    if ((c0 & 0xE0) == 0xC0) {
        if (left < 2 || !cont(1) || c0 < 0xC2) return -1;
        int32_t cp = ((c0 & 0x1F) << 6) | (b(1) & 0x3F);
        i += 2;
        return cp;
    }
    if ((c0 & 0xF0) == 0xE0) {
        if (left < 3 || !cont(1) || !cont(2) || (c0 == 0xE0 && b(1) < 0xA0)) return -1;
        if ((c0 & 0x0F) == 0x0D && (b(1) & 0x20)) return -1;  // surrogates
        if (c0 == 0xEF && b(1) == 0xBF && (b(2) == 0xBE || b(2) == 0xBF)) return -1;
        int32_t cp = ((c0 & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
        i += 3;
        return cp;
    }
    if ((c0 & 0xF8) == 0xF0) {
        if (left < 4 || !cont(1) || !cont(2) || !cont(3) || (c0 == 0xF0 && b(1) < 0x90)) return -1;
        if ((c0 & 7) > 4 || ((c0 & 7) == 4 && (b(1) & 0x3F) > 0x0F)) return -1;
        int32_t cp = ((c0 & 7) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
        i += 4;
        return cp;
    }
    return -1;
}

// The digits of a character shown escaped: three octal digits up to \777, else x{...} hex.
std::string escaped_digits(uint32_t c) {
    if (c < 0x200) {
        std::string d(3, '0');
        for (int k = 2; k >= 0; --k, c >>= 3) d[k] = char('0' + (c & 7));
        return d;
    }
    static const char hex[] = "0123456789ABCDEF";
    std::string h;
    for (; c; c >>= 4) h.insert(h.begin(), hex[c & 15]);
    return "x{" + h + "}";
}

// A colour escape (ESC [ digits and ; then one final character) takes no column.
size_t escape_width(const std::vector<uint32_t>& cells, size_t i, size_t end) {
    if (cells[i] != (CONTROL | 0x1B)) return 0;
    if (end - i <= 1) return 1;
    if (cells[i + 1] != '[') return 2;
    size_t k = i + 2;
    while (k < end && (cells[k] == ';' || (cells[k] >= '0' && cells[k] <= '9'))) ++k;
    return k - i + 1;
}

}  // namespace

void LineModel::repeat(const std::string& cap, int n, std::string& out) const {
    for (; n > 0; --n) out += cap;
}

// Columns from the line's start to cell `pos` (past the end: one column per missing cell).
// As erts: each cell counts its wcwidth, so tagged cells count none.
int LineModel::column_of(size_t pos) const {
    int col = 0;
    if (pos > cells_.size()) {
        col += int(pos - cells_.size());
        pos = cells_.size();
    }
    for (size_t i = 0; i < pos;) {
        if (size_t j = escape_width(cells_, i, cells_.size())) {
            i += j;
            continue;
        }
        int w = ::wcwidth(static_cast<wchar_t>(cells_[i]));
        if (w > 0) col += w;
        ++i;
    }
    return col;
}

size_t LineModel::step_over(int n) const {
    size_t c = pos_;
    for (; n > 0 && c < cells_.size(); --n) {
        ++c;
        while (c < cells_.size() && is_padding(cells_[c])) ++c;
    }
    for (; n < 0 && c > 0; ++n) {
        --c;
        while (c > 0 && is_padding(cells_[c])) --c;
    }
    return c;
}

int LineModel::move_cursor(size_t from, size_t to, std::string& out) {
    int fc = column_of(from), tc = column_of(to);
    int dl = tc / cols_ - fc / cols_, dc = tc % cols_ - fc % cols_;
    if (dl > 0) repeat(caps_.down, dl, out);
    if (dl < 0) repeat(caps_.up, -dl, out);
    if (dc > 0) repeat(caps_.right, dc, out);
    if (dc < 0) repeat(caps_.left, -dc, out);
    return tc - fc;
}

// Writes `text` into cells from the cursor on, overwriting; a newline writes what the line
// has so far and starts a new one. Returns the cells written on the line now current.
int LineModel::insert_cells(std::string_view text, std::string& out) {
    size_t start = pos_;
    auto put = [&](uint32_t c) {
        if (pos_ < cells_.size()) cells_[pos_] = c;
        else cells_.push_back(c);
        ++pos_;
    };
    for (size_t i = 0; i < text.size();) {
        int32_t cp = next_code_point(text, i);
        uint32_t ch = cp >= 0 ? uint32_t(cp) : static_cast<uint8_t>(text[i++]);
        if ((utf8_ && (ch >= 128 || std::isprint(int(ch)))) || (ch <= 255 && std::isprint(int(ch)))) {
            put(ch);
        } else if (ch >= 128) {
            put(ch | ESCAPED);
            for (size_t k = escaped_digits(ch).size(); k > 0; --k) put(ESCAPED);
        } else if (ch == '\t') {
            put(CONTROL | '\t');  // then padding to the next multiple of 8 cells
            while (pos_ % 8) put(CONTROL);
        } else if (ch == 0x1B) {
            put(CONTROL | ch);
        } else if (ch == '\n' || ch == '\r') {
            write_cells(start, pos_ - start, true, out);
            out += '\r';
            if (ch == '\n') out += '\n';
            cells_.erase(cells_.begin(), cells_.begin() + long(std::min(pos_, cells_.size())));
            pos_ = start = 0;
        } else {
            put(CONTROL | ch);
            put(CONTROL);
        }
    }
    return int(pos_ - start);
}

void LineModel::write_cells(size_t from, size_t n, bool next_is_newline, std::string& out) {
    size_t i = from, end = std::min(from + n, cells_.size());
    std::string last = " ";  // what was written for the last cell, for the xn fix below
    while (i < end) {
        uint32_t c = cells_[i];
        if (!(c & TAG_MASK)) {
            last.clear();
            if (utf8_) append_utf8(last, c);
            else last = char(c);
            out += last;
            ++i;
        } else if (c == (CONTROL | '\t')) {
            out += ' ';
            for (++i; i < end && cells_[i] == CONTROL; ++i) out += ' ';
            last = " ";
        } else if (c == (CONTROL | 0x1B)) {
            out += '\x1B';
            last = "\x1B";
            ++i;
        } else if (c & CONTROL) {
            uint32_t v = c & ~TAG_MASK;
            last = char(v == 0x7F ? '?' : (v | 0x40));
            out += '^';
            out += last;
            i += 2;
        } else if ((c & ESCAPED) && !is_padding(c)) {
            std::string d = escaped_digits(c & ~TAG_MASK);
            out += '\\';
            out += d;
            last = d.substr(d.size() - 1);
            i += d.size() + 1;
        } else {
            ++i;  // stray padding: nothing to show
        }
    }
    // A terminal with the xn glitch leaves the cursor on the last column after writing there;
    // writing the character again (or a space past the end) and stepping back puts it at the
    // start of the next row, where the model thinks it is.
    size_t at = std::min(i, cells_.size());
    if (!next_is_newline && caps_.wraps_late && at != 0 && column_of(at) % cols_ == 0) {
        out += at >= cells_.size() ? std::string(" ") : last;
        repeat(caps_.left, 1, out);
    }
}

void LineModel::put_chars(std::string_view text, std::string& out) {
    if (pos_ > kMaxLine) put_chars("\n", out);
    int n = insert_cells(text, out);
    if (n > 0) write_cells(pos_ - size_t(n), size_t(n), false, out);
}

void LineModel::move_rel(int n, std::string& out) {
    if (pos_ > kMaxLine) put_chars("\n", out);
    size_t to = step_over(n);
    move_cursor(pos_, to, out);
    pos_ = to;
}

void LineModel::insert_chars(std::string_view text, std::string& out) {
    if (pos_ > kMaxLine) put_chars("\n", out);
    std::vector<uint32_t> tail(cells_.begin() + long(std::min(pos_, cells_.size())), cells_.end());
    cells_.resize(std::min(pos_, cells_.size()));
    int n = insert_cells(text, out);
    cells_.resize(std::max(pos_, cells_.size()));
    cells_.insert(cells_.end(), tail.begin(), tail.end());
    size_t from = pos_ - size_t(n);
    write_cells(from, cells_.size() - from, false, out);
    move_cursor(cells_.size(), pos_, out);
}

void LineModel::delete_chars(int n, std::string& out) {
    if (pos_ > kMaxLine) put_chars("\n", out);
    size_t to = step_over(n);
    int blank;  // columns the deleted characters took, to clear after the rest moves left
    if (to > pos_) {
        blank = column_of(to) - column_of(pos_);
        cells_.erase(cells_.begin() + long(pos_), cells_.begin() + long(to));
    } else if (to < pos_) {
        blank = -move_cursor(pos_, to, out);
        cells_.erase(cells_.begin() + long(to), cells_.begin() + long(pos_));
        pos_ = to;
    } else {
        return;
    }
    write_cells(pos_, cells_.size() - pos_, false, out);
    out.append(size_t(std::max(blank, 0)), ' ');
    if (caps_.wraps_late && (column_of(cells_.size()) + blank) % cols_ == 0) {
        out += ' ';
        repeat(caps_.left, 1, out);
    }
    move_cursor(cells_.size() + size_t(std::max(blank, 0)), pos_, out);
}

}  // namespace beam::tty

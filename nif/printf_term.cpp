#include "nif/printf_term.hpp"

#include <cctype>
#include <string_view>

namespace beam::nif {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '@' ||
           static_cast<unsigned char>(c) >= 0x80;
}

// Whether the integer text t[from, to) is a small integer (60-bit signed: erts prints those
// through printf, bignums as text).
bool fits_small(const std::string& t, size_t from, size_t to) {
    bool negative = t[from] == '-';
    std::string_view digits(t.data() + from + negative, to - from - negative);
    constexpr std::string_view LIMIT = "576460752303423488";  // 2^59
    if (digits.size() != LIMIT.size()) return digits.size() < LIMIT.size();
    return negative ? digits <= LIMIT : digits < LIMIT;
}

}  // namespace

// Splits display text into pieces: quoted atoms, strings and text binaries, bare atoms and
// punctuation are plain; small integers (bignums are printed as text), floats ("%e"), binary
// byte values and bit counts, and the numbers of pids, ports and references are numbers.
std::vector<TermPiece> term_pieces(const std::string& t) {
    std::vector<TermPiece> out;
    size_t i = 0, n = t.size(), plain_from = 0;
    auto flush_plain = [&](size_t end) {
        if (end > plain_from) out.push_back({plain_from, end - plain_from, false});
    };
    while (i < n) {
        char c = t[i];
        if (c == '<' && i + 1 < n && std::isxdigit(static_cast<unsigned char>(t[i + 1])) &&
            t.find(">{", i) != std::string::npos &&
            t.find(">{", i) == t.find_first_not_of("0123456789abcdef", i + 1)) {
            // a hash map node's bitmap, which erts prints in hex through printf: "#<1f>{"
            size_t start = i + 1;
            i = t.find_first_not_of("0123456789abcdef", start);
            flush_plain(start);
            out.push_back({start, i - start, true});
            plain_from = i;
        } else if (c == '"' || c == '\'') {  // a string, text binary or quoted atom: up to its closing quote
            for (++i; i < n && t[i] != c; ++i)
                if (t[i] == '\\') ++i;
            ++i;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {  // an atom
            while (i < n && is_name_char(t[i])) ++i;
        } else if (is_digit(c) || (c == '-' && i + 1 < n && is_digit(t[i + 1]))) {
            size_t start = i;
            if (c == '-') ++i;
            while (i < n && is_digit(t[i])) ++i;
            bool whole = true;
            bool is_float = false;
            // A float: d.dddddde+dd (a pid's "0.9" is followed by '.', not 'e').
            size_t j = i;
            if (j < n && t[j] == '.') {
                ++j;
                while (j < n && is_digit(t[j])) ++j;
                if (j < n && t[j] == 'e' && j + 1 < n && (t[j + 1] == '+' || t[j + 1] == '-')) {
                    j += 2;
                    while (j < n && is_digit(t[j])) ++j;
                    i = j;
                    is_float = true;
                }
            }
            if (!is_float) whole = fits_small(t, start, i);
            if (whole) {
                flush_plain(start);
                out.push_back({start, i - start, true});
                plain_from = i;
            }
        } else {
            ++i;
        }
    }
    flush_plain(n);
    return out;
}

}  // namespace beam::nif

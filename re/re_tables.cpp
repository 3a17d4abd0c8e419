// Character tables for PCRE2 in ISO 8859-1, as OTP's PCRE 8.44 build has them (its tables
// were made in a Latin-1 locale): letters, case pairs and classes above 127 are Latin-1's,
// so \w, [[:alpha:]] and caseless matching treat é as erl does. Checked against erl for all
// 256 code units by tests/conformance/re_pcre.erl.
//
// The layout is PCRE2's (what pcre2_maketables() builds): lower-case map, case-flip map, ten
// 32-byte class bitmaps, then one type byte per code unit.
#include <array>

#include "re/re_pattern.hpp"

namespace beam::re {

namespace {

// PCRE2's table layout (pcre2_internal.h, stable since 10.00).
constexpr int LCC = 0, FCC = 256, CBITS = 512, CTYPES = 512 + 320, LENGTH = CTYPES + 256;
enum Cbit { SPACE = 0, XDIGIT = 32, DIGIT = 64, UPPER = 96, LOWER = 128, WORD = 160,
            GRAPH = 192, PRINT = 224, PUNCT = 256, CNTRL = 288 };
enum Ctype : uint8_t { T_SPACE = 0x01, T_LETTER = 0x02, T_LCLETTER = 0x04, T_DIGIT = 0x08, T_WORD = 0x10 };

bool is_upper(int c) { return (c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7); }
bool is_lower(int c) {
    return (c >= 'a' && c <= 'z') || c == 0xAA || c == 0xB5 || c == 0xBA || (c >= 0xDF && c != 0xF7);
}
bool is_alpha(int c) { return is_upper(c) || is_lower(c); }
bool is_digit(int c) { return c >= '0' && c <= '9'; }
bool is_xdigit(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_space(int c) { return c == ' ' || (c >= 9 && c <= 13); }
bool is_cntrl(int c) { return c < 32 || (c >= 127 && c < 160); }
bool is_print(int c) { return !is_cntrl(c); }
bool is_graph(int c) { return is_print(c) && c != ' '; }
bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }
bool is_punct(int c) { return is_graph(c) && !is_alnum(c); }
// Latin-1's case pairs are 32 apart; ß, ÿ, µ, ª and º have no partner in the set.
int to_lower(int c) { return is_upper(c) ? c + 32 : c; }
int to_upper(int c) { return (c >= 'a' && c <= 'z') || (c >= 0xE0 && c <= 0xFE && c != 0xF7) ? c - 32 : c; }

std::array<uint8_t, LENGTH> make() {
    std::array<uint8_t, LENGTH> t{};
    for (int c = 0; c < 256; ++c) {
        t[LCC + c] = uint8_t(to_lower(c));
        t[FCC + c] = uint8_t(is_upper(c) ? to_lower(c) : to_upper(c));
        auto set = [&](int map, bool on) {
            if (on) t[CBITS + map + c / 8] |= uint8_t(1u << (c % 8));
        };
        set(SPACE, is_space(c));
        set(XDIGIT, is_xdigit(c));
        set(DIGIT, is_digit(c));
        set(UPPER, is_upper(c));
        set(LOWER, is_lower(c));
        set(WORD, is_alnum(c) || c == '_');
        set(GRAPH, is_graph(c));
        set(PRINT, is_print(c));
        set(PUNCT, is_punct(c));
        set(CNTRL, is_cntrl(c));
        uint8_t type = 0;
        if (is_space(c)) type |= T_SPACE;
        if (is_alpha(c)) type |= T_LETTER;
        if (is_lower(c)) type |= T_LCLETTER;
        if (is_digit(c)) type |= T_DIGIT;
        if (is_alnum(c) || c == '_') type |= T_WORD;
        t[CTYPES + c] = type;
    }
    return t;
}

}  // namespace

const uint8_t* latin1_tables() {
    static const std::array<uint8_t, LENGTH> tables = make();
    return tables.data();
}

}  // namespace beam::re

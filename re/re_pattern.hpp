// Compiled regular expressions for OTP's `re` natives, on the system's PCRE2 (8-bit library).
// OTP links PCRE 8.44; beamvm gives PCRE2 what it needs to behave as that build: Latin-1
// character tables (re_tables.cpp), unknown escapes taken literally and PCRE2-only syntax
// refused (re_syntax.cpp), \K allowed in lookarounds, and PCRE 8.44's error texts and
// offsets (re_errors.cpp).
//
// The binary of a `{re_pattern, Groups, Unicode, UseCRLF, Bin}` term is beamvm's encoding
// of the options and the pattern text, not PCRE2's compiled code: it stays valid through
// term_to_binary/binary_to_term and across processes, and a run compiles it again through a
// cache of recent patterns (PCRE2's code is read-only while matching, so one compiled
// pattern serves every scheduler). A pattern compiled by erl is read back into text
// (decode_erts); anything else fails to decode and the native raises badarg.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace beam::re {

// What a pattern is compiled with: PCRE2 compile option bits, the newline convention and
// what \R matches (PCRE2_NEWLINE_*, PCRE2_BSR_*; 0 = OTP's defaults, LF and Unicode).
struct CompileOptions {
    uint32_t flags = 0;
    uint8_t newline = 0;
    uint8_t bsr = 0;
    bool operator==(const CompileOptions&) const = default;
};

struct Pattern {
    pcre2_code* code = nullptr;
    int captures = 0;          // capturing groups (PCRE2_INFO_CAPTURECOUNT)
    bool utf = false;          // compiled in UTF-8 mode (option or (*UTF) in the pattern)
    bool crlf = false;         // newline is CRLF, ANYCRLF or ANY: re.erl's UseCRLF
    bool dupnames = false;
    // The name table in PCRE2's order (sorted by name): name and group number.
    std::vector<std::pair<std::string, int>> names;
    Pattern() = default;
    Pattern(const Pattern&) = delete;
    Pattern& operator=(const Pattern&) = delete;
    ~Pattern();
};

struct CompileError {
    std::string message;  // PCRE 8.44's text, as erl reports it
    size_t offset = 0;
};

// The pattern binary for text compiled with `opts`, and back. decode is false for a binary
// that is not beamvm's.
std::string encode(const CompileOptions& opts, std::string_view text);
bool decode(std::string_view bin, CompileOptions& opts, std::string& text);
// A pattern compiled by erl's PCRE 8.x (a literal in a .beam file, such as Elixir's ~r) read
// back into text PCRE2 compiles with the same meaning; false for what it does not read
// (re_erts_pattern.cpp).
bool decode_erts(std::string_view bin, CompileOptions& opts, std::string& text);

// Compiles (or finds in the cache) the pattern; null with `err` set when it does not compile.
std::shared_ptr<const Pattern> compile(const CompileOptions& opts, std::string_view text, CompileError& err);

// PCRE 8.44's message for a PCRE2 compile error code.
std::string pcre1_message(int pcre2_code);
// The error erl reports for `text`, which PCRE2 refused with `code` at `offset`: PCRE 8.44's
// text, and its offset where the two libraries point at different places.
CompileError pcre1_error(std::string_view text, int code, size_t offset);
// The closing parenthesis of the group opened at `open`, skipping escapes and classes; the
// end of the text when there is none.
size_t closing_paren(std::string_view text, size_t open);
// PCRE2 syntax that PCRE 8.44 refuses (start-of-pattern items such as (*NOTEMPTY), the (?^)
// option reset): the error erl reports, or false.
bool pcre1_refuses(std::string_view text, CompileError& err);
// Where PCRE 8.44 reads as a literal character what PCRE2 refuses with `code` at `offset`:
// an unknown escape such as \y, \F or \8 without eight groups (the backslash at the
// position returned is dropped), or a hyphen after a class escape as in [\d-z] (a backslash
// is inserted before it: `insert`). npos when there is nothing to change.
size_t literal_fix_at(std::string_view text, int code, size_t offset, bool& insert);

// PCRE2 character tables for ISO 8859-1, as OTP's PCRE build uses (re_tables.cpp).
const uint8_t* latin1_tables();

}  // namespace beam::re

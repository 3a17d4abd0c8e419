// beamvm's regular expressions for OTP's `re` module: Perl-compatible syntax as PCRE reads it
// (the subset Erlang programs use: classes, anchors, groups named and numbered, lazy and
// possessive quantifiers, atomic groups, lookaround, back references, inline options),
// compiled to a small backtracking program and run with an explicit stack, so neither long
// subjects nor deep backtracking use the C stack. Positions are byte offsets, as re reports
// them; with `unicode` the program steps over UTF-8 characters.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace beam::re {

// Compile options (re:compile/2), as bits.
enum : uint32_t {
    CASELESS = 1u << 0,
    MULTILINE = 1u << 1,
    DOTALL = 1u << 2,
    EXTENDED = 1u << 3,
    ANCHORED = 1u << 4,
    DOLLAR_ENDONLY = 1u << 5,
    UNGREEDY = 1u << 6,
    UNICODE = 1u << 7,
    NO_AUTO_CAPTURE = 1u << 8,
    DUPNAMES = 1u << 9,
    FIRSTLINE = 1u << 10,
    UCP = 1u << 11,
    NEWLINE_CR = 1u << 12,
    NEWLINE_CRLF = 1u << 13,
    NEWLINE_ANYCRLF = 1u << 14,
    NEWLINE_ANY = 1u << 15,
    NEVER_UTF = 1u << 16,
};

enum class Op : uint8_t {
    Char,        // c (folded when `fold`)
    Any,         // any character but newline (dotall: any)
    Class,       // cls
    Split,       // try x first, then y
    Jmp,         // x
    Save,        // capture slot x := position
    Close,       // group x ends here; it began at the position in register y
    Bol, Eol,    // ^ $ (flags: multiline, dollar_endonly)
    WordB, NotWordB,
    SubjStart, SubjEnd, SubjEndNl, MatchStart,  // \A \z \Z \G
    SetReg,      // register x := position (empty-iteration check)
    Progress,    // if position != register x: jump y
    AtomicBegin, // register x := backtrack stack height
    AtomicEnd,   // drop the choices made since register x
    Look,        // sub-program x (look[x]): ahead/behind, negated
    Backref,     // group x
    Call,        // subroutine call of group x (0: the whole pattern), atomic as in PCRE 8
    Match,
};

struct Inst {
    Op op;
    bool fold = false;
    bool flag = false;   // Any: dotall; Bol/Eol: multiline; Eol second flag in flag2
    bool flag2 = false;  // Eol: dollar_endonly
    int32_t x = 0, y = 0;
    uint32_t c = 0;
};

struct CharClass {
    std::vector<std::pair<uint32_t, uint32_t>> ranges;  // inclusive
    bool negated = false;
    bool contains(uint32_t c) const;
};

struct Program;

struct LookAround {
    bool behind = false;
    bool negated = false;
    std::vector<uint32_t> lengths;  // behind: the byte... character length of each branch
    std::vector<std::shared_ptr<Program>> branches;  // behind: one per branch; ahead: one
};

struct Program {
    std::vector<Inst> code;
    std::vector<CharClass> classes;
    std::vector<LookAround> looks;
    int registers = 0;  // loop and atomic registers after the capture slots
};

struct Regex {
    std::shared_ptr<Program> prog;
    std::vector<std::shared_ptr<Program>> calls;  // by group number, for those called
    int groups = 0;                                    // capturing groups (not counting 0)
    std::vector<std::pair<std::string, int>> names;    // sorted by name
    uint32_t options = 0;
    bool unicode() const { return options & UNICODE; }
};

struct CompileError {
    std::string message;
    size_t offset;
};

// Compiles; on failure fills `err` (PCRE's message and the offset where it was found).
std::shared_ptr<Regex> compile(std::string_view pattern, uint32_t options, CompileError& err);

// Run options (re:run/3), as bits.
enum : uint32_t {
    RUN_ANCHORED = 1u << 0,
    NOTBOL = 1u << 1,
    NOTEOL = 1u << 2,
    NOTEMPTY = 1u << 3,
    NOTEMPTY_ATSTART = 1u << 4,
};

enum class MatchResult { Match, NoMatch, Limit };

// Looks for a match starting at or after `start` (only at `start` when anchored). On a match,
// `caps` holds 2 * (groups + 1) byte offsets, -1 for groups that did not take part.
MatchResult search(const Regex& re, std::string_view subject, size_t start, uint32_t run_opts, uint64_t limit,
                   std::vector<long>& caps);

// The byte length of the character at `pos` (1 without `unicode`).
size_t char_len(const Regex& re, std::string_view s, size_t pos);

}  // namespace beam::re

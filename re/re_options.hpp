// Options of OTP's `re` natives as erts reads them (erl_bif_re.c's parse_options and
// build_capture), turned into PCRE2 options: what re/re_natives.cpp runs with.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "re/re_pattern.hpp"
#include "vm/term.hpp"

namespace beam::re {

// erl_bif_re.c's PARSE_FLAG_*.
enum : uint32_t {
    UNIQUE_COMPILE_OPT = 1, UNIQUE_EXEC_OPT = 2, CAPTURE_OPT = 4, MATCH_LIMIT = 8, MATCH_LIMIT_RECURSION = 16,
    REPORT_ERRORS = 32, UNICODE = 64, GLOBAL = 128,
};

// PCRE 8.44's newline bits, which combine when given twice ({newline,cr},{newline,lf} is crlf).
enum : uint8_t { NL_CR = 1, NL_LF = 2, NL_ANY = 4 };
// The PCRE2 newline convention for PCRE 8.44's bits; 0 for a combination it refuses.
uint8_t pcre2_newline(uint8_t bits);

struct Options {
    uint32_t compile = 0;  // PCRE2 compile options
    uint32_t match = 0;    // PCRE2 match options
    uint8_t newline = 0;   // NL_* bits
    uint8_t bsr = 0;       // 1 anycrlf, 2 unicode, 3 both (an error, as in PCRE 8.44)
    uint32_t flags = 0;
    int offset = 0;
    uint32_t match_limit = 0, match_limit_recursion = 0;
    Term cap_values = make_small(0), cap_type = make_small(0);  // erl's CAPSPEC_INIT
};

// erts' term_to_int on 64-bit: it compares the value as unsigned, so a negative one fails too.
bool term_to_int(Term t, int& out);
// erl_bif_re.c's parse_options: false for anything it refuses.
bool parse_options(Term list, Options& o);
// The compile options a pattern is built with; false when PCRE 8.44 would refuse them
// ("inconsistent NEWLINE options").
bool compile_options(const Options& o, CompileOptions& out);

// One requested capture: the groups it may name (several for a duplicated name: the first
// that is set counts), none for a name that does not exist.
using Wanted = std::vector<int>;
enum class RetType { Index, List, Binary, None };
// erl_bif_re.c's build_capture: false for a capture specification it refuses. `all_from` is
// 0 for all groups, 1 for all but the first, -1 when `wanted` lists them.
bool capture_spec(const Options& o, const Pattern& pat, RetType& type, int& all_from, std::vector<Wanted>& wanted);

}  // namespace beam::re

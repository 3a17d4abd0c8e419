// PCRE 8.44's compile error texts for PCRE2's error codes: erl reports a bad pattern as
// {error, {Text, Offset}} with the text of the PCRE it links, so beamvm translates. Where
// PCRE2 has an error PCRE 8.44 did not, its own text is kept.
#include <cctype>
#include <unordered_map>

#include "re/re_pattern.hpp"

namespace beam::re {

std::string pcre1_message(int code) {
    static const std::unordered_map<int, const char*> texts = {
        {101, "\\ at end of pattern"},
        {102, "\\c at end of pattern"},
        {103, "unrecognized character follows \\"},
        {104, "numbers out of order in {} quantifier"},
        {105, "number too big in {} quantifier"},
        {106, "missing terminating ] for character class"},
        {107, "invalid escape sequence in character class"},
        {108, "range out of order in character class"},
        {109, "nothing to repeat"},
        {110, "internal error: unexpected repeat"},
        {111, "unrecognized character after (? or (?-"},
        {112, "POSIX named classes are supported only within a class"},
        {113, "POSIX collating elements are not supported"},
        {114, "missing )"},
        {115, "reference to non-existent subpattern"},
        {117, "unknown option bit(s) set"},
        {118, "missing ) after comment"},
        {119, "parentheses are too deeply nested"},
        {120, "regular expression is too large"},
        {121, "failed to get memory"},
        {122, "unmatched parentheses"},
        {123, "internal error: code overflow"},
        {124, "malformed number or name after (?("},
        {125, "lookbehind assertion is not fixed length"},
        {126, "a numbered reference must not be zero"},
        {127, "conditional group contains more than two branches"},
        {128, "assertion expected after (?( or (?(?C)"},
        {129, "digit expected after (?+"},
        {130, "unknown POSIX class name"},
        {132, "this version of PCRE is compiled without UTF support"},
        {133, "parentheses are too deeply nested (stack check)"},
        {134, "character value in \\x{} or \\o{} is too large"},
        {135, "lookbehind assertion is not fixed length"},
        {136, "\\C not allowed in lookbehind assertion"},
        {137, "PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u"},
        {138, "number after (?C is > 255"},
        {139, "closing ) for (?C expected"},
        {141, "unrecognized character after (?P"},
        {142, "syntax error in subpattern name (missing terminator)"},
        {143, "two named subpatterns have the same name"},
        {144, "group name must start with a non-digit"},
        {145, "support for \\P, \\p, and \\X has not been compiled"},
        {146, "malformed \\P or \\p sequence"},
        {147, "unknown property name after \\P or \\p"},
        {148, "subpattern name is too long (maximum 32 characters)"},
        {149, "too many named subpatterns (maximum 10000)"},
        {150, "invalid range in character class"},
        {151, "octal value is greater than \\377 in 8-bit non-UTF-8 mode"},
        {152, "internal error: overran compiling workspace"},
        {153, "internal error: previously-checked referenced subpattern not found"},
        {154, "DEFINE group contains more than one branch"},
        {155, "missing opening brace after \\o"},
        {156, "inconsistent NEWLINE options"},
        {157, "\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number"},
        {158, "(?R or (?[+-]digits must be followed by )"},
        {160, "(*VERB) not recognized or malformed"},
        {161, "number is too big"},
        {162, "subpattern name expected"},
        {164, "non-octal character in \\o{} (closing brace missing?)"},
        {165, "different names for subpatterns of the same number are not allowed"},
        {166, "(*MARK) must have an argument"},
        {167, "non-hex character in \\x{} (closing brace missing?)"},
        {168, "\\c must be followed by an ASCII character"},
        {169, "\\k is not followed by a braced, angle-bracketed, or quoted name"},
        {171, "\\N is not supported in a class"},
        {173, "disallowed Unicode code point (>= 0xd800 && <= 0xdfff)"},
        {174, "setting UTF is disabled by the application"},
        {176, "name is too long in (*MARK), (*PRUNE), (*SKIP), or (*THEN)"},
        {177, "character value in \\u.... sequence is too large"},
        {178, "digits missing in \\x{} or \\o{}"},
        {186, "regular expression is too complicated"},
        {187, "lookbehind assertion is not fixed length"},
    };
    // UTF-8 errors in the pattern text (PCRE2_ERROR_UTF8_ERR1..21) are one message in PCRE 8.44.
    if (code <= PCRE2_ERROR_UTF8_ERR1 && code >= PCRE2_ERROR_UTF8_ERR21) return "invalid UTF-8 string";
    auto it = texts.find(code);
    if (it != texts.end()) return it->second;
    PCRE2_UCHAR buf[256];
    if (pcre2_get_error_message(code, buf, sizeof buf) < 0) return "unknown error";
    return reinterpret_cast<const char*>(buf);
}

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A pattern that ends inside a group's opening "(?...": PCRE2 says "missing )", PCRE 8.44
// names what it expected.
const char* unfinished_group(std::string_view t) {
    if (t.size() >= 3 && t.substr(t.size() - 3) == "(?(") return "assertion expected after (?( or (?(?C)";
    size_t open = t.rfind('(');
    if (open == std::string_view::npos || open + 1 >= t.size() || t[open + 1] != '?') return nullptr;
    std::string_view rest = t.substr(open + 2);
    if (rest.empty()) return "unrecognized character after (? or (?-";
    if (rest[0] == 'P') return rest.size() == 1 ? "unrecognized character after (?P" : nullptr;
    if (rest[0] == 'C') return "closing ) for (?C expected";
    if (rest == "(") return "assertion expected after (?( or (?(?C)";
    for (char c : rest)
        if (!std::isalpha(static_cast<unsigned char>(c)) && c != '-') return nullptr;
    return "unrecognized character after (? or (?-";
}

}  // namespace

CompileError pcre1_error(std::string_view t, int code, size_t off) {
    CompileError e{pcre1_message(code), off};
    switch (code) {
    case 114:  // missing ): a pattern cut short in a group header
        if (off == t.size())
            if (const char* m = unfinished_group(t)) e.message = m;
        break;
    case 115:  // a group that does not exist: a name is reported at its end, a number at the
               // end of the pattern (PCRE 8.44 checks numbers once the whole pattern is read)
        if (off < t.size() && (std::isalpha(static_cast<unsigned char>(t[off])) || t[off] == '_')) {
            while (e.offset < t.size() && is_name_char(t[e.offset])) ++e.offset;
        } else if (off < t.size() && (is_digit(t[off]) || (t[off] == '}' && off > 0 && is_digit(t[off - 1])))) {
            e.offset = t.size();  // \2, \g{9}; a recursion (?2) is reported at its ")" by both
        } else if (off < t.size() && t[off] == '(') {
            e.offset = closing_paren(t, off) + 1;  // the condition of (?(1)...)
        }
        break;
    case 157:  // \g at the end: PCRE 8.44 reads it as a reference to group 0
        if (off == t.size()) e = {pcre1_message(126), off - 1};
        break;
    case 137:  // \L, \u...: at the letter
    case 147:  // unknown property: at the closing brace
    case 169:  // \k without a name: at the k
        if (off > 0) e.offset = off - 1;
        break;
    case 125:  // lookbehind not of fixed length: at its closing parenthesis
    case 135:
    case 187:
        e.offset = closing_paren(t, off);
        break;
    case 154:  // DEFINE with two branches: at the group's end
        if (off >= 3) e.offset = closing_paren(t, off - 3);
        break;
    case 143:  // duplicate name: at its last character
    case 150:  // invalid range: at the class escape's letter
        if (off > 0) e.offset = off - 1;
        break;
    case 128:  // assertion expected after (?(
    case 129:  // digit expected after (?+
        e.offset = off + 1;
        break;
    }
    return e;
}

}  // namespace beam::re

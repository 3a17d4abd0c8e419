// PCRE 8.44's compile error texts for PCRE2's error codes: erl reports a bad pattern as
// {error, {Text, Offset}} with the text of the PCRE it links, so beamvm translates. Where
// PCRE2 has an error PCRE 8.44 did not, its own text is kept.
#include <cctype>
#include <string>
#include <vector>
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

// The closing parenthesis of the group opened at `open`, skipping escapes and classes; the
// end of the text when there is none.
size_t closing_paren(std::string_view t, size_t open) {
    int depth = 0;
    for (size_t i = open; i < t.size(); ++i) {
        char c = t[i];
        if (c == '\\') {
            ++i;
        } else if (c == '[') {
            size_t j = i + 1;
            if (j < t.size() && t[j] == '^') ++j;
            if (j < t.size() && t[j] == ']') ++j;
            while (j < t.size() && t[j] != ']') j += t[j] == '\\' ? 2 : 1;
            i = j;
        } else if (c == '(') {
            ++depth;
        } else if (c == ')' && --depth == 0) {
            return i;
        }
    }
    return t.size();
}

// Whether a part of a pattern holds a back reference (\1-\9, \g, \k, (?P=name)) that adds
// to its length: outside classes and nested lookarounds (which match no characters).
bool has_back_reference(std::string_view t) {
    for (size_t i = 0; i < t.size(); ++i) {
        if (t.substr(i, 3) == "(?=" || t.substr(i, 3) == "(?!" || t.substr(i, 4) == "(?<=" || t.substr(i, 4) == "(?<!") {
            i = closing_paren(t, i);
            continue;
        }
        if (t[i] == '\\' && i + 1 < t.size()) {
            char n = t[i + 1];
            if ((n >= '1' && n <= '9') || n == 'g' || n == 'k') return true;
            if (n == 'Q') {
                size_t end = t.find("\\E", i + 2);
                if (end == std::string_view::npos) return false;
                i = end;
            }
            ++i;
        } else if (t[i] == '[') {
            size_t j = i + 1;
            if (j < t.size() && t[j] == '^') ++j;
            if (j < t.size() && t[j] == ']') ++j;
            while (j < t.size() && t[j] != ']') j += t[j] == '\\' ? 2 : 1;
            i = j;
        } else if (t.substr(i, 4) == "(?P=") {
            return true;
        }
    }
    return false;
}

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


// PCRE 8.44 refuses a recursion into an enclosing group reached before that group has
// matched anything ("recursive call could loop indefinitely", at the call's closing
// parenthesis); PCRE2 compiles it. A conservative reading: only items that surely match no
// character (anchors, \b, lookarounds, option settings, verbs, items that may repeat zero
// times) count as empty, so an unusual pattern is let through rather than refused wrongly.
// Patterns with branch resets or conditions are not looked at.
bool recursion_could_loop(std::string_view t, size_t& at) {
    struct Group {
        int number;                // capture number, 0 for the whole pattern, -1 if none
        bool lookaround;
        bool consumed = false;     // the current alternative has matched a character
        bool all_consumed = true;  // every alternative before it did
        bool before_last = false;  // `consumed` before the last item (for a quantifier after it)
    };
    std::vector<Group> stack{{0, false}};
    std::vector<std::pair<std::string, int>> names;
    int captures = 0;
    auto item = [&](bool consumes) {
        Group& g = stack.back();
        g.before_last = g.consumed;
        g.consumed = g.consumed || consumes;
    };
    auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    for (size_t i = 0; i < t.size(); ++i) {
        char c = t[i];
        if (c == '\\') {
            if (i + 1 >= t.size()) return false;
            char n = t[i + 1];
            if (n == 'Q') {
                size_t end = t.find("\\E", i + 2);
                if (end == std::string_view::npos) return false;
                item(end > i + 2);
                i = end + 1;
                continue;
            }
            item(std::string_view("bBAZzGK").find(n) == std::string_view::npos);
            ++i;
        } else if (c == '[') {
            size_t j = i + 1;
            if (j < t.size() && t[j] == '^') ++j;
            if (j < t.size() && t[j] == ']') ++j;
            while (j < t.size() && t[j] != ']') {
                if (t[j] == '[' && j + 1 < t.size() && t[j + 1] == ':') {
                    size_t end = t.find(":]", j + 2);
                    j = end == std::string_view::npos ? j + 1 : end + 2;
                } else {
                    j += t[j] == '\\' ? 2 : 1;
                }
            }
            item(true);
            i = j;
        } else if (c == '^' || c == '$') {
            item(false);
        } else if (c == '*' || c == '?' || c == '+' || c == '{') {
            bool optional = c == '*' || c == '?';
            if (c == '{') {
                size_t end = t.find('}', i);
                if (end == std::string_view::npos) return false;
                optional = i + 1 < t.size() && t[i + 1] == '0';
                i = end;
            }
            if (optional) stack.back().consumed = stack.back().before_last;
            if (i + 1 < t.size() && (t[i + 1] == '?' || t[i + 1] == '+')) ++i;
        } else if (c == '|') {
            Group& g = stack.back();
            g.all_consumed = g.all_consumed && g.consumed;
            g.consumed = g.before_last = false;
        } else if (c == ')') {
            if (stack.size() < 2) return false;
            Group g = stack.back();
            stack.pop_back();
            item(!g.lookaround && g.all_consumed && g.consumed);
        } else if (c == '(') {
            std::string_view rest = t.substr(i + 1);
            if (rest.substr(0, 1) == "*") {  // a verb
                size_t end = t.find(')', i);
                if (end == std::string_view::npos) return false;
                i = end;
                continue;
            }
            if (rest.substr(0, 1) != "?") {
                stack.push_back({++captures, false});
                continue;
            }
            if (rest.substr(0, 2) == "?|" || rest.substr(0, 2) == "?(") return false;
            if (rest.substr(0, 2) == "?#") {
                size_t end = t.find(')', i);
                if (end == std::string_view::npos) return false;
                i = end;
                continue;
            }
            if (rest.substr(0, 2) == "?=" || rest.substr(0, 2) == "?!" || rest.substr(0, 3) == "?<=" ||
                rest.substr(0, 3) == "?<!") {
                stack.push_back({-1, true});
                i += rest[1] == '<' ? 3 : 2;
                continue;
            }
            // Named groups: (?<name> (?'name' (?P<name>
            size_t name_at = rest.substr(0, 2) == "?<" || rest.substr(0, 2) == "?'" ? 2
                             : rest.substr(0, 3) == "?P<"                         ? 3
                                                                                  : 0;
            if (name_at) {
                size_t end = rest.find_first_of(">'", name_at);
                if (end == std::string_view::npos) return false;
                names.emplace_back(std::string(rest.substr(name_at, end - name_at)), ++captures);
                stack.push_back({captures, false});
                i += end + 1;
                continue;
            }
            // A call: (?R) (?N) (?+N) (?-N) (?&name) (?P>name)
            size_t close = t.find(')', i);
            if (close == std::string_view::npos) return false;
            std::string_view body = t.substr(i + 2, close - i - 2);
            int target = -1;
            if (body == "R") {
                target = 0;
            } else if (!body.empty() && (digit(body[0]) || body[0] == '+' || body[0] == '-')) {
                size_t from = digit(body[0]) ? 0 : 1;
                if (body.size() <= from || body.size() - from > 5) return false;
                for (size_t k = from; k < body.size(); ++k)
                    if (!digit(body[k])) return false;
                int n = std::stoi(std::string(body.substr(from)));
                target = body[0] == '+' ? captures + n : body[0] == '-' ? captures - n + 1 : n;
            } else if (body.substr(0, 1) == "&" || body.substr(0, 2) == "P>") {
                std::string_view name = body.substr(body[0] == '&' ? 1 : 2);
                for (auto& [n, g] : names)
                    if (n == name) target = g;
            } else {
                // A group (?:...), (?>...), (?i:...), or options (?i)
                if (rest.size() > 1 && (rest[1] == ':' || rest[1] == '>')) {
                    stack.push_back({-1, false});
                    i += 2;
                    continue;
                }
                size_t end = rest.find_first_of(":)");
                if (end == std::string_view::npos) return false;
                for (size_t k = 1; k < end; ++k)
                    if (!std::isalpha(static_cast<unsigned char>(rest[k])) && rest[k] != '-') return false;
                if (rest[end] == ')') {
                    i = close;
                } else {
                    stack.push_back({-1, false});
                    i += end + 1;
                }
                continue;
            }
            if (target >= 0)
                for (size_t k = stack.size(); k-- > 0;) {
                    if (stack[k].consumed) break;
                    if (stack[k].number == target) {
                        at = close;
                        return true;
                    }
                }
            item(true);
            i = close;
        } else {
            item(true);
        }
    }
    return false;
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
        } else if (off < t.size() && (std::isdigit(static_cast<unsigned char>(t[off])) ||
                                      (t[off] == '}' && off > 0 && std::isdigit(static_cast<unsigned char>(t[off - 1]))))) {
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

bool pcre1_refuses(std::string_view t, CompileError& err) {
    // Start-of-pattern items: PCRE 8.44 reads an unknown one as a verb name (letters) and
    // reports it where the letters end.
    static const std::string_view pcre2_only[] = {"NOTEMPTY)", "NOTEMPTY_ATSTART)", "LIMIT_HEAP=", "LIMIT_DEPTH=",
                                                  "NO_DOTSTAR_ANCHOR)", "NO_JIT)", "NUL)"};
    size_t pos = 0;
    while (t.substr(pos, 2) == "(*") {
        std::string_view item = t.substr(pos + 2);
        for (std::string_view name : pcre2_only)
            if (item.substr(0, name.size()) == name) {
                size_t end = pos + 2;
                while (end < t.size() && std::isalpha(static_cast<unsigned char>(t[end]))) ++end;
                err = {pcre1_message(160), end};
                return true;
            }
        size_t close = t.find(')', pos);
        if (close == std::string_view::npos) break;
        pos = close + 1;
    }
    size_t loop_at;
    if (recursion_could_loop(t, loop_at)) {
        err = {"recursive call could loop indefinitely", loop_at};
        return true;
    }
    // (?^ anywhere outside classes, escapes and \Q...\E.
    for (size_t i = 0; i + 2 < t.size(); ++i) {
        char c = t[i];
        if (c == '\\') {
            if (t[i + 1] == 'Q') {
                size_t end = t.find("\\E", i + 2);
                if (end == std::string_view::npos) return false;
                i = end + 1;
            } else {
                ++i;
            }
        } else if (c == '[') {
            size_t j = i + 1;
            if (j < t.size() && t[j] == '^') ++j;
            if (j < t.size() && t[j] == ']') ++j;
            while (j < t.size() && t[j] != ']') {
                if (t[j] == '[' && j + 1 < t.size() && t[j + 1] == ':') {
                    size_t end = t.find(":]", j + 2);
                    j = end == std::string_view::npos ? j + 1 : end + 2;
                } else {
                    j += t[j] == '\\' ? 2 : 1;
                }
            }
            i = j;
        } else if (c == '(' && t[i + 1] == '?' && t[i + 2] == '^') {
            err = {pcre1_message(111), i + 2};
            return true;
        } else if (c == '(' && t.substr(i, 3) == "(?<" && i + 3 < t.size() && (t[i + 3] == '=' || t[i + 3] == '!')) {
            // A back reference in a lookbehind: never of fixed length for PCRE 8.44.
            size_t close = closing_paren(t, i);
            if (has_back_reference(t.substr(i + 4, close > i + 4 ? close - i - 4 : 0))) {
                err = {pcre1_message(125), close};
                return true;
            }
        }
    }
    return false;
}

size_t literal_fix_at(std::string_view t, int code, size_t off, bool& insert) {
    auto npos = std::string_view::npos;
    insert = false;
    // [\d-z]: after a class escape a hyphen is a character in PCRE 8.44; PCRE2 points at it.
    if (code == 150 && off < t.size() && t[off] == '-' && off >= 2 && t[off - 2] == '\\') {
        insert = true;
        return off;
    }
    // \y and other unknown escapes: PCRE2 points at the letter.
    if (code == 103 && off >= 1 && off < t.size() && t[off - 1] == '\\') return off - 1;
    // \K, \A, \B, \R, \X... in a class are the letters in PCRE 8.44; PCRE2 points at the letter.
    if (code == 107 && off >= 1 && off < t.size() && std::isalpha(static_cast<unsigned char>(t[off])) &&
        t[off - 1] == '\\')
        return off - 1;
    // \F: PCRE2 points after it; PCRE 8.44 refuses only \L, \l, \N{name}, \U and \u.
    if (code == 137 && off >= 2 && t[off - 1] == 'F' && t[off - 2] == '\\') return off - 2;
    // \8 and \9 that name no group are the digits in PCRE 8.44.
    if (code == 115 && off >= 1 && off < t.size() && (t[off] == '8' || t[off] == '9') && t[off - 1] == '\\')
        return off - 1;
    return npos;
}

}  // namespace beam::re

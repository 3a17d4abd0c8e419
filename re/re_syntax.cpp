// Where PCRE 8.44 and PCRE2 read a pattern differently, found on the pattern text before
// PCRE2 compiles it (re/re_pattern.hpp): syntax PCRE 8.44 refuses, and the escapes it takes
// literally. The scans skip escapes, \Q...\E and classes; they do not follow the extended
// option's comments.
#include <cctype>
#include <string>
#include <vector>

#include "re/re_pattern.hpp"

namespace beam::re {

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

namespace {

// Whether a part of a pattern holds a back reference (\1-\9, \g, \k, (?P=name)) that adds
// to its length: outside classes and nested lookarounds (which match no characters).
bool has_back_reference(std::string_view t) {
    for (size_t i = 0; i < t.size(); ++i) {
        std::string_view head = t.substr(i, 4);
        if (head.substr(0, 3) == "(?=" || head.substr(0, 3) == "(?!" || head == "(?<=" || head == "(?<!") {
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

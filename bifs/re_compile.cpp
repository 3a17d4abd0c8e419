// Parsing a regular expression into a tree (bifs/re_tree.hpp), which bifs/re_emit.cpp turns
// into the backtracking program (bifs/re_program.hpp). Error messages are PCRE's, which
// re:compile/2 returns.
#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <string>

#include "bifs/re_program.hpp"
#include "bifs/re_tree.hpp"

namespace beam::re {

namespace {


uint32_t fold_case(uint32_t c) {
    if (c >= 'A' && c <= 'Z') return c + 32;
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
    return c;
}

void add_range(CharClass& cls, uint32_t lo, uint32_t hi) { cls.ranges.push_back({lo, hi}); }

// The named sets: \d \w \s \h \v and their complements; POSIX classes.
void add_digit(CharClass& c) { add_range(c, '0', '9'); }
void add_word(CharClass& c) {
    add_range(c, '0', '9');
    add_range(c, 'A', 'Z');
    add_range(c, 'a', 'z');
    add_range(c, '_', '_');
}
void add_space(CharClass& c) {
    add_range(c, '\t', '\r');  // \t \n \v \f \r
    add_range(c, ' ', ' ');
}
void add_hspace(CharClass& c) {
    add_range(c, '\t', '\t');
    add_range(c, ' ', ' ');
    add_range(c, 0xA0, 0xA0);
    add_range(c, 0x1680, 0x1680);
    add_range(c, 0x180E, 0x180E);
    add_range(c, 0x2000, 0x200A);
    add_range(c, 0x202F, 0x202F);
    add_range(c, 0x205F, 0x205F);
    add_range(c, 0x3000, 0x3000);
}
void add_vspace(CharClass& c) {
    add_range(c, '\n', '\r');
    add_range(c, 0x85, 0x85);
    add_range(c, 0x2028, 0x2029);
}

// The complement of `set` within all code points, added to `into`.
void add_complement(CharClass& into, CharClass set) {
    std::sort(set.ranges.begin(), set.ranges.end());
    uint32_t next = 0;
    for (auto [lo, hi] : set.ranges) {
        if (lo > next) add_range(into, next, lo - 1);
        next = std::max(next, hi + 1);
    }
    if (next <= 0x10FFFF) add_range(into, next, 0x10FFFF);
}

bool posix_class(std::string_view name, CharClass& c) {
    if (name == "alpha") add_range(c, 'a', 'z'), add_range(c, 'A', 'Z');
    else if (name == "digit") add_digit(c);
    else if (name == "alnum") add_range(c, 'a', 'z'), add_range(c, 'A', 'Z'), add_digit(c);
    else if (name == "space") add_space(c);
    else if (name == "blank") add_range(c, ' ', ' '), add_range(c, '\t', '\t');
    else if (name == "upper") add_range(c, 'A', 'Z');
    else if (name == "lower") add_range(c, 'a', 'z');
    else if (name == "punct") add_range(c, '!', '/'), add_range(c, ':', '@'), add_range(c, '[', '`'), add_range(c, '{', '~');
    else if (name == "xdigit") add_digit(c), add_range(c, 'a', 'f'), add_range(c, 'A', 'F');
    else if (name == "word") add_word(c);
    else if (name == "cntrl") add_range(c, 0, 31), add_range(c, 127, 127);
    else if (name == "print") add_range(c, 32, 126);
    else if (name == "graph") add_range(c, 33, 126);
    else if (name == "ascii") add_range(c, 0, 127);
    else return false;
    return true;
}

class Parser {
public:
    Parser(std::string_view p, uint32_t options, std::vector<CharClass>& classes)
        : p_(p), opts_(options), classes_(classes) {
        caseless_ = options & CASELESS;
        multiline_ = options & MULTILINE;
        dotall_ = options & DOTALL;
        extended_ = options & EXTENDED;
        ungreedy_ = options & UNGREEDY;
    }

    Node parse() {
        Node n = alternation();
        if (i_ < p_.size()) fail("unmatched closing parenthesis", i_);
        return n;
    }

    int groups = 0;
    std::vector<std::pair<std::string, int>> names;

private:
    [[noreturn]] void fail(const char* m, size_t at) { throw Fail{m, at}; }

    bool unicode() const { return opts_ & UNICODE; }
    bool at_end() const { return i_ >= p_.size(); }
    uint32_t peek() const { return uint8_t(p_[i_]); }

    // The next pattern character (a code point with `unicode`).
    uint32_t next_char() {
        uint8_t b = uint8_t(p_[i_++]);
        if (!unicode() || b < 0x80) return b;
        int len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        uint32_t cp = b & (0x3F >> (len - 1));
        for (int k = 1; k < len && i_ < p_.size(); ++k) cp = (cp << 6) | (uint8_t(p_[i_++]) & 0x3F);
        return cp;
    }

    void skip_extended() {
        if (!extended_) return;
        while (!at_end()) {
            uint32_t c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
                ++i_;
            } else if (c == '#') {
                while (!at_end() && peek() != '\n') ++i_;
            } else {
                break;
            }
        }
    }

    Node alternation() {
        std::vector<Node> branches{concatenation()};
        while (!at_end() && peek() == '|') {
            ++i_;
            branches.push_back(concatenation());
        }
        if (branches.size() == 1) return std::move(branches[0]);
        Node alt{Node::Alt};
        alt.kids = std::move(branches);
        return alt;
    }

    Node concatenation() {
        Node cat{Node::Concat};
        for (;;) {
            skip_extended();
            if (at_end() || peek() == '|' || peek() == ')') break;
            size_t at = i_;
            std::optional<Node> atom_node = atom();
            if (!atom_node) continue;  // an option setting or comment
            quantifier(*atom_node, at);
            cat.kids.push_back(std::move(*atom_node));
        }
        return cat;
    }

    bool quantifiable(const Node& n) {
        switch (n.kind) {
        case Node::Bol: case Node::Eol: case Node::WordB: case Node::NotWordB: case Node::SubjStart:
        case Node::SubjEnd: case Node::SubjEndNl: case Node::MatchStart: return false;
        default: return true;
        }
    }

    // {n}, {n,}, {n,m}: true and the counts, or false when the brace is a literal.
    bool braces(int& lo, int& hi) {
        size_t j = i_ + 1;
        auto number = [&](int& out) {
            size_t start = j;
            long v = 0;
            while (j < p_.size() && p_[j] >= '0' && p_[j] <= '9') v = v * 10 + (p_[j++] - '0');
            if (j == start) return false;
            if (v > 65535) fail("number too big in {} quantifier", j);
            out = int(v);
            return true;
        };
        if (!number(lo)) return false;
        if (j < p_.size() && p_[j] == '}') {
            hi = lo;
        } else if (j < p_.size() && p_[j] == ',') {
            ++j;
            if (j < p_.size() && p_[j] == '}') hi = -1;
            else if (!number(hi) || j >= p_.size() || p_[j] != '}') return false;
        } else {
            return false;
        }
        if (hi != -1 && hi < lo) fail("numbers out of order in {} quantifier", j);
        i_ = j + 1;
        return true;
    }

    void quantifier(Node& n, size_t at) {
        skip_extended();
        if (at_end()) return;
        int lo, hi;
        uint32_t c = peek();
        if (c == '*') lo = 0, hi = -1, ++i_;
        else if (c == '+') lo = 1, hi = -1, ++i_;
        else if (c == '?') lo = 0, hi = 1, ++i_;
        else if (c == '{') {
            if (!braces(lo, hi)) return;
        } else {
            return;
        }
        if (!quantifiable(n)) {
            // PCRE allows quantified assertions only in a few forms; an anchor repeated is an error.
            fail("nothing to repeat", at);
        }
        Node rep{Node::Repeat};
        rep.min = lo;
        rep.max = hi;
        rep.greedy = !ungreedy_;
        if (!at_end() && peek() == '?') {
            rep.greedy = !rep.greedy;
            ++i_;
        } else if (!at_end() && peek() == '+') {
            rep.possessive = true;
            ++i_;
        }
        rep.kids.push_back(std::move(n));
        n = std::move(rep);
        skip_extended();
        if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?' ||
                          (peek() == '{' && [&] { size_t s = i_; int a, b; bool ok = braces(a, b); i_ = s; return ok; }())))
            fail("nothing to repeat", i_);
    }

    Node char_node(uint32_t c) {
        Node n{Node::Char};
        n.c = caseless_ ? fold_case(c) : c;
        n.fold = caseless_;
        return n;
    }

    Node class_node(CharClass cls) {
        if (caseless_) fold_class(cls);
        Node n{Node::Class};
        n.index = int(classes_.size());
        classes_.push_back(std::move(cls));
        return n;
    }

    static void fold_class(CharClass& cls) {
        auto ranges = cls.ranges;
        for (auto [lo, hi] : ranges)
            for (uint32_t c = lo; c <= hi && c < 256; ++c) {
                uint32_t f = fold_case(c);
                if (f != c) add_range(cls, f, f);
                else if (c >= 'a' && c <= 'z') add_range(cls, c - 32, c - 32);
                else if (c >= 0xE0 && c <= 0xFE && c != 0xF7) add_range(cls, c - 32, c - 32);
            }
    }

    std::optional<Node> atom() {
        size_t at = i_;
        uint32_t c = next_char();
        switch (c) {
        case '.': {
            Node n{Node::Any};
            n.flag = dotall_;
            return n;
        }
        case '^': {
            Node n{Node::Bol};
            n.flag = multiline_;
            return n;
        }
        case '$': {
            Node n{Node::Eol};
            n.flag = multiline_;
            n.flag2 = opts_ & DOLLAR_ENDONLY;
            return n;
        }
        case '[': return parse_class(at);
        case '(': return group(at);
        case ')': fail("unmatched closing parenthesis", at);
        case '*': case '+': case '?': fail("nothing to repeat", at);
        case '\\': return escape(at);
        case '{': {
            size_t s = i_ - 1;
            i_ = s;
            int a, b;
            if (braces(a, b)) fail("nothing to repeat", at);
            i_ = s + 1;
            return char_node('{');
        }
        default: return char_node(c);
        }
    }

    uint32_t hex_escape(size_t at) {
        uint32_t v = 0;
        if (!at_end() && peek() == '{') {
            ++i_;
            size_t start = i_;
            while (!at_end() && isxdigit(int(peek()))) v = v * 16 + hexval(p_[i_++]);
            if (at_end() || peek() != '}' || i_ == start) fail("\\x{...} sequence is malformed", at);
            ++i_;
            if (!unicode() && v > 0xFF) fail("character value in \\x{} or \\o{} is too large", i_);
            if (v > 0x10FFFF) fail("character value in \\x{} or \\o{} is too large", i_);
            return v;
        }
        for (int k = 0; k < 2 && !at_end() && isxdigit(int(peek())); ++k) v = v * 16 + hexval(p_[i_++]);
        return v;
    }
    static uint32_t hexval(char c) {
        return c <= '9' ? uint32_t(c - '0') : uint32_t((c | 0x20) - 'a' + 10);
    }

    // A character escape usable in and out of classes: true and the character, or false.
    bool char_escape(uint32_t e, size_t at, uint32_t& out) {
        switch (e) {
        case 'n': out = '\n'; return true;
        case 't': out = '\t'; return true;
        case 'r': out = '\r'; return true;
        case 'f': out = '\f'; return true;
        case 'e': out = 0x1B; return true;
        case 'a': out = 7; return true;
        case 'x': out = hex_escape(at); return true;
        case 'c': {
            if (at_end()) fail("\\c at end of pattern", at);
            uint32_t ch = next_char();
            if (ch >= 'a' && ch <= 'z') ch -= 32;
            out = ch ^ 0x40;
            return true;
        }
        case '0': {
            uint32_t v = 0;
            for (int k = 0; k < 2 && !at_end() && peek() >= '0' && peek() <= '7'; ++k) v = v * 8 + (p_[i_++] - '0');
            out = v;
            return true;
        }
        default: return false;
        }
    }

    bool set_escape(uint32_t e, CharClass& cls) {
        CharClass set;
        switch (e) {
        case 'd': add_digit(cls); return true;
        case 'w': add_word(cls); return true;
        case 's': add_space(cls); return true;
        case 'h': add_hspace(cls); return true;
        case 'v': add_vspace(cls); return true;
        case 'D': add_digit(set); add_complement(cls, set); return true;
        case 'W': add_word(set); add_complement(cls, set); return true;
        case 'S': add_space(set); add_complement(cls, set); return true;
        case 'H': add_hspace(set); add_complement(cls, set); return true;
        case 'V': add_vspace(set); add_complement(cls, set); return true;
        default: return false;
        }
    }

    std::optional<Node> escape(size_t at) {
        if (at_end()) fail("\\ at end of pattern", at);
        uint32_t e = next_char();
        uint32_t ch;
        if (char_escape(e, at, ch)) return char_node(ch);
        CharClass cls;
        if (set_escape(e, cls)) {
            Node n{Node::Class};
            n.index = int(classes_.size());
            classes_.push_back(std::move(cls));
            return n;
        }
        switch (e) {
        case 'b': return Node{Node::WordB};
        case 'B': return Node{Node::NotWordB};
        case 'A': return Node{Node::SubjStart};
        case 'z': return Node{Node::SubjEnd};
        case 'Z': return Node{Node::SubjEndNl};
        case 'G': return Node{Node::MatchStart};
        case 'R': {  // a newline sequence: \r\n or one of \n \v \f \r \x85 \x{2028} \x{2029}
            Node alt{Node::Alt};
            Node crlf{Node::Concat};
            crlf.kids.push_back(Node{Node::Char, '\r'});
            crlf.kids.push_back(Node{Node::Char, '\n'});
            alt.kids.push_back(std::move(crlf));
            CharClass v;
            add_vspace(v);
            Node cl{Node::Class};
            cl.index = int(classes_.size());
            classes_.push_back(std::move(v));
            alt.kids.push_back(std::move(cl));
            Node atomic{Node::Atomic};
            atomic.kids.push_back(std::move(alt));
            return atomic;
        }
        case 'Q': {
            Node cat{Node::Concat};
            while (!at_end()) {
                if (peek() == '\\' && i_ + 1 < p_.size() && p_[i_ + 1] == 'E') {
                    i_ += 2;
                    break;
                }
                cat.kids.push_back(char_node(next_char()));
            }
            return cat;
        }
        case 'E': return std::nullopt;
        case 'g': case 'k': return named_or_relative_backref(e, at);
        case 'p': case 'P': fail("unknown property name after \\P or \\p", i_);
        default: break;
        }
        if (e >= '1' && e <= '9') {
            int n = int(e - '0');
            while (!at_end() && peek() >= '0' && peek() <= '9' && n * 10 + int(peek() - '0') <= groups_seen_max())
                n = n * 10 + int(p_[i_++] - '0');
            Node b{Node::Backref};
            b.index = n;
            b.fold = caseless_;
            backrefs_.push_back({n, at});
            return b;
        }
        if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z')) fail("unrecognized character follows \\", i_);
        return char_node(e);
    }

    int groups_seen_max() const { return 9999; }

    Node named_or_relative_backref(uint32_t e, size_t at) {
        Node b{Node::Backref};
        b.fold = caseless_;
        if (at_end()) fail("a numbered reference must not be zero", at);
        uint32_t open = peek();
        uint32_t close = open == '{' ? '}' : open == '<' ? '>' : open == '\'' ? '\'' : 0;
        if (close) ++i_;
        size_t start = i_;
        while (!at_end() && peek() != close && (close || (peek() >= '0' && peek() <= '9') || peek() == '-')) ++i_;
        std::string ref(p_.substr(start, i_ - start));
        if (close) {
            if (at_end()) fail("\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number", at);
            ++i_;
        }
        bool numeric = !ref.empty() && (std::isdigit(uint8_t(ref[0])) || (ref[0] == '-' && ref.size() > 1));
        if (numeric) {
            int n = std::stoi(ref);
            if (n < 0) n = groups + 1 + n;
            if (n <= 0) fail("a numbered reference must not be zero", at);
            b.index = n;
            backrefs_.push_back({n, at});
        } else {
            if (ref.empty()) fail("group name must start with a non-digit", at);
            b.backref_name = ref;
            (void)e;
        }
        return b;
    }

    Node parse_class(size_t at) {
        CharClass cls;
        if (!at_end() && peek() == '^') {
            cls.negated = true;
            ++i_;
        }
        bool first = true;
        for (;;) {
            if (at_end()) fail("missing terminating ] for character class", p_.size());
            uint32_t c = peek();
            if (c == ']' && !first) {
                ++i_;
                break;
            }
            first = false;
            if (c == '[' && i_ + 1 < p_.size() && p_[i_ + 1] == ':') {
                size_t end = p_.find(":]", i_ + 2);
                if (end != std::string_view::npos) {
                    std::string_view name = p_.substr(i_ + 2, end - i_ - 2);
                    bool neg = !name.empty() && name[0] == '^';
                    if (neg) name.remove_prefix(1);
                    CharClass set;
                    if (!posix_class(name, set)) fail("unknown POSIX class name", i_);
                    if (neg) add_complement(cls, set);
                    else cls.ranges.insert(cls.ranges.end(), set.ranges.begin(), set.ranges.end());
                    i_ = end + 2;
                    continue;
                }
            }
            uint32_t lo;
            if (!class_char(lo, cls)) continue;  // a set escape was added
            if (!at_end() && peek() == '-' && i_ + 1 < p_.size() && p_[i_ + 1] != ']') {
                size_t save = i_;
                ++i_;
                uint32_t hi;
                CharClass tmp;
                if (!class_char(hi, tmp)) {  // [a-\d]: '-' is literal
                    add_range(cls, lo, lo);
                    add_range(cls, '-', '-');
                    cls.ranges.insert(cls.ranges.end(), tmp.ranges.begin(), tmp.ranges.end());
                    continue;
                }
                if (hi < lo) fail("range out of order in character class", i_ - 1);
                (void)save;
                add_range(cls, lo, hi);
            } else {
                add_range(cls, lo, lo);
            }
        }
        (void)at;
        return class_node(std::move(cls));
    }

    // One class member: a character (true), or a set escape added to `cls` (false).
    bool class_char(uint32_t& out, CharClass& cls) {
        size_t at = i_;
        uint32_t c = next_char();
        if (c != '\\') return out = c, true;
        if (at_end()) fail("\\ at end of pattern", at);
        uint32_t e = next_char();
        if (char_escape(e, at, out)) return true;
        if (set_escape(e, cls)) return false;
        if (e == 'b') return out = 8, true;
        if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z')) fail("unrecognized character follows \\", i_);
        out = e;
        return true;
    }

    // Inline options: i m s x U and -; stops at ')' or ':'.
    void option_letters(size_t at) {
        bool on = true;
        while (!at_end() && peek() != ')' && peek() != ':') {
            char c = char(p_[i_++]);
            switch (c) {
            case '-': on = false; break;
            case 'i': caseless_ = on; break;
            case 'm': multiline_ = on; break;
            case 's': dotall_ = on; break;
            case 'x': extended_ = on; break;
            case 'U': ungreedy_ = on; break;
            case 'J': break;
            default: fail("unrecognized character after (? or (?-", i_ - 1);
            }
        }
        if (at_end()) fail("missing )", at);
    }

    struct Flags {
        bool caseless, multiline, dotall, extended, ungreedy;
    };
    Flags flags() const { return {caseless_, multiline_, dotall_, extended_, ungreedy_}; }
    void restore(const Flags& f) {
        caseless_ = f.caseless, multiline_ = f.multiline, dotall_ = f.dotall, extended_ = f.extended,
        ungreedy_ = f.ungreedy;
    }

    Node close_group(Node n, size_t at) {
        if (at_end() || peek() != ')') fail("missing )", p_.size());
        ++i_;
        (void)at;
        return n;
    }

    // (?R) (?N) (?+N) (?-N) (?&name) (?P>name): a call of a group's pattern.
    Node subroutine(size_t at) {
        Node call{Node::Call};
        if (peek() == '&' || peek() == 'P') {
            i_ += peek() == 'P' ? 2 : 1;
            size_t start = i_;
            while (!at_end() && (std::isalnum(int(peek())) || peek() == '_')) ++i_;
            call.backref_name = std::string(p_.substr(start, i_ - start));
            if (call.backref_name.empty()) fail("group name must start with a non-digit", i_);
        } else if (peek() == 'R') {
            ++i_;
            call.index = 0;
        } else {
            int sign = peek() == '+' ? 1 : peek() == '-' ? -1 : 0;
            if (sign) ++i_;
            int n = 0;
            while (!at_end() && std::isdigit(int(peek()))) n = n * 10 + int(p_[i_++] - '0');
            call.index = sign > 0 ? groups + n : sign < 0 ? groups + 1 - n : n;
            if (sign && n == 0) fail("a numbered reference must not be zero", i_);
            if (call.index < 0) fail("reference to non-existent subpattern", i_);
        }
        if (at_end() || peek() != ')') fail("(?R or (?[+-]digits must be followed by )", i_);
        ++i_;
        if (call.index > 0) backrefs_.push_back({call.index, at});
        return call;
    }

    std::optional<Node> group(size_t at) {
        Flags saved = flags();
        Node g{Node::Group};
        if (!at_end() && peek() == '?') {
            ++i_;
            if (at_end()) fail("unrecognized character after (? or (?-", i_);
            uint32_t k = peek();
            if (k == '#') {
                while (!at_end() && peek() != ')') ++i_;
                if (at_end()) fail("missing ) after comment", i_);
                ++i_;
                return std::nullopt;
            }
            if (k == ':' || k == '=' || k == '!' || k == '>') {
                ++i_;
                Node inner = alternation();
                restore(saved);
                inner = close_group(std::move(inner), at);
                if (k == ':') {
                    g.kids.push_back(std::move(inner));
                    return g;
                }
                Node n{k == '>' ? Node::Atomic : Node::Look};
                n.negated = k == '!';
                n.kids.push_back(std::move(inner));
                return n;
            }
            if (k == '<' && i_ + 1 < p_.size() && (p_[i_ + 1] == '=' || p_[i_ + 1] == '!')) {
                bool neg = p_[i_ + 1] == '!';
                i_ += 2;
                Node inner = alternation();
                restore(saved);
                inner = close_group(std::move(inner), at);
                Node n{Node::Look};
                n.behind = true;
                n.negated = neg;
                n.kids.push_back(std::move(inner));
                return n;
            }
            if (k == '<' || k == '\'' || k == 'P') {
                if (k == 'P') {
                    ++i_;
                    if (at_end() || peek() != '<') {
                        if (!at_end() && (peek() == '=' || peek() == '>')) fail("recursion and named back references via (?P are not supported", i_);
                        fail("unrecognized character after (?P", i_);
                    }
                }
                uint32_t close = peek() == '\'' ? '\'' : '>';
                ++i_;
                size_t start = i_;
                while (!at_end() && (std::isalnum(int(peek())) || peek() == '_')) ++i_;
                if (at_end() || peek() != close) fail("syntax error in subpattern name (missing terminator)", i_);
                std::string name(p_.substr(start, i_ - start));
                if (name.empty() || std::isdigit(uint8_t(name[0]))) fail("group name must start with a non-digit", start);
                ++i_;
                g.index = ++groups;
                for (auto& [n, idx] : names)
                    if (n == name && !(opts_ & DUPNAMES)) fail("two named subpatterns have the same name", i_);
                names.push_back({name, g.index});
                g.kids.push_back(alternation());
                restore(saved);
                return close_group(std::move(g), at);
            }
            if (k == 'R' || (k >= '0' && k <= '9') || k == '+' || (k == '-' && i_ + 1 < p_.size() && std::isdigit(uint8_t(p_[i_ + 1]))) ||
                k == '&' || (k == 'P' && i_ + 1 < p_.size() && p_[i_ + 1] == '>'))
                return subroutine(at);
            if (k == '|') {  // branch reset: each alternative numbers its groups from the same start
                ++i_;
                int base = groups, most = groups;
                std::vector<Node> branches;
                for (;;) {
                    groups = base;
                    branches.push_back(concatenation());
                    most = std::max(most, groups);
                    if (at_end() || peek() != '|') break;
                    ++i_;
                }
                groups = most;
                restore(saved);
                Node alt{Node::Alt};
                alt.kids = std::move(branches);
                g.kids.push_back(close_group(std::move(alt), at));
                return g;
            }
            if (k == '(' || k == 'C') fail("conditions and callouts are not supported", i_);
            // Option settings: (?i) for the rest of the group, (?i:...) for the group.
            option_letters(at);
            if (peek() == ')') {
                ++i_;
                return std::nullopt;  // the flags stay changed until the enclosing group ends
            }
            ++i_;  // ':'
            Node inner = alternation();
            restore(saved);
            g.kids.push_back(close_group(std::move(inner), at));
            return g;
        }
        if (!(opts_ & NO_AUTO_CAPTURE)) g.index = ++groups;
        g.kids.push_back(alternation());
        restore(saved);
        return close_group(std::move(g), at);
    }

public:
    std::vector<std::pair<int, size_t>> backrefs_;

private:
    std::string_view p_;
    size_t i_ = 0;
    uint32_t opts_;
    std::vector<CharClass>& classes_;
    bool caseless_, multiline_, dotall_, extended_, ungreedy_;
};

}  // namespace

bool CharClass::contains(uint32_t c) const {
    bool in = false;
    for (auto [lo, hi] : ranges)
        if (c >= lo && c <= hi) {
            in = true;
            break;
        }
    return in != negated;
}

std::shared_ptr<Regex> compile(std::string_view pattern, uint32_t options, CompileError& err) {
    auto re = std::make_shared<Regex>();
    re->options = options;
    std::vector<CharClass> classes;
    try {
        Parser parser(pattern, options, classes);
        Node root = parser.parse();
        re->groups = parser.groups;
        re->names = parser.names;
        std::sort(re->names.begin(), re->names.end());
        for (auto [n, at] : parser.backrefs_)
            if (n > re->groups) throw Fail{"reference to non-existent subpattern", at};
        // Resolve \k<name> now that every name is known.
        std::function<void(Node&)> resolve = [&](Node& n) {
            if ((n.kind == Node::Backref || n.kind == Node::Call) && !n.backref_name.empty()) {
                auto it = std::find_if(re->names.begin(), re->names.end(),
                                       [&](auto& e) { return e.first == n.backref_name; });
                if (it == re->names.end()) throw Fail{"reference to non-existent subpattern", pattern.size()};
                n.index = it->second;
            }
            for (Node& k : n.kids) resolve(k);
        };
        resolve(root);
        int registers = 2 * (re->groups + 1);
        re->prog = emit_program(*re, registers, root, classes);
        // Groups that are called get programs of their own (the whole pattern for (?R)).
        std::vector<const Node*> group_nodes(size_t(re->groups) + 1, nullptr);
        std::vector<bool> called(size_t(re->groups) + 1, false);
        std::function<void(const Node&)> walk = [&](const Node& n) {
            if (n.kind == Node::Group && n.index > 0) group_nodes[size_t(n.index)] = &n;
            if (n.kind == Node::Call) called[size_t(n.index)] = true;
            for (const Node& k : n.kids) walk(k);
        };
        walk(root);
        re->calls.resize(size_t(re->groups) + 1);
        for (size_t g = 0; g < called.size(); ++g) {
            if (!called[g]) continue;
            if (g == 0) {
                re->calls[0] = re->prog;
            } else {
                re->calls[g] = emit_program(*re, registers, *group_nodes[g], classes);
            }
        }
        re->prog->registers = registers;
    } catch (const Fail& f) {
        err = {f.message, f.offset};
        return nullptr;
    }
    return re;
}

}  // namespace beam::re

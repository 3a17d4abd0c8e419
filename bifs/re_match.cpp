// Running a compiled regular expression (bifs/re_program.hpp): a backtracking machine with an
// explicit stack of choice points and undo records, so captures are restored on backtracking
// and no subject length or pattern nests on the C stack (lookaround runs a sub-program, which
// nests only as deep as the pattern does).
#include "bifs/re_program.hpp"

namespace beam::re {

namespace {

uint32_t fold(uint32_t c) {
    if (c >= 'A' && c <= 'Z') return c + 32;
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
    return c;
}

bool is_word(uint32_t c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

class Machine {
public:
    Machine(const Regex& re, std::string_view s, size_t start, uint32_t opts, uint64_t& steps, uint64_t limit)
        : re_(re), s_(s), start_(start), opts_(opts), steps_(steps), limit_(limit), utf8_(re.unicode()) {}

    // Runs `prog` at `pos` with registers `regs`; the end position, or -1 (no match), -2 (limit).
    long run(const Program& prog, size_t pos, std::vector<long>& regs, bool top = true) {
        struct Entry {
            enum Kind : uint8_t { Choice, Undo } kind;
            int32_t a;  // Choice: pc; Undo: register
            long b;     // Choice: position; Undo: old value
        };
        std::vector<Entry> stack;
        size_t pc = 0;
        auto set_reg = [&](int r, long v) {
            stack.push_back({Entry::Undo, r, regs[r]});
            regs[r] = v;
        };
        for (;;) {
            if (++steps_ > limit_) return -2;
            const Inst& in = prog.code[pc];
            bool ok = true;
            switch (in.op) {
            case Op::Char: {
                if (pos >= s_.size()) { ok = false; break; }
                size_t len;
                uint32_t c = decode(pos, len);
                if (in.fold ? fold(c) != in.c : c != in.c) { ok = false; break; }
                pos += len;
                ++pc;
                break;
            }
            case Op::Any: {
                if (pos >= s_.size()) { ok = false; break; }
                size_t len;
                uint32_t c = decode(pos, len);
                if (!in.flag && is_newline_char(c)) { ok = false; break; }
                pos += len;
                ++pc;
                break;
            }
            case Op::Class: {
                if (pos >= s_.size()) { ok = false; break; }
                size_t len;
                uint32_t c = decode(pos, len);
                if (!prog.classes[in.x].contains(c)) { ok = false; break; }
                pos += len;
                ++pc;
                break;
            }
            case Op::Split:
                stack.push_back({Entry::Choice, in.y, long(pos)});
                pc = size_t(in.x);
                break;
            case Op::Jmp: pc = size_t(in.x); break;
            case Op::Save: set_reg(in.x, long(pos)); ++pc; break;
            case Op::Close:
                set_reg(2 * in.x, regs[in.y]);
                set_reg(2 * in.x + 1, long(pos));
                ++pc;
                break;
            case Op::Bol:
                // Multiline: also after a newline that is not the subject's last character.
                if (pos == 0 ? (opts_ & NOTBOL) != 0 : !(in.flag && pos < s_.size() && newline_ends_at(pos))) ok = false;
                else ++pc;
                break;
            case Op::Eol: ok = at_eol(pos, in.flag, in.flag2); if (ok) ++pc; break;
            case Op::WordB:
            case Op::NotWordB: {
                bool before = pos > 0 && is_word(uint8_t(s_[pos - 1]));
                bool after = pos < s_.size() && is_word(uint8_t(s_[pos]));
                ok = (before != after) == (in.op == Op::WordB);
                if (ok) ++pc;
                break;
            }
            case Op::SubjStart: ok = pos == 0; if (ok) ++pc; break;
            case Op::SubjEnd: ok = pos == s_.size(); if (ok) ++pc; break;
            case Op::SubjEndNl:
                ok = pos == s_.size() || (newline_at(pos) > 0 && pos + newline_at(pos) == s_.size());
                if (ok) ++pc;
                break;
            case Op::MatchStart: ok = pos == start_; if (ok) ++pc; break;
            case Op::SetReg: set_reg(in.x, long(pos)); ++pc; break;
            case Op::Progress:
                // An iteration that matched nothing ends the loop (it would only repeat).
                pc = regs[in.x] != long(pos) ? size_t(in.y) : pc + 1;
                break;
            case Op::AtomicBegin: set_reg(in.x, long(stack.size())); ++pc; break;
            case Op::AtomicEnd: {
                // Drop the choices made inside the group; keep its undo records.
                size_t mark = size_t(regs[in.x]);
                size_t w = mark;
                for (size_t r = mark; r < stack.size(); ++r)
                    if (stack[r].kind == Entry::Undo) stack[w++] = stack[r];
                stack.resize(w);
                ++pc;
                break;
            }
            case Op::Look: {
                const LookAround& la = prog.looks[in.x];
                std::vector<long> saved = regs;
                bool found = false;
                for (size_t b = 0; b < la.branches.size() && !found; ++b) {
                    long at = long(pos);
                    if (la.behind) {
                        at = back(pos, la.lengths[b]);
                        if (at < 0) continue;
                    }
                    long end = run(*la.branches[b], size_t(at), regs, false);
                    if (end == -2) return -2;
                    found = end >= 0 && (!la.behind || size_t(end) == pos);
                    if (!found) regs = saved;
                }
                if (found == la.negated) {
                    regs = saved;
                    ok = false;
                    break;
                }
                if (la.negated) {
                    regs = saved;
                } else {
                    // Captures set inside stay, undone if the outer match backtracks past here.
                    for (size_t r = 0; r < regs.size(); ++r)
                        if (regs[r] != saved[r]) stack.push_back({Entry::Undo, int32_t(r), saved[r]});
                }
                ++pc;
                break;
            }
            case Op::Backref: {
                long s = regs[2 * in.x], e = regs[2 * in.x + 1];
                if (s < 0 || e < 0) { ok = false; break; }  // an unset group matches nothing (PCRE)
                size_t len = size_t(e - s);
                if (pos + len > s_.size()) { ok = false; break; }
                for (size_t k = 0; k < len && ok; ++k) {
                    uint32_t a = uint8_t(s_[size_t(s) + k]), b = uint8_t(s_[pos + k]);
                    ok = in.fold ? fold(a) == fold(b) : a == b;
                }
                if (ok) {
                    pos += len;
                    ++pc;
                }
                break;
            }
            case Op::Call: {
                // PCRE 8: a called group is atomic and its captures are undone after the call.
                if (++depth_ > 1000) return -2;
                std::vector<long> saved = regs;
                long end = run(*re_.calls[size_t(in.x)], pos, regs, false);
                --depth_;
                regs = std::move(saved);
                if (end == -2) return -2;
                if (end < 0) { ok = false; break; }
                pos = size_t(end);
                ++pc;
                break;
            }
            case Op::Match:
                if (top && (opts_ & NOTEMPTY) && long(pos) == regs[0]) { ok = false; break; }
                if (top && (opts_ & NOTEMPTY_ATSTART) && long(pos) == regs[0] && pos == start_) { ok = false; break; }
                return long(pos);
            }
            if (ok) continue;
            // Backtrack: undo until the last choice point.
            for (;;) {
                if (stack.empty()) return -1;
                Entry e = stack.back();
                stack.pop_back();
                if (e.kind == Entry::Undo) {
                    regs[e.a] = e.b;
                    continue;
                }
                pc = size_t(e.a);
                pos = size_t(e.b);
                break;
            }
        }
    }

private:
    uint32_t decode(size_t pos, size_t& len) const {
        uint8_t b = uint8_t(s_[pos]);
        if (!utf8_ || b < 0x80) return len = 1, b;
        int n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
        uint32_t cp = n == 1 ? b : b & (0x3F >> (n - 1));
        size_t k = 1;
        for (; k < size_t(n) && pos + k < s_.size(); ++k) cp = (cp << 6) | (uint8_t(s_[pos + k]) & 0x3F);
        len = k;
        return cp;
    }

    // The position `chars` characters before `pos`, or -1.
    long back(size_t pos, uint32_t chars) const {
        long p = long(pos);
        for (uint32_t k = 0; k < chars; ++k) {
            if (p == 0) return -1;
            --p;
            if (utf8_)
                while (p > 0 && (uint8_t(s_[size_t(p)]) & 0xC0) == 0x80) --p;
        }
        return p;
    }

    bool is_newline_char(uint32_t c) const {
        uint32_t o = re_.options;
        if (o & NEWLINE_CR) return c == '\r';
        if (o & (NEWLINE_ANYCRLF | NEWLINE_CRLF)) return c == '\n' || c == '\r';
        if (o & NEWLINE_ANY) return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x85 || c == 0x2028 || c == 0x2029;
        return c == '\n';
    }

    // The length of the newline sequence at `pos` under the pattern's convention, or 0.
    size_t newline_at(size_t pos) const {
        if (pos >= s_.size()) return 0;
        uint32_t o = re_.options;
        char c = s_[pos];
        bool crlf = c == '\r' && pos + 1 < s_.size() && s_[pos + 1] == '\n';
        if (o & NEWLINE_CR) return c == '\r';
        if (o & NEWLINE_CRLF) return crlf ? 2 : 0;
        if (o & NEWLINE_ANYCRLF) return crlf ? 2 : (c == '\r' || c == '\n');
        if (o & NEWLINE_ANY) {
            if (crlf) return 2;
            if (c == '\n' || c == '\r' || c == 0x0B || c == 0x0C) return 1;
            if (utf8_ && pos + 1 < s_.size() && uint8_t(c) == 0xC2 && uint8_t(s_[pos + 1]) == 0x85) return 2;
            if (!utf8_ && uint8_t(c) == 0x85) return 1;
            if (utf8_ && pos + 2 < s_.size() && uint8_t(c) == 0xE2 && uint8_t(s_[pos + 1]) == 0x80 &&
                (uint8_t(s_[pos + 2]) == 0xA8 || uint8_t(s_[pos + 2]) == 0xA9))
                return 3;
            return 0;
        }
        return c == '\n';
    }
    bool newline_ends_at(size_t pos) const {
        for (size_t len = 1; len <= 3 && len <= pos; ++len)
            if (newline_at(pos - len) == len) return true;
        return false;
    }

    bool at_eol(size_t pos, bool multiline, bool endonly) const {
        if (pos == s_.size()) return !(opts_ & NOTEOL);
        size_t nl = newline_at(pos);
        if (multiline) return nl > 0;
        if (endonly) return false;
        return nl > 0 && pos + nl == s_.size() && !(opts_ & NOTEOL);
    }

    const Regex& re_;
    std::string_view s_;
    size_t start_;
    uint32_t opts_;
    uint64_t& steps_;
    uint64_t limit_;
    bool utf8_;
    int depth_ = 0;
};

}  // namespace

size_t char_len(const Regex& re, std::string_view s, size_t pos) {
    if (!re.unicode() || pos >= s.size()) return 1;
    uint8_t b = uint8_t(s[pos]);
    size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    return std::min(n, s.size() - pos);
}

MatchResult search(const Regex& re, std::string_view subject, size_t start, uint32_t run_opts, uint64_t limit,
                   std::vector<long>& caps) {
    uint64_t steps = 0;
    bool anchored = (run_opts & RUN_ANCHORED) || (re.options & ANCHORED);
    std::vector<long> regs(size_t(re.prog->registers), -1);
    for (size_t at = start; at <= subject.size(); at += char_len(re, subject, at)) {
        Machine m(re, subject, start, run_opts, steps, limit);
        std::fill(regs.begin(), regs.end(), -1);
        regs[0] = long(at);
        long end = m.run(*re.prog, at, regs);
        if (end == -2) return MatchResult::Limit;
        if (end >= 0) {
            regs[1] = end;
            caps.assign(regs.begin(), regs.begin() + 2 * (re.groups + 1));
            for (int g = 1; g <= re.groups; ++g)  // a group that did not complete did not take part
                if (caps[2 * g] < 0 || caps[2 * g + 1] < 0) caps[2 * g] = caps[2 * g + 1] = -1;
            return MatchResult::Match;
        }
        if (anchored || at == subject.size()) break;
        if ((re.options & FIRSTLINE) && subject[at] == '\n') break;
    }
    return MatchResult::NoMatch;
}

}  // namespace beam::re

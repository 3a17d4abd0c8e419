// Patterns compiled by erl's PCRE 8.x and stored as literals in .beam files: Elixir's ~r
// sigil compiles at compile time and keeps erts' `{re_pattern, ...}` term, whose binary is
// PCRE's compiled code ("ERCP" header, then opcodes), not beamvm's encoding. beamvm reads
// that code back into pattern text with the same meaning, which PCRE2 then compiles.
//
// Layout (PCRE 8.x, 8-bit, LINK_SIZE 2, host byte order for the header, big-endian for the
// links and counts inside the code): a 64-byte header whose fields used here are the
// options at 8, name_table_offset at 34, name_entry_size at 36 and name_count at 38; the name
// table (2-byte group number, then the NUL-terminated name); then the opcodes. The opcodes
// already carry what the options meant where they appeared (caseless characters, multiline
// anchors, dot-all), so the text spells each out and is compiled without those options.
// Constructs not read here (conditionals, recursion, Unicode properties, extended classes,
// a capture group copied by a counted repeat) make the decode fail: the native raises badarg
// as before.
#include "re/re_pattern.hpp"

#include <cstdio>
#include <cstring>
#include <map>

namespace beam::re {
namespace {

// PCRE 8.x opcode numbers (pcre_internal.h's enum), only those read here.
enum Op : uint8_t {
    END = 0, SOD, SOM, SET_SOM, NOT_WORD_BOUNDARY, WORD_BOUNDARY, NOT_DIGIT, DIGIT, NOT_WHITESPACE,
    WHITESPACE, NOT_WORDCHAR, WORDCHAR, ANY, ALLANY, ANYBYTE, NOTPROP, PROP, ANYNL, NOT_HSPACE,
    HSPACE, NOT_VSPACE, VSPACE, EXTUNI, EODN, EOD, DOLL, DOLLM, CIRC, CIRCM, CHAR, CHARI, NOT, NOTI,
    STAR = 33,       // 33..45 quantified CHAR, 46..58 CHARI, 59..71 NOT, 72..84 NOTI
    TYPESTAR = 85,   // 85..97 quantified types
    CRSTAR = 98, CRMINSTAR, CRPLUS, CRMINPLUS, CRQUERY, CRMINQUERY, CRRANGE, CRMINRANGE, CRPOSSTAR,
    CRPOSPLUS, CRPOSQUERY, CRPOSRANGE, CLASS, NCLASS, XCLASS, REF, REFI, DNREF, DNREFI, RECURSE,
    CALLOUT, ALT, KET, KETRMAX, KETRMIN, KETRPOS, REVERSE, ASSERT, ASSERT_NOT, ASSERTBACK,
    ASSERTBACK_NOT, ONCE, ONCE_NC, BRA, BRAPOS, CBRA, CBRAPOS, COND, SBRA, SBRAPOS, SCBRA, SCBRAPOS,
    SCOND, CREF, DNCREF, RREF, DNRREF, DEF, BRAZERO, BRAMINZERO, BRAPOSZERO,
};

// PCRE 8.x compile options (pcre.h).
constexpr uint32_t P_ANCHORED = 0x10, P_UTF8 = 0x800, P_FIRSTLINE = 0x40000, P_DUPNAMES = 0x80000,
                   P_NEWLINE_MASK = 0x700000, P_BSR_ANYCRLF = 0x800000, P_BSR_UNICODE = 0x1000000,
                   P_UCP = 0x20000000;

struct Reader {
    const uint8_t* code;
    size_t size;
    size_t pos;
    bool utf;
    std::map<int, std::string> names;
    std::vector<bool> seen_groups;
    std::string out;
    bool ok = true;
    int depth = 0;  // nested groups; PCRE 8.x compiles at most 250 (PARENS_NEST_LIMIT)

    unsigned byte() {
        if (pos >= size) { ok = false; return 0; }
        return code[pos++];
    }
    unsigned u16() { unsigned h = byte(); return (h << 8) | byte(); }
    // One character: a byte, or a UTF-8 sequence in UTF mode.
    uint32_t character() {
        uint32_t c = byte();
        if (!utf || c < 0xc0) return c;
        int extra = c >= 0xfc ? 5 : c >= 0xf8 ? 4 : c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
        c &= 0x3fu >> extra;
        while (extra-- > 0) c = (c << 6) | (byte() & 0x3f);
        return c;
    }
    void put_char(uint32_t c) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "\\x{%x}", c);
        out += buf;
    }
    // The item a single-character type opcode matches.
    bool type(unsigned t) {
        static const char* const spelled[] = {nullptr, "\\A", "\\G", "\\K", "\\B", "\\b", "\\D", "\\d", "\\S",
                                              "\\s", "\\W", "\\w", "\\N", "(?s:.)", "\\C", nullptr, nullptr,
                                              "\\R", "\\H", "\\h", "\\V", "\\v", "\\X"};
        if (t >= sizeof spelled / sizeof *spelled || !spelled[t]) return ok = false;
        out += spelled[t];
        return true;
    }
    // Quantifier suffix for the 13 forms STAR MINSTAR PLUS MINPLUS QUERY MINQUERY UPTO MINUPTO
    // EXACT POSSTAR POSPLUS POSQUERY POSUPTO; counted forms read their count first (`n`).
    static std::string quantifier(unsigned form, unsigned n) {
        static const char* const s[] = {"*", "*?", "+", "+?", "?", "??", "", "", "", "*+", "++", "?+", ""};
        if (form == 6) return "{0," + std::to_string(n) + "}";
        if (form == 7) return "{0," + std::to_string(n) + "}?";
        if (form == 8) return "{" + std::to_string(n) + "}";
        if (form == 12) return "{0," + std::to_string(n) + "}+";
        return s[form];
    }
    static bool counted(unsigned form) { return form == 6 || form == 7 || form == 8 || form == 12; }
    // A class's 256-bit map: the characters below 256 it matches.
    void bitmap_class(bool negated_above_255) {
        if (pos + 32 > size) { ok = false; return; }
        const uint8_t* map = code + pos;
        pos += 32;
        auto has = [&](unsigned c) { return (map[c / 8] >> (c % 8)) & 1; };
        bool want = !negated_above_255;  // NCLASS: list what it does not match, negated
        std::string items;
        for (unsigned c = 0; c < 256;) {
            if (has(c) != want) { ++c; continue; }
            unsigned e = c;
            while (e + 1 < 256 && has(e + 1) == want) ++e;
            char buf[40];
            if (e == c) std::snprintf(buf, sizeof buf, "\\x{%x}", c);
            else std::snprintf(buf, sizeof buf, "\\x{%x}-\\x{%x}", c, e);
            items += buf;
            c = e + 1;
        }
        if (items.empty()) out += negated_above_255 ? "(?s:.)" : "(?!)";
        else out += (negated_above_255 ? "[^" : "[") + items + "]";
    }
    // A quantifier after a class or back reference, if one follows.
    void class_quantifier() {
        if (pos >= size) return;
        unsigned q = code[pos];
        if (q < CRSTAR || q > CRPOSRANGE) return;
        ++pos;
        static const char* const s[] = {"*", "*?", "+", "+?", "?", "??", "", "", "*+", "++", "?+", ""};
        if (q == CRRANGE || q == CRMINRANGE || q == CRPOSRANGE) {
            unsigned lo = u16(), hi = u16();
            out += "{" + std::to_string(lo) + "," + (hi ? std::to_string(hi) : "") + "}";
            if (q == CRMINRANGE) out += "?";
            if (q == CRPOSRANGE) out += "+";
        } else {
            out += s[q - CRSTAR];
        }
    }
    // A bracket from its opcode to its closing KET; `zero` is the BRAZERO/BRAMINZERO before it.
    void group(unsigned zero) {
        if (++depth > 250) { ok = false; return; }
        struct Leave { int& d; ~Leave() { --d; } } leave{depth};
        unsigned op = byte();
        pos += 2;  // link to the first ALT or KET
        switch (op) {
        case BRA: case SBRA: out += "(?:"; break;
        case BRAPOS: case SBRAPOS: out += "(?:"; break;
        case CBRA: case SCBRA: case CBRAPOS: case SCBRAPOS: {
            unsigned n = u16();
            if (n < seen_groups.size() && seen_groups[n]) { ok = false; return; }  // a copied group
            if (n >= seen_groups.size()) seen_groups.resize(n + 1);
            seen_groups[n] = true;
            auto it = names.find(int(n));
            out += it == names.end() ? "(" : "(?<" + it->second + ">";
            break;
        }
        case ONCE: case ONCE_NC: out += "(?>"; break;
        case ASSERT: out += "(?="; break;
        case ASSERT_NOT: out += "(?!"; break;
        case ASSERTBACK: out += "(?<="; break;
        case ASSERTBACK_NOT: out += "(?<!"; break;
        default: ok = false; return;
        }
        for (;;) {
            if (pos < size && code[pos] == REVERSE) pos += 3;  // lookbehind length
            sequence();
            if (!ok) return;
            unsigned end = byte();
            pos += 2;
            if (end == ALT) { out += "|"; continue; }
            out += ")";
            bool pos_group = op == BRAPOS || op == SBRAPOS || op == CBRAPOS || op == SCBRAPOS;
            if (end == KET) { if (zero == BRAZERO) out += "?"; else if (zero == BRAMINZERO) out += "??"; else if (zero == BRAPOSZERO) out += "?+"; }
            else if (end == KETRMAX) out += zero == BRAZERO ? "*" : "+";
            else if (end == KETRMIN) out += zero == BRAMINZERO ? "*?" : "+?";
            else if (end == KETRPOS && pos_group) out += zero == BRAPOSZERO ? "*+" : "++";
            else ok = false;
            return;
        }
    }
    // Items until the ALT, KET or END that ends the current alternative.
    void sequence() {
        while (ok && pos < size) {
            unsigned op = code[pos];
            if (op == ALT || op == KET || op == KETRMAX || op == KETRMIN || op == KETRPOS || op == END) return;
            ++pos;
            if (op >= SOD && op <= EXTUNI && op != NOTPROP && op != PROP) { type(op); continue; }
            switch (op) {
            case EODN: out += "\\Z"; continue;
            case EOD: out += "\\z"; continue;
            case DOLL: out += "(?-m:$)"; continue;
            case DOLLM: out += "(?m:$)"; continue;
            case CIRC: out += "(?-m:^)"; continue;
            case CIRCM: out += "(?m:^)"; continue;
            case CHAR: put_char(character()); continue;
            case CHARI: out += "(?i:"; put_char(character()); out += ")"; continue;
            case NOT: out += "[^"; put_char(character()); out += "]"; continue;
            case NOTI: out += "(?i:[^"; put_char(character()); out += "])"; continue;
            case CLASS: bitmap_class(false); class_quantifier(); continue;
            case NCLASS: bitmap_class(true); class_quantifier(); continue;
            case REF: out += "\\g{" + std::to_string(u16()) + "}"; class_quantifier(); continue;
            case REFI: out += "(?i:\\g{" + std::to_string(u16()) + "})"; class_quantifier(); continue;
            case BRAZERO: case BRAMINZERO: case BRAPOSZERO: group(op); continue;
            case BRA: case SBRA: case BRAPOS: case SBRAPOS: case CBRA: case SCBRA: case CBRAPOS: case SCBRAPOS:
            case ONCE: case ONCE_NC: case ASSERT: case ASSERT_NOT: case ASSERTBACK: case ASSERTBACK_NOT:
                --pos;
                group(0);
                continue;
            default: break;
            }
            if (op >= STAR && op < TYPESTAR) {  // a quantified character, caseless or negated
                unsigned kind = (op - STAR) / 13, form = (op - STAR) % 13;
                unsigned n = counted(form) ? u16() : 0;
                uint32_t c = character();
                const char* open[] = {"", "(?i:", "[^", "(?i:[^"};
                const char* close[] = {"", ")", "]", "])"};
                out += open[kind];
                put_char(c);
                out += close[kind];
                out += quantifier(form, n);
                continue;
            }
            if (op >= TYPESTAR && op < CRSTAR) {
                unsigned form = op - TYPESTAR;
                unsigned n = counted(form) ? u16() : 0;
                if (!type(byte())) return;
                out += quantifier(form, n);
                continue;
            }
            ok = false;  // XCLASS, PROP, COND, RECURSE, CALLOUT, verbs...
        }
    }
};

template <class T>
T header_field(std::string_view bin, size_t at) {
    T v;
    std::memcpy(&v, bin.data() + at, sizeof v);
    return v;
}

}  // namespace

bool decode_erts(std::string_view bin, CompileOptions& opts, std::string& text) {
    constexpr size_t HEADER = 64;
    if (bin.size() < HEADER || header_field<uint32_t>(bin, 0) != 0x50435245u) return false;  // "PCRE"
    uint32_t options = header_field<uint32_t>(bin, 8);
    size_t names_at = header_field<uint16_t>(bin, 34), entry = header_field<uint16_t>(bin, 36),
           count = header_field<uint16_t>(bin, 38);
    size_t code_at = names_at + entry * count, total = header_field<uint32_t>(bin, 4);
    if (names_at < HEADER || code_at > bin.size() || total > bin.size() || total < code_at) return false;
    if (count > 0 && entry < 3) return false;  // a group number and at least a NUL
    Reader r{reinterpret_cast<const uint8_t*>(bin.data()), total, code_at, (options & P_UTF8) != 0, {}, {}, {}};
    for (size_t i = 0; i < count; ++i) {
        const char* e = bin.data() + names_at + i * entry;
        int n = (uint8_t(e[0]) << 8) | uint8_t(e[1]);
        r.names[n] = std::string(e + 2, strnlen(e + 2, entry - 2));
    }
    // The whole pattern is one bracket (BRA ... KET) followed by END.
    if (r.pos >= r.size || r.code[r.pos] != BRA) return false;
    r.pos += 3;
    for (;;) {
        r.sequence();
        if (!r.ok || r.pos + 3 > r.size) return false;
        unsigned end = r.code[r.pos];
        r.pos += 3;
        if (end == ALT) { r.out += "|"; continue; }
        if (end != KET || r.pos >= r.size || r.code[r.pos] != END) return false;
        break;
    }
    opts = CompileOptions{};
    if (options & P_UTF8) opts.flags |= PCRE2_UTF;
    if (options & P_UCP) opts.flags |= PCRE2_UCP;
    if (options & P_ANCHORED) opts.flags |= PCRE2_ANCHORED;
    if (options & P_FIRSTLINE) opts.flags |= PCRE2_FIRSTLINE;
    if (options & P_DUPNAMES) opts.flags |= PCRE2_DUPNAMES;
    switch (options & P_NEWLINE_MASK) {
    case 0x100000: opts.newline = PCRE2_NEWLINE_CR; break;
    case 0x300000: opts.newline = PCRE2_NEWLINE_CRLF; break;
    case 0x400000: opts.newline = PCRE2_NEWLINE_ANY; break;
    case 0x500000: opts.newline = PCRE2_NEWLINE_ANYCRLF; break;
    default: break;
    }
    if (options & P_BSR_ANYCRLF) opts.bsr = PCRE2_BSR_ANYCRLF;
    if (options & P_BSR_UNICODE) opts.bsr = PCRE2_BSR_UNICODE;
    text = std::move(r.out);
    return true;
}

}  // namespace beam::re

// unicode:characters_to_binary/2, unicode:characters_to_list/2 and unicode:bin_is_7bit/1,
// the natives under OTP's unicode module (OTP: erl_unicode.c; characters_to_binary/3 and
// the normalisation functions are Erlang on top of these).
//
// Chardata is a deep list of code points and binaries, possibly ending in a binary tail.
// Anything else anywhere in it is badarg, checked before converting (OTP does the same:
// [1, <<255>> | a] is badarg, not an error tuple). Conversion stops at the first bad
// character with {error, Converted, Rest}; a binary that ends inside a multi-byte sequence
// leaves "leftover" bytes that the next binary may complete, and if the input ends there the
// result is {incomplete, Converted, Leftover}. Rest rebuilds what was not converted, exactly
// as erl shows it (all cases checked on erl 25):
//   - the failing element and what follows it at its level, each enclosing level wrapped as
//     [Inner | OuterTail]: [1,[2,[<<3,255,5>>,6]],4] -> [[[<<255,5>>,6]],4];
//   - a bad byte inside a binary splits it: the rest starts with the remaining sub-binary;
//   - with leftover bytes pending, the rest is [Leftover, RestFromFailingElement];
//     a binary shorter than what is missing is appended to the leftover unchecked.
// A leftover at the end of input is incomplete if its bytes after the lead are continuation
// bytes, else an error with the leftover as rest.
//
// InEncoding latin1 | unicode | utf8 are exact. OTP converts utf16/utf32 input in Erlang
// (unicode:characters_to_binary_int/2, which nests Rest differently on errors); we decode
// them with the same walker: results agree on valid input, error Rest shapes may differ.
#include <string>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

enum class Enc { Latin1, Utf8, Utf16Big, Utf16Little, Utf32Big, Utf32Little };

std::optional<Enc> parse_encoding(Term t) {
    if (t == am::latin1) return Enc::Latin1;
    if (t == am::unicode || t == am::utf8) return Enc::Utf8;
    if (t == am::utf16) return Enc::Utf16Big;
    if (t == am::utf32) return Enc::Utf32Big;
    if (is_tuple(t) && tuple_arity(t) == 2 && (tuple_elem(t, 1) == am::big || tuple_elem(t, 1) == am::little)) {
        bool little = tuple_elem(t, 1) == am::little;
        if (tuple_elem(t, 0) == am::utf16) return little ? Enc::Utf16Little : Enc::Utf16Big;
        if (tuple_elem(t, 0) == am::utf32) return little ? Enc::Utf32Little : Enc::Utf32Big;
    }
    return std::nullopt;
}

bool is_scalar(uint32_t c) { return c <= 0x10FFFF && (c < 0xD800 || c > 0xDFFF); }

// One decoding step at the start of `s`.
struct Step {
    enum Kind { Char, Invalid, NeedMore } kind;
    uint32_t cp = 0;
    size_t len = 0;  // bytes used (Char) or bytes the sequence needs in all (NeedMore)
};

Step decode_utf8_step(std::string_view s) {
    uint8_t b = uint8_t(s[0]);
    if (b < 0x80) return {Step::Char, b, 1};
    size_t len = b >= 0xF8 ? 0 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    if (len == 0) return {Step::Invalid};
    if (s.size() < len) return {Step::NeedMore, 0, len};
    uint32_t cp = b & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
        uint8_t c = uint8_t(s[k]);
        if ((c & 0xC0) != 0x80) return {Step::Invalid};
        cp = (cp << 6) | (c & 0x3F);
    }
    static constexpr uint32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_len[len] || !is_scalar(cp)) return {Step::Invalid};
    return {Step::Char, cp, len};
}

uint32_t read_unit(std::string_view s, size_t at, size_t width, bool little) {
    uint32_t v = 0;
    for (size_t k = 0; k < width; ++k) {
        uint32_t byte = uint8_t(s[at + (little ? width - 1 - k : k)]);
        v = (v << 8) | byte;
    }
    return v;
}

Step decode_step(Enc e, std::string_view s) {
    switch (e) {
    case Enc::Latin1: return {Step::Char, uint8_t(s[0]), 1};
    case Enc::Utf8: return decode_utf8_step(s);
    case Enc::Utf16Big:
    case Enc::Utf16Little: {
        bool little = e == Enc::Utf16Little;
        if (s.size() < 2) return {Step::NeedMore, 0, 2};
        uint32_t u = read_unit(s, 0, 2, little);
        if (u >= 0xDC00 && u <= 0xDFFF) return {Step::Invalid};
        if (u < 0xD800 || u > 0xDBFF) return {Step::Char, u, 2};
        if (s.size() < 4) return {Step::NeedMore, 0, 4};
        uint32_t lo = read_unit(s, 2, 2, little);
        if (lo < 0xDC00 || lo > 0xDFFF) return {Step::Invalid};
        return {Step::Char, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00), 4};
    }
    case Enc::Utf32Big:
    case Enc::Utf32Little: {
        if (s.size() < 4) return {Step::NeedMore, 0, 4};
        uint32_t u = read_unit(s, 0, 4, e == Enc::Utf32Little);
        if (!is_scalar(u)) return {Step::Invalid};
        return {Step::Char, u, 4};
    }
    }
    return {Step::Invalid};
}

// Chardata shape only (badarg if anything else); characters are checked while converting.
bool is_chardata(Term t) {
    std::vector<Term> pending{t};
    while (!pending.empty()) {
        Term x = pending.back();
        pending.pop_back();
        for (; is_list(x); x = tail(x)) {
            Term h = head(x);
            if (is_list(h)) pending.push_back(h);
            else if (!is_integer(h) && !is_nil(h) && !is_binary(h)) return false;
        }
        if (!is_nil(x) && !is_binary(x)) return false;
    }
    return true;
}

struct Converter {
    Process* p = nullptr;
    Enc enc = Enc::Utf8;
    std::vector<uint32_t> chars;
    std::string leftover;  // bytes of an unfinished sequence
    size_t missing = 0;    // bytes it still needs (leftover is pending when non-empty)
    std::vector<Term> outer_tails;  // for each enclosing list, what follows our element
    Term rest = NON_VALUE;          // set when conversion stops at an error

    // Wraps the innermost rest with every enclosing level: [R | OuterTail].
    Term wrap(Term r) {
        for (size_t i = outer_tails.size(); i-- > 0;) r = cons_at(p->alloc(2), r, outer_tails[i]);
        return r;
    }
    Term leftover_binary() { return make_binary(*p, leftover); }
    // The rest when an element fails while leftover bytes are pending.
    void fail_with_leftover(Term here) {
        Term lb = leftover_binary();
        Term* hp = p->alloc(4);
        rest = cons_at(hp, lb, cons_at(hp + 2, wrap(here), NIL));
    }

    bool integer(Term h, Term here) {
        if (!leftover.empty()) {
            fail_with_leftover(here);
            return false;
        }
        SWord v = is_small(h) ? small_value(h) : -1;
        bool ok = enc == Enc::Latin1 ? v >= 0 && v <= 255 : v >= 0 && is_scalar(uint32_t(v));
        if (!ok) {
            rest = wrap(here);
            return false;
        }
        chars.push_back(uint32_t(v));
        return true;
    }

    // `bin` is the binary; `here` its list cell (or the binary itself when it is a tail).
    bool binary(Term bin, Term here) {
        std::string scratch;
        std::string_view s = binary_bytes(bin, scratch);
        size_t i = 0;
        if (!leftover.empty()) {
            std::string before = leftover;
            while (!leftover.empty()) {
                if (s.size() - i < missing) {
                    leftover.append(s.substr(i));
                    missing -= s.size() - i;
                    return true;
                }
                std::string candidate = leftover + std::string(s.substr(i, missing));
                Step st = decode_step(enc, candidate);
                if (st.kind == Step::Invalid) {
                    leftover = before;
                    fail_with_leftover(here);
                    return false;
                }
                i += missing;
                if (st.kind == Step::NeedMore) {
                    leftover = candidate;
                    missing = st.len - candidate.size();
                } else {
                    chars.push_back(st.cp);
                    leftover.clear();
                    missing = 0;
                }
            }
        }
        while (i < s.size()) {
            Step st = decode_step(enc, s.substr(i));
            if (st.kind == Step::Char) {
                chars.push_back(st.cp);
                i += st.len;
            } else if (st.kind == Step::NeedMore) {
                leftover = std::string(s.substr(i));
                missing = st.len - leftover.size();
                return true;
            } else {
                Term sub = make_sub_binary(*p, bin, i * 8, (s.size() - i) * 8);
                rest = wrap(is_list(here) ? cons_at(p->alloc(2), sub, tail(here)) : sub);
                return false;
            }
        }
        return true;
    }

    // Converts until done or an error; false on error (rest set).
    bool run(Term input) {
        Term cur = input;
        for (;;) {
            if (is_list(cur)) {
                Term h = head(cur);
                if (is_list(h)) {
                    outer_tails.push_back(tail(cur));
                    cur = h;
                    continue;
                }
                if (is_integer(h) && !integer(h, cur)) return false;
                if (is_binary(h) && !binary(h, cur)) return false;
                cur = tail(cur);
            } else {
                if (is_binary(cur) && !binary(cur, cur)) return false;
                if (outer_tails.empty()) return true;
                cur = outer_tails.back();
                outer_tails.pop_back();
            }
        }
    }

    // A leftover at the end: incomplete if it can still become a character.
    // For utf16/utf32, OTP's rules (cbv/2 in unicode.erl): some completion of the bytes must be
    // a code point that is no surrogate and at most 16#10FFFF.
    bool leftover_is_prefix() const {
        const auto* b = reinterpret_cast<const uint8_t*>(leftover.data());
        size_t n = leftover.size();
        auto no_surrogate = [](uint8_t hi) { return hi <= 215 || hi >= 224; };  // 16#D8..16#DF
        auto high_surrogate = [](uint8_t hi) { return (hi >> 2) == 54; };       // 16#D8..16#DB
        switch (enc) {
        case Enc::Utf8:
            for (size_t k = 1; k < n; ++k)
                if ((b[k] & 0xC0) != 0x80) return false;
            return true;
        case Enc::Utf16Big:
            if (n == 1) return no_surrogate(b[0]) || high_surrogate(b[0]);
            if (n == 2) return high_surrogate(b[0]);
            return n == 3 && high_surrogate(b[0]) && (b[2] >> 2) == 55;
        case Enc::Utf16Little:
            return n == 1 || ((n == 2 || n == 3) && high_surrogate(b[1]));
        case Enc::Utf32Big:
            if (n == 1) return b[0] == 0;
            if (n == 2) return b[0] == 0 && b[1] <= 16;
            return n == 3 && b[0] == 0 && b[1] <= 16 && (b[1] > 0 || no_surrogate(b[2]));
        case Enc::Utf32Little:
            if (n == 1 || n == 2) return true;
            if (n == 3 && b[1] == 255 && b[2] == 0 && (b[0] == 254 || b[0] == 255)) return false;
            return n == 3 && b[2] <= 16 && (b[2] > 0 || no_surrogate(b[1]));
        default:
            return true;
        }
    }
};

Term utf8_binary(Process* p, const std::vector<uint32_t>& chars) {
    std::string out;
    out.reserve(chars.size());
    for (uint32_t c : chars) append_utf8(out, c);
    return make_binary(*p, out);
}

Term char_list(Process* p, const std::vector<uint32_t>& chars) {
    if (chars.empty()) return NIL;
    Term* hp = p->alloc(2 * chars.size());
    Term r = NIL;
    for (size_t i = chars.size(); i-- > 0;) r = cons_at(hp + 2 * i, make_small(chars[i]), r);
    return r;
}

Term convert(Process* p, Term data, Term encoding, bool to_binary) {
    auto enc = parse_encoding(encoding);
    if (!enc || !is_chardata(data)) return p->badarg();
    // OTP treats a list of exactly one binary as that binary when building a binary.
    if (to_binary && is_list(data) && is_binary(head(data)) && is_nil(tail(data))) data = head(data);
    Converter c;
    c.p = p;
    c.enc = *enc;
    bool ok = c.run(data);
    auto converted = [&] { return to_binary ? utf8_binary(p, c.chars) : char_list(p, c.chars); };
    if (!ok) return make_tuple(*p, {am::error, converted(), c.rest});
    if (c.leftover.empty()) return converted();
    Term tag = c.leftover_is_prefix() ? atom("incomplete") : am::error;
    return make_tuple(*p, {tag, converted(), c.leftover_binary()});
}

Term characters_to_binary_2(Process* p, const Term* a) { return convert(p, a[0], a[1], true); }
Term characters_to_list_2(Process* p, const Term* a) { return convert(p, a[0], a[1], false); }

Term bin_is_7bit_1(Process* p, const Term* a) {
    if (!is_binary(a[0])) return am::false_;
    std::string scratch;
    for (char ch : binary_bytes(a[0], scratch))
        if (uint8_t(ch) >= 0x80) return am::false_;
    return am::true_;
}

constexpr BifSpec table[] = {
    {"unicode", "characters_to_binary", 2, &characters_to_binary_2},
    {"unicode", "characters_to_list", 2, &characters_to_list_2},
    {"unicode", "bin_is_7bit", 1, &bin_is_7bit_1},
};

}  // namespace

std::span<const BifSpec> unicode_bifs() { return table; }

}  // namespace beam

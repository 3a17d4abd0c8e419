// binary:match/2,3, matches/2,3, split/2,3, compile_pattern/1, longest_common_prefix/1 and
// longest_common_suffix/1 (OTP: erl_bif_binary.c; binary:replace/3,4 is Erlang on top).
//
// Semantics checked on erl: with several patterns, a match is the leftmost one and, among
// those starting there, the longest; `matches` and global `split` continue after each match
// (no overlaps). {scope, {Start, Len}} (Len may be negative) limits where matches are
// searched, but split's parts always cover the whole subject.
//
// OTP's compile_pattern returns {bm, Ref} / {ac, Ref}, an opaque prepared search. Ours keeps
// the validated patterns instead: {bm, Bin} or {ac, [Bin]}; searches are simple scans (no
// Boyer-Moore / Aho-Corasick tables yet), which the compiled form leaves room for.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "vm/binary.hpp"

namespace beam {
namespace {

struct Match {
    size_t pos;
    size_t len;
};

// The non-empty patterns of a binary, a non-empty list of binaries, or a compiled pattern.
struct Patterns {
    std::vector<std::string> bytes;

    bool parse(Term t) {
        if (is_tuple(t) && tuple_arity(t) == 2 && (tuple_elem(t, 0) == atom("bm") || tuple_elem(t, 0) == atom("ac")))
            t = tuple_elem(t, 1);
        if (is_binary(t)) return add(t);
        if (!is_list(t)) return false;
        for (; is_list(t); t = tail(t))
            if (!add(head(t))) return false;
        return is_nil(t) && !bytes.empty();
    }
    bool add(Term b) {
        if (!is_binary(b)) return false;
        std::string scratch;
        std::string_view v = binary_bytes(b, scratch);
        if (v.empty()) return false;
        bytes.emplace_back(v);
        return true;
    }

    // Leftmost-longest match starting in [from, end) and lying within [.., end).
    std::optional<Match> find(std::string_view s, size_t from, size_t end) const {
        std::string_view window = s.substr(0, end);
        if (bytes.size() == 1) {
            size_t at = window.find(bytes[0], from);
            if (at == std::string_view::npos) return std::nullopt;
            return Match{at, bytes[0].size()};
        }
        for (size_t i = from; i < end; ++i) {
            size_t best = 0;
            for (const std::string& pat : bytes)
                if (pat.size() > best && window.substr(i, pat.size()) == pat) best = pat.size();
            if (best) return Match{i, best};
        }
        return std::nullopt;
    }
};

struct Options {
    size_t start = 0, end = 0;  // search scope
    bool global = false, trim = false, trim_all = false;
};

// Parses the option list; split accepts global/trim/trim_all, match and matches only scope.
bool parse_options(Term opts, size_t size, bool for_split, Options& out) {
    out.start = 0;
    out.end = size;
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (for_split && o == atom("global")) {
            out.global = true;
        } else if (for_split && o == atom("trim")) {
            out.trim = true;
        } else if (for_split && o == atom("trim_all")) {
            out.trim_all = true;
        } else if (is_tuple(o) && tuple_arity(o) == 2 && tuple_elem(o, 0) == atom("scope")) {
            Term r = tuple_elem(o, 1);
            if (!is_tuple(r) || tuple_arity(r) != 2 || !is_small(tuple_elem(r, 0)) || !is_small(tuple_elem(r, 1)))
                return false;
            SWord s = small_value(tuple_elem(r, 0)), l = small_value(tuple_elem(r, 1));
            if (l < 0) {
                s += l;
                l = -l;
            }
            if (s < 0 || size_t(s) > size || size_t(l) > size - size_t(s)) return false;
            out.start = size_t(s);
            out.end = size_t(s + l);
        } else {
            return false;
        }
    }
    return is_nil(opts);
}

// The subject's bytes, the patterns and the options, or false for badarg.
struct Call {
    std::string scratch;
    std::string_view subject;
    Patterns patterns;
    Options options;

    // As erts, a search that ends at byte 0 (an empty subject or scope) finds nothing without
    // looking at the pattern: binary:match(<<>>, 1.0) is nomatch.
    bool parse(Term subj, Term pat, Term opts, bool for_split) {
        if (!is_binary(subj)) return false;
        subject = binary_bytes(subj, scratch);
        if (!parse_options(opts, subject.size(), for_split, options)) return false;
        return options.end == 0 || patterns.parse(pat);
    }
    std::vector<Match> all(bool global) const {
        std::vector<Match> out;
        size_t from = options.start;
        while (from < options.end) {
            auto m = patterns.find(subject, from, options.end);
            if (!m) break;
            out.push_back(*m);
            if (!global) break;
            from = m->pos + m->len;
        }
        return out;
    }
};

Term match_term(Process* p, const Match& m) {
    return make_tuple(*p, {make_small(SWord(m.pos)), make_small(SWord(m.len))});
}

Term match(Process* p, Term subj, Term pat, Term opts) {
    Call c;
    if (!c.parse(subj, pat, opts, false)) return p->badarg();
    auto ms = c.all(false);
    return ms.empty() ? atom("nomatch") : match_term(p, ms[0]);
}

Term matches(Process* p, Term subj, Term pat, Term opts) {
    Call c;
    if (!c.parse(subj, pat, opts, false)) return p->badarg();
    auto ms = c.all(true);
    std::vector<Term> items;
    for (const Match& m : ms) items.push_back(match_term(p, m));
    return make_list_from(*p, items.data(), items.size());
}

Term split(Process* p, Term subj, Term pat, Term opts) {
    Call c;
    if (!c.parse(subj, pat, opts, true)) return p->badarg();
    auto ms = c.all(c.options.global);
    // Parts as byte ranges of the subject, then trimmed, then made sub-binaries (no copies).
    std::vector<Match> parts;
    size_t from = 0;
    for (const Match& m : ms) {
        parts.push_back({from, m.pos - from});
        from = m.pos + m.len;
    }
    parts.push_back({from, c.subject.size() - from});
    if (c.options.trim_all) {
        std::erase_if(parts, [](const Match& r) { return r.len == 0; });
    } else if (c.options.trim) {
        while (!parts.empty() && parts.back().len == 0) parts.pop_back();
    }
    std::vector<Term> items;
    for (const Match& r : parts) items.push_back(make_slice(*p, subj, r.pos * 8, r.len * 8));
    return make_list_from(*p, items.data(), items.size());
}

Term match_2(Process* p, const Term* a) { return match(p, a[0], a[1], NIL); }
Term match_3(Process* p, const Term* a) { return match(p, a[0], a[1], a[2]); }
Term matches_2(Process* p, const Term* a) { return matches(p, a[0], a[1], NIL); }
Term matches_3(Process* p, const Term* a) { return matches(p, a[0], a[1], a[2]); }
Term split_2(Process* p, const Term* a) { return split(p, a[0], a[1], NIL); }
Term split_3(Process* p, const Term* a) { return split(p, a[0], a[1], a[2]); }

Term compile_pattern_1(Process* p, const Term* a) {
    Patterns pats;
    if (is_tuple(a[0]) || !pats.parse(a[0])) return p->badarg();
    if (is_binary(a[0])) return make_tuple(*p, {atom("bm"), a[0]});
    return make_tuple(*p, {atom("ac"), a[0]});
}

// Length of the common prefix (or suffix) of a non-empty list of binaries.
Term common_affix(Process* p, Term list, bool suffix) {
    std::vector<Term> elems;
    if (!list_elements(list, elems) || elems.empty()) return p->badarg();
    std::vector<std::string> bins(elems.size());
    for (size_t i = 0; i < elems.size(); ++i) {
        if (!is_binary(elems[i])) return p->badarg();
        std::string scratch;
        bins[i] = std::string(binary_bytes(elems[i], scratch));
    }
    size_t n = bins[0].size();
    for (const std::string& b : bins) {
        size_t k = 0, limit = std::min(n, b.size());
        while (k < limit && (suffix ? bins[0][bins[0].size() - 1 - k] == b[b.size() - 1 - k] : bins[0][k] == b[k])) ++k;
        n = k;
    }
    return make_small(SWord(n));
}

Term longest_common_prefix_1(Process* p, const Term* a) { return common_affix(p, a[0], false); }
Term longest_common_suffix_1(Process* p, const Term* a) { return common_affix(p, a[0], true); }

constexpr BifSpec table[] = {
    {"binary", "match", 2, &match_2},
    {"binary", "match", 3, &match_3},
    {"binary", "matches", 2, &matches_2},
    {"binary", "matches", 3, &matches_3},
    {"binary", "split", 2, &split_2},
    {"binary", "split", 3, &split_3},
    {"binary", "compile_pattern", 1, &compile_pattern_1},
    {"binary", "longest_common_prefix", 1, &longest_common_prefix_1},
    {"binary", "longest_common_suffix", 1, &longest_common_suffix_1},
};

}  // namespace

std::span<const BifSpec> binary_search_bifs() { return table; }

}  // namespace beam

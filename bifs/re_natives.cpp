// OTP's `re` natives: version/0, compile/1,2, run/2,3, internal_run/4, inspect/2, over beamvm's
// own regular expression engine (bifs/re_program.hpp). re.erl's split/replace/grun run on top
// unmodified. A compiled pattern is {re_pattern, Groups, Unicode, UseCRLF, Binary} as in OTP;
// the binary holds beamvm's encoding (options and pattern text), compiled again on use through
// a cache of recent patterns.
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "bifs/re_program.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

namespace beam {

namespace {

constexpr char MAGIC[4] = {'b', 'v', 'r', 'e'};
constexpr uint64_t DEFAULT_MATCH_LIMIT = 10000000;

struct Options {
    uint32_t compile = 0;
    uint32_t run = 0;
    bool global = false;
    bool report_errors = false;
    bool compile_opts_given = false;
    size_t offset = 0;
    uint64_t limit = DEFAULT_MATCH_LIMIT;
    enum Type { Index, List, Binary } type = Index;
    enum Spec { All, AllButFirst, First, None, AllNames, Ids } spec = All;
    std::vector<Term> ids;
};

bool compile_option(Term o, uint32_t& out) {
    struct O {
        const char* name;
        uint32_t bit;
    };
    static const O table[] = {
        {"caseless", re::CASELESS},     {"multiline", re::MULTILINE},   {"dotall", re::DOTALL},
        {"extended", re::EXTENDED},     {"anchored", re::ANCHORED},     {"dollar_endonly", re::DOLLAR_ENDONLY},
        {"ungreedy", re::UNGREEDY},     {"unicode", re::UNICODE},       {"no_auto_capture", re::NO_AUTO_CAPTURE},
        {"dupnames", re::DUPNAMES},     {"firstline", re::FIRSTLINE},   {"ucp", re::UCP},
        {"never_utf", re::NEVER_UTF},   {"no_start_optimize", 0},       {"bsr_anycrlf", 0},
        {"bsr_unicode", 0},             {"extra", 0},
    };
    if (is_atom(o)) {
        for (const O& e : table)
            if (atom_name(o) == e.name) return out |= e.bit, true;
        return false;
    }
    if (is_tuple(o) && tuple_arity(o) == 2 && tuple_elem(o, 0) == atom("newline")) {
        Term v = tuple_elem(o, 1);
        out &= ~(re::NEWLINE_CR | re::NEWLINE_CRLF | re::NEWLINE_ANYCRLF | re::NEWLINE_ANY);
        if (v == atom("lf")) return true;
        if (v == atom("cr")) return out |= re::NEWLINE_CR, true;
        if (v == atom("crlf")) return out |= re::NEWLINE_CRLF, true;
        if (v == atom("anycrlf")) return out |= re::NEWLINE_ANYCRLF, true;
        if (v == atom("any")) return out |= re::NEWLINE_ANY, true;
    }
    return false;
}

bool run_option(Term o, Options& opts) {
    if (compile_option(o, opts.compile)) {
        opts.compile_opts_given = true;
        return true;
    }
    if (o == atom("global")) return opts.global = true;
    if (o == atom("report_errors")) return opts.report_errors = true;
    if (o == atom("notbol")) return opts.run |= re::NOTBOL, true;
    if (o == atom("noteol")) return opts.run |= re::NOTEOL, true;
    if (o == atom("notempty")) return opts.run |= re::NOTEMPTY, true;
    if (o == atom("notempty_atstart")) return opts.run |= re::NOTEMPTY_ATSTART, true;
    if (o == atom("anchored")) return opts.run |= re::RUN_ANCHORED, true;
    if (!is_tuple(o)) return false;
    Word n = tuple_arity(o);
    Term k = tuple_elem(o, 0);
    if (n == 2 && k == atom("offset")) {
        Term v = tuple_elem(o, 1);
        if (!is_small(v) || small_value(v) < 0) return false;
        opts.offset = size_t(small_value(v));
        return true;
    }
    if (n == 2 && (k == atom("match_limit") || k == atom("match_limit_recursion"))) {
        Term v = tuple_elem(o, 1);
        if (!is_small(v) || small_value(v) < 0) return false;
        if (k == atom("match_limit")) opts.limit = uint64_t(small_value(v));
        return true;
    }
    if ((n == 2 || n == 3) && k == atom("capture")) {
        Term spec = tuple_elem(o, 1);
        if (spec == atom("all")) opts.spec = Options::All;
        else if (spec == atom("all_but_first")) opts.spec = Options::AllButFirst;
        else if (spec == atom("first")) opts.spec = Options::First;
        else if (spec == atom("none")) opts.spec = Options::None;
        else if (spec == atom("all_names")) opts.spec = Options::AllNames;
        else if (is_list(spec) || is_nil(spec)) {
            opts.spec = Options::Ids;
            if (!list_elements(spec, opts.ids)) return false;
        } else {
            return false;
        }
        if (n == 3) {
            Term t = tuple_elem(o, 2);
            if (t == atom("index")) opts.type = Options::Index;
            else if (t == atom("list")) opts.type = Options::List;
            else if (t == atom("binary")) opts.type = Options::Binary;
            else return false;
        }
        return true;
    }
    return false;
}

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) out.push_back(char(cp));
    else if (cp < 0x800) out += {char(0xC0 | (cp >> 6)), char(0x80 | (cp & 0x3F))};
    else if (cp < 0x10000) out += {char(0xE0 | (cp >> 12)), char(0x80 | ((cp >> 6) & 0x3F)), char(0x80 | (cp & 0x3F))};
    else out += {char(0xF0 | (cp >> 18)), char(0x80 | ((cp >> 12) & 0x3F)), char(0x80 | ((cp >> 6) & 0x3F)), char(0x80 | (cp & 0x3F))};
}

// Subject or pattern text: iodata, or with `unicode` a charlist of any code points (binaries in
// it being UTF-8). False when it is neither.
bool text_of(Term t, bool unicode, std::string& out) {
    if (is_binary_obj(t)) {
        BitView v = bit_view(t);
        if (!v.whole_bytes()) return false;
        std::vector<uint8_t> bytes;
        iolist_to_bytes(t, bytes);
        out.assign(bytes.begin(), bytes.end());
        return true;
    }
    std::vector<Term> todo{t};
    while (!todo.empty()) {
        Term x = todo.back();
        todo.pop_back();
        if (is_nil(x)) continue;
        if (is_list(x)) {
            todo.push_back(tail(x));
            todo.push_back(head(x));
        } else if (is_small(x)) {
            SWord c = small_value(x);
            if (c < 0 || c > (unicode ? 0x10FFFF : 255)) return false;
            if (unicode) append_utf8(out, uint32_t(c));
            else out.push_back(char(c));
        } else if (is_binary_obj(x)) {
            BitView v = bit_view(x);
            if (!v.whole_bytes()) return false;
            std::vector<uint8_t> bytes;
            iolist_to_bytes(x, bytes);
            out.append(bytes.begin(), bytes.end());
        } else {
            return false;
        }
    }
    return true;
}

bool valid_utf8(std::string_view s) {
    std::vector<uint32_t> cps;
    return decode_utf8(s, cps);
}

std::string encode(uint32_t options, std::string_view pattern) {
    std::string b(MAGIC, 4);
    for (int s = 24; s >= 0; s -= 8) b.push_back(char(options >> s));
    b.append(pattern);
    return b;
}

// Recently used patterns, by their encoding.
std::shared_ptr<re::Regex> cached(const std::string& key, re::CompileError& err) {
    static std::mutex mutex;
    static std::unordered_map<std::string, std::shared_ptr<re::Regex>> cache;
    {
        std::lock_guard lock(mutex);
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
    }
    uint32_t options = (uint32_t(uint8_t(key[4])) << 24) | (uint32_t(uint8_t(key[5])) << 16) |
                       (uint32_t(uint8_t(key[6])) << 8) | uint8_t(key[7]);
    auto re = re::compile(std::string_view(key).substr(8), options, err);
    if (!re) return nullptr;
    std::lock_guard lock(mutex);
    if (cache.size() > 512) cache.clear();
    cache.emplace(key, re);
    return re;
}

Term compile_error(Process* p, const re::CompileError& err) {
    return make_tuple(*p, {am::error, make_tuple(*p, {make_string(*p, err.message), make_small(SWord(err.offset))})});
}

Term make_bin(Process* p, std::string_view s) {
    uint8_t* data;
    Term b = make_binary_uninit(*p, s.size(), &data);
    std::memcpy(data, s.data(), s.size());
    return b;
}

Term compile(Process* p, Term pattern, Term opts_list) {
    uint32_t options = 0;
    std::vector<Term> opts;
    if (!list_elements(opts_list, opts)) return p->badarg();
    for (Term o : opts)
        if (!compile_option(o, options)) return p->badarg();
    std::string text;
    if (!text_of(pattern, options & re::UNICODE, text)) return p->badarg();
    if ((options & re::UNICODE) && !valid_utf8(text)) return p->badarg();
    std::string key = encode(options, text);
    re::CompileError err;
    auto re = cached(key, err);
    if (!re) return compile_error(p, err);
    Term mp = make_tuple(*p, {atom("re_pattern"), make_small(re->groups), make_small(re->unicode() ? 1 : 0),
                              make_small((options & (re::NEWLINE_CRLF | re::NEWLINE_ANYCRLF | re::NEWLINE_ANY)) ? 1 : 0),
                              make_bin(p, key)});
    return make_tuple(*p, {am::ok, mp});
}

Term compile_1(Process* p, const Term* a) { return compile(p, a[0], NIL); }
Term compile_2(Process* p, const Term* a) { return compile(p, a[0], a[1]); }

// The compiled pattern a run uses: a {re_pattern, ...} of ours, or text compiled now.
std::shared_ptr<re::Regex> pattern_of(Process* p, Term re_term, const Options& opts, Term& error) {
    error = NON_VALUE;
    if (is_tuple(re_term) && tuple_arity(re_term) == 5 && tuple_elem(re_term, 0) == atom("re_pattern")) {
        Term bin = tuple_elem(re_term, 4);
        if (!is_binary_obj(bin)) return nullptr;
        std::vector<uint8_t> bytes;
        iolist_to_bytes(bin, bytes);
        if (bytes.size() < 8 || std::memcmp(bytes.data(), MAGIC, 4) != 0) return nullptr;
        re::CompileError err;
        return cached(std::string(bytes.begin(), bytes.end()), err);
    }
    std::string text;
    if (!text_of(re_term, opts.compile & re::UNICODE, text)) return nullptr;
    if ((opts.compile & re::UNICODE) && !valid_utf8(text)) return nullptr;
    re::CompileError err;
    auto re = cached(encode(opts.compile, text), err);
    if (!re) error = compile_error(p, err);
    return re;
}

Term capture_value(Process* p, const re::Regex& re, const std::string& subject, Term subj_term, long s, long e,
                   Options::Type type) {
    if (type == Options::Index) {
        if (s < 0) return make_tuple(*p, {make_small(-1), make_small(0)});
        return make_tuple(*p, {make_small(s), make_small(e - s)});
    }
    if (type == Options::Binary) {
        if (s < 0) return make_bin(p, "");
        if (is_binary_obj(subj_term) && (is_boxed_sub(subj_term, Sub::RefcBin) || is_boxed_sub(subj_term, Sub::HeapBin)))
            return make_sub_binary(*p, subj_term, size_t(s) * 8, size_t(e - s) * 8);
        return make_bin(p, std::string_view(subject).substr(size_t(s), size_t(e - s)));
    }
    if (s < 0) return NIL;
    std::string_view part = std::string_view(subject).substr(size_t(s), size_t(e - s));
    if (!re.unicode()) return make_byte_list(*p, reinterpret_cast<const uint8_t*>(part.data()), part.size());
    std::vector<uint32_t> cps;
    decode_utf8(part, cps);
    Term list = NIL;
    for (size_t i = cps.size(); i-- > 0;) list = cons_at(p->alloc(2), make_small(cps[i]), list);
    return list;
}

// The captures of one match, as the options ask.
Term captures(Process* p, const re::Regex& re, const std::string& subject, Term subj_term, const std::vector<long>& caps,
              const Options& opts) {
    std::vector<int> groups;
    switch (opts.spec) {
    case Options::All:
    case Options::AllButFirst: {
        // As PCRE reports them: up to the last group that took part.
        int last = re.groups;
        while (last > 0 && caps[2 * size_t(last)] < 0) --last;
        for (int g = opts.spec == Options::All ? 0 : 1; g <= last; ++g) groups.push_back(g);
        break;
    }
    case Options::First: groups.push_back(0); break;
    case Options::None: break;
    case Options::AllNames:
        for (auto& [name, g] : re.names) groups.push_back(g);
        break;
    case Options::Ids:
        for (Term id : opts.ids) {
            int g = -1;
            if (is_small(id)) {
                g = int(small_value(id));
            } else {
                std::string name;
                if (is_atom(id)) name = std::string(atom_name(id));
                else if (auto s = char_list_to_utf8(id)) name = *s;
                for (auto& [n, idx] : re.names)
                    if (n == name) g = idx;
            }
            groups.push_back(g);
        }
        break;
    }
    std::vector<Term> values;
    for (int g : groups) {
        long s = -1, e = -1;
        if (g >= 0 && g <= re.groups) s = caps[2 * size_t(g)], e = caps[2 * size_t(g) + 1];
        values.push_back(capture_value(p, re, subject, subj_term, s, e, opts.type));
    }
    return make_list_from(*p, values.data(), values.size());
}

Term run(Process* p, Term subj_term, Term re_term, Term opts_list) {
    Options opts;
    std::vector<Term> items;
    if (!list_elements(opts_list, items)) return p->badarg();
    for (Term o : items)
        if (!run_option(o, opts)) return p->badarg();
    Term error;
    auto re = pattern_of(p, re_term, opts, error);
    if (!re) {
        if (is_value(error)) {
            if (opts.report_errors) return make_tuple(*p, {am::error, make_tuple(*p, {atom("compile"), tuple_elem(error, 1)})});
            return p->badarg();
        }
        return p->badarg();
    }
    std::string subject;
    if (!text_of(subj_term, re->unicode(), subject)) return p->badarg();
    if (re->unicode() && !valid_utf8(subject)) return p->badarg();
    if (opts.offset > subject.size()) return p->badarg();
    std::vector<long> caps;
    std::vector<Term> matches;
    size_t pos = opts.offset;
    uint32_t extra = 0;
    for (;;) {
        re::MatchResult r = re::search(*re, subject, pos, opts.run | extra, opts.limit, caps);
        if (r == re::MatchResult::Limit)
            return opts.report_errors ? make_tuple(*p, {am::error, atom("match_limit")}) : atom("nomatch");
        if (r == re::MatchResult::NoMatch) {
            if (!extra) break;
            // After an empty match, the retry at the same place failed: move one character on.
            extra = 0;
            if (pos >= subject.size()) break;
            pos += re::char_len(*re, subject, pos);
            continue;
        }
        if (opts.spec != Options::None) matches.push_back(captures(p, *re, subject, subj_term, caps, opts));
        else matches.push_back(NIL);
        if (!opts.global) break;
        size_t s = size_t(caps[0]), e = size_t(caps[1]);
        pos = e;
        extra = s == e ? (re::NOTEMPTY_ATSTART | re::RUN_ANCHORED) : 0;
    }
    if (matches.empty()) return atom("nomatch");
    if (opts.spec == Options::None) return atom("match");
    if (!opts.global) return make_tuple(*p, {atom("match"), matches[0]});
    return make_tuple(*p, {atom("match"), make_list_from(*p, matches.data(), matches.size())});
}

Term run_2(Process* p, const Term* a) { return run(p, a[0], a[1], NIL); }
Term run_3(Process* p, const Term* a) { return run(p, a[0], a[1], a[2]); }
// re.erl's grun: one call does the whole run here (beamvm does not yield inside a match).
Term internal_run_4(Process* p, const Term* a) { return run(p, a[0], a[1], a[2]); }

Term version_0(Process* p, const Term*) { return make_bin(p, "8.44 2020-02-12"); }

Term inspect_2(Process* p, const Term* a) {
    Options opts;
    Term error;
    if (!(is_tuple(a[0]) && tuple_arity(a[0]) == 5 && tuple_elem(a[0], 0) == atom("re_pattern")) ||
        a[1] != atom("namelist"))
        return p->badarg();
    auto re = pattern_of(p, a[0], opts, error);
    if (!re) return p->badarg();
    std::vector<Term> names;
    for (auto& [n, g] : re->names) names.push_back(make_bin(p, n));
    return make_tuple(*p, {atom("namelist"), make_list_from(*p, names.data(), names.size())});
}

const BifSpec table[] = {
    {"re", "version", 0, &version_0},
    {"re", "compile", 1, &compile_1},
    {"re", "compile", 2, &compile_2},
    {"re", "run", 2, &run_2},
    {"re", "run", 3, &run_3},
    {"re", "internal_run", 4, &internal_run_4},
    {"re", "inspect", 2, &inspect_2},
};

}  // namespace

std::span<const BifSpec> re_bifs() { return table; }

}  // namespace beam

// OTP's `re` natives (erts' erl_bif_re.c): version/0, compile/1,2, run/2,3, internal_run/4,
// inspect/2, on PCRE2 (re/re_pattern.hpp). As in erts, a run with `unicode` and a subject
// that is not a binary (or list captures) continues in re:urun/3, a `global` run in
// re:grun/3, and compile/2 of a unicode character list in re:ucompile/2: OTP's re.erl does
// the conversions and the global loop, calling internal_run/4 once per match.
#include <cstring>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "re/re_options.hpp"
#include "re/re_pattern.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/code_table.hpp"
#include "vm/map.hpp"
#include "vm/process.hpp"

namespace beam {

namespace {

using namespace re;

// PCRE's defaults as OTP builds them (MATCH_LIMIT, MATCH_LIMIT_RECURSION).
constexpr uint32_t DEFAULT_MATCH_LIMIT = 10000000;
// PCRE2 keeps its backtracking frames on the heap: a bound on that memory (KiB), past which
// a run ends as a match_limit_recursion one would.
constexpr uint32_t HEAP_LIMIT_KIB = 512 * 1024;
constexpr int64_t CONTEXT_REDS = 4000;  // one time slice (erts' CONTEXT_REDS)
// A match runs in one native call, which PCRE2 cannot suspend. So that a long one does not
// hold its scheduler, a run first gets this share of its match limit (PCRE2's count of
// backtracking points; a few milliseconds of work); when that is not enough, the process
// gives up its time slice and runs the match again with four times the share
// (beamvm_traps:re_run/3), up to the run's own limit: at most a third more work in all.
constexpr uint32_t FIRST_SHARE = 200000;
constexpr uint32_t SHARE_GROWTH = 4;

// badarg whose error_info names the cause (erts' EXF_HAS_EXT_INFO with fvalue badopt).
Term badopt(Process* p, const char* fn, const Term* args, unsigned arity) {
    p->error(am::badarg);
    Term info = map_from_pairs(*p, {{atom("cause"), atom("badopt")}, {am::module, atom("erl_stdlib_errors")}});
    Term item = make_tuple(*p, {am::error_info, info});
    p->ftop = make_tuple(*p, {atom("re"), atom(fn), make_list_from(*p, args, arity), make_list_from(*p, &item, 1)});
    return NON_VALUE;
}

Term trap_re(Process* p, const char* fn, std::initializer_list<Term> args) {
    return p->trap(p->ns->export_entry(atom("re"), atom(fn), uint32_t(args.size())), args);
}

Term error_tuple(Process* p, const re::CompileError& err, Term extra_tag) {
    Term r = make_tuple(*p, {make_string(*p, err.message), make_small(SWord(err.offset))});
    if (is_value(extra_tag)) r = make_tuple(*p, {extra_tag, r});
    return make_tuple(*p, {am::error, r});
}

// The pattern erts hands PCRE: a C string, so it ends at the first NUL byte.
std::string_view pattern_text(const std::vector<uint8_t>& bytes) {
    std::string_view t(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return t.substr(0, t.find('\0'));
}

Term pattern_term(Process* p, const re::Pattern& pat, const re::CompileOptions& opts, std::string_view text,
                  bool unicode) {
    return make_tuple(*p, {atom("re_pattern"), make_small(pat.captures), make_small(unicode ? 1 : 0),
                           make_small(pat.crlf ? 1 : 0), make_binary(*p, re::encode(opts, text))});
}

Term compile(Process* p, const Term* a, Term opts_list) {
    Options o;
    if (!parse_options(opts_list, o) || (o.flags & UNIQUE_EXEC_OPT)) {
        Term args[2] = {a[0], opts_list};
        return badopt(p, "compile", args, 2);
    }
    if ((o.flags & UNICODE) && !is_binary(a[0])) return trap_re(p, "ucompile", {a[0], opts_list});
    std::vector<uint8_t> bytes;
    if (!iolist_to_bytes(a[0], bytes)) return p->badarg();
    std::string_view text = pattern_text(bytes);
    re::CompileOptions copts;
    re::CompileError err{"inconsistent NEWLINE options", 0};
    std::shared_ptr<const re::Pattern> pat;
    if (compile_options(o, copts)) pat = re::compile(copts, text, err);
    if (!pat) return error_tuple(p, err, NON_VALUE);
    return make_tuple(*p, {am::ok, pattern_term(p, *pat, copts, text, o.flags & UNICODE)});
}

Term compile_1(Process* p, const Term* a) { return compile(p, a, NIL); }
Term compile_2(Process* p, const Term* a) { return compile(p, a, a[1]); }

// A subject already checked as valid UTF-8 by an earlier run on this scheduler thread:
// re.erl's global loop calls internal_run/4 with First = false on the same binary once per
// match, and checking it again each time would make a global run quadratic.
struct CheckedSubject {
    const void* data = nullptr;
    size_t size = 0;
};
thread_local CheckedSubject checked;

// Valid UTF-8 as PCRE checks it: no overlong forms, no surrogates, nothing above U+10FFFF.
// PCRE 8.44 checks the whole subject whatever the offset (PCRE2 only from the offset on).
bool valid_utf8(std::string_view s) {
    const auto* b = reinterpret_cast<const uint8_t*>(s.data());
    size_t n = s.size(), i = 0;
    while (i < n) {
        uint8_t c = b[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (len == 0 || i + len > n) return false;
        for (size_t k = 1; k < len; ++k)
            if ((b[i + k] & 0xC0) != 0x80) return false;
        if (c == 0xE0 && b[i + 1] < 0xA0) return false;   // overlong
        if (c == 0xED && b[i + 1] >= 0xA0) return false;  // surrogate
        if (c == 0xF0 && b[i + 1] < 0x90) return false;   // overlong
        if (c == 0xF4 && b[i + 1] >= 0x90) return false;  // above U+10FFFF
        i += len;
    }
    return true;
}

Term run(Process* p, Term subj, Term re_term, Term opts_list, bool first, uint32_t share = FIRST_SHARE) {
    Options o;
    Term args[3] = {subj, re_term, opts_list};
    if (!parse_options(opts_list, o)) return badopt(p, "run", args, 3);
    bool list_cap = (o.flags & CAPTURE_OPT) && o.cap_type == atom("list");
    std::shared_ptr<const re::Pattern> pat;
    re::CompileError err{"inconsistent NEWLINE options", 0};
    re::CompileOptions copts;
    if (!(is_tuple(re_term) && tuple_arity(re_term) == 5)) {
        if (!(is_binary_obj(re_term) || is_list(re_term) || is_nil(re_term))) return p->badarg();
        if ((o.flags & UNICODE) && (!is_binary(re_term) || !is_binary(subj) || (list_cap && !(o.flags & GLOBAL))))
            return trap_re(p, "urun", {subj, re_term, opts_list});
        std::vector<uint8_t> bytes;
        if (!iolist_to_bytes(re_term, bytes)) return p->badarg();
        std::string_view text = pattern_text(bytes);
        if (compile_options(o, copts)) pat = re::compile(copts, text, err);
        if (!pat) {
            if (o.flags & REPORT_ERRORS) return error_tuple(p, err, atom("compile"));
            return p->badarg();
        }
        if (o.flags & GLOBAL) {
            Term precompiled = pattern_term(p, *pat, copts, text, o.flags & UNICODE);
            Term r = make_tuple(*p, {opts_list, (o.flags & UNIQUE_COMPILE_OPT) ? am::true_ : am::false_, re_term});
            return trap_re(p, "grun", {subj, precompiled, r});
        }
    } else {
        if (o.flags & UNIQUE_COMPILE_OPT) return p->badarg();
        if (tuple_elem(re_term, 0) != atom("re_pattern") || !is_small(tuple_elem(re_term, 1)) ||
            !is_small(tuple_elem(re_term, 2)) || !is_small(tuple_elem(re_term, 3)) ||
            !is_binary(tuple_elem(re_term, 4)))
            return p->badarg();
        if (small_value(tuple_elem(re_term, 2)) != 0 && (!is_binary(subj) || (list_cap && !(o.flags & GLOBAL))))
            return trap_re(p, "urun", {subj, re_term, opts_list});
        if (o.flags & GLOBAL) return trap_re(p, "grun", {subj, re_term, make_tuple(*p, {opts_list, am::false_})});
        std::string scratch, text;
        if (!re::decode(binary_bytes(tuple_elem(re_term, 4), scratch), copts, text)) return p->badarg();
        // Newline and \R conventions given to a run override the pattern's (PCRE 8.44 takes
        // them at match time; PCRE2 only at compile time, so the pattern is compiled with them).
        if (o.newline) {
            copts.newline = pcre2_newline(o.newline);
            if (!copts.newline) return p->badarg();
        }
        if (o.bsr == 3) return p->badarg();
        if (o.bsr) copts.bsr = o.bsr == 1 ? PCRE2_BSR_ANYCRLF : PCRE2_BSR_UNICODE;
        pat = re::compile(copts, text, err);
        if (!pat) return p->badarg();
    }
    RetType type;
    int all_from;
    std::vector<Wanted> wanted;
    if (!capture_spec(o, *pat, type, all_from, wanted)) return p->badarg();

    std::string scratch;
    std::vector<uint8_t> bytes;
    std::string_view subject;
    if (is_binary(subj)) {
        subject = binary_bytes(subj, scratch);
    } else {
        if (!iolist_to_bytes(subj, bytes)) return p->badarg();
        subject = std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    size_t offset = size_t(o.offset);
    // erts ends such a run with an internal error; beamvm raises badarg.
    if (offset > subject.size()) return p->badarg();
    uint32_t match_opts = o.match;
    if (pat->utf) {
        // Only a binary's bytes stay where they are between calls.
        bool in_binary = is_binary(subj) && scratch.empty();
        bool known = !first && in_binary && checked.data == subject.data() && checked.size == subject.size();
        if (!known && !valid_utf8(subject)) return p->badarg();
        if (in_binary) checked = {subject.data(), subject.size()};
        // PCRE 8.44 checks the offset with the subject, so not when First = false (re.erl's
        // loop may continue inside a character after a \C match, as erl's does).
        if (first && offset < subject.size() && (uint8_t(subject[offset]) & 0xC0) == 0x80) return p->badarg();
        match_opts |= PCRE2_NO_UTF_CHECK;
    }

    pcre2_match_context* mctx = pcre2_match_context_create(nullptr);
    pcre2_match_data* md = pcre2_match_data_create(uint32_t(pat->captures + 1), nullptr);
    if (!mctx || !md) {
        pcre2_match_context_free(mctx);
        pcre2_match_data_free(md);
        return p->error(atom("system_limit"));
    }
    uint32_t limit = (o.flags & MATCH_LIMIT) ? o.match_limit : DEFAULT_MATCH_LIMIT;
    pcre2_set_match_limit(mctx, std::min(limit, share));
    pcre2_set_depth_limit(mctx, (o.flags & MATCH_LIMIT_RECURSION) ? o.match_limit_recursion : DEFAULT_MATCH_LIMIT);
    pcre2_set_heap_limit(mctx, HEAP_LIMIT_KIB);
    // PCRE2 refuses a null subject, which an empty vector's data() may be.
    auto data = reinterpret_cast<PCRE2_SPTR>(subject.empty() ? "" : subject.data());
    int rc = pcre2_match(pat->code, data, subject.size(), offset, match_opts, md, mctx);
    std::vector<long> ov(size_t(pat->captures + 1) * 2, -1);
    if (rc > 0) {
        PCRE2_SIZE* v = pcre2_get_ovector_pointer(md);
        for (size_t i = 0; i < size_t(rc) * 2; ++i) ov[i] = v[i] == PCRE2_UNSET ? -1 : long(v[i]);
    }
    pcre2_match_data_free(md);
    pcre2_match_context_free(mctx);
    // A match costs reductions by the length it may scan (PCRE2 does not report its work).
    p->slice_reds_used += std::min<int64_t>(CONTEXT_REDS, 1 + int64_t(subject.size() - offset) / 64);

    if (rc == PCRE2_ERROR_MATCHLIMIT && share < limit) {
        p->slice_reds_used += CONTEXT_REDS;
        uint32_t next = share > limit / SHARE_GROWTH ? limit : share * SHARE_GROWTH;
        Term rest = make_tuple(*p, {opts_list, first ? am::true_ : am::false_, make_small(next)});
        return p->trap(p->ns->export_entry(atom("beamvm_traps"), atom("re_run"), 3), {subj, re_term, rest});
    }
    if (rc < 0) {
        if (rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21) return p->badarg();
        if (rc == PCRE2_ERROR_BADUTFOFFSET || rc == PCRE2_ERROR_BADOFFSET) return p->badarg();
        // A recursion that could loop for ever: PCRE 8.44 refuses such a pattern when it
        // compiles it (so the run is badarg); PCRE2 finds it only when a match gets there.
        if (rc == PCRE2_ERROR_RECURSELOOP) return p->badarg();
        if (o.flags & REPORT_ERRORS) {
            if (rc == PCRE2_ERROR_MATCHLIMIT) return make_tuple(*p, {am::error, atom("match_limit")});
            if (rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT)
                return make_tuple(*p, {am::error, atom("match_limit_recursion")});
        }
        return atom("nomatch");
    }
    if (type == RetType::None) return atom("match");

    // The groups to report, in order: -1 for one that is not there.
    std::vector<int> groups;
    if (all_from >= 0) {
        for (int g = all_from; g < rc; ++g) groups.push_back(g);
    } else {
        for (const Wanted& w : wanted) {
            int g = -1;
            if (w.size() == 1) g = w[0];
            else
                for (int c : w)
                    if (c >= 0 && c <= pat->captures && ov[size_t(c) * 2] >= 0) {
                        g = c;
                        break;
                    }
            groups.push_back(g >= 0 && g < rc ? g : -1);
        }
    }
    bool sub_binaries = is_binary(subj) && subject.size() > 64 && scratch.empty();
    std::vector<Term> values;
    values.reserve(groups.size());
    for (int g : groups) {
        long s = g >= 0 ? ov[size_t(g) * 2] : -1, e = g >= 0 ? ov[size_t(g) * 2 + 1] : -1;
        if (type == RetType::Index) {
            values.push_back(make_tuple(*p, {make_small(s), make_small(e - s)}));
            continue;
        }
        size_t from = s < 0 ? 0 : size_t(s), len = s < 0 ? 0 : size_t(e - s);
        if (g < 0 && type == RetType::List) values.push_back(NIL);
        else if (type == RetType::List)
            values.push_back(make_byte_list(*p, reinterpret_cast<const uint8_t*>(subject.data()) + from, len));
        else if (g >= 0 && sub_binaries) values.push_back(make_sub_binary(*p, subj, from * 8, len * 8));
        else values.push_back(make_binary(*p, subject.substr(from, len)));
    }
    return make_tuple(*p, {atom("match"), make_list_from(*p, values.data(), values.size())});
}

Term run_2(Process* p, const Term* a) { return run(p, a[0], a[1], NIL, true); }
Term run_3(Process* p, const Term* a) { return run(p, a[0], a[1], a[2], true); }
// re.erl's grun loop: First = false when the subject was already checked by an earlier call.
Term internal_run_4(Process* p, const Term* a) {
    if (a[3] != am::true_ && a[3] != am::false_) return p->badarg();
    return run(p, a[0], a[1], a[2], a[3] == am::true_);
}

// beamvm:re_run/5, where beamvm_traps:re_run/3 continues a run that needed more than its
// share of work: the same run with a larger share.
Term beamvm_re_run_5(Process* p, const Term* a) {
    if ((a[3] != am::true_ && a[3] != am::false_) || !is_small(a[4]) || small_value(a[4]) <= 0 ||
        small_value(a[4]) > SWord(UINT32_MAX))
        return p->badarg();
    return run(p, a[0], a[1], a[2], a[3] == am::true_, uint32_t(small_value(a[4])));
}

// The version of the PCRE that erl links: beamvm behaves as it (re/re_pattern.hpp).
Term version_0(Process* p, const Term*) { return make_binary(*p, std::string_view("8.44 2020-02-12")); }

Term inspect_2(Process* p, const Term* a) {
    Term mp = a[0];
    if (!is_tuple(mp) || tuple_arity(mp) != 5 || tuple_elem(mp, 0) != atom("re_pattern") ||
        !is_small(tuple_elem(mp, 1)) || !is_small(tuple_elem(mp, 2)) || !is_small(tuple_elem(mp, 3)) ||
        !is_binary(tuple_elem(mp, 4)) || a[1] != atom("namelist"))
        return p->badarg();
    std::string scratch, text;
    re::CompileOptions copts;
    re::CompileError err;
    if (!re::decode(binary_bytes(tuple_elem(mp, 4), scratch), copts, text)) return p->badarg();
    auto pat = re::compile(copts, text, err);
    if (!pat) return p->badarg();
    std::vector<Term> names;
    for (size_t i = 0; i < pat->names.size(); ++i) {
        if (i > 0 && pat->dupnames && pat->names[i].first == pat->names[i - 1].first) continue;
        names.push_back(make_binary(*p, std::string_view(pat->names[i].first)));
    }
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
    {"beamvm", "re_run", 5, &beamvm_re_run_5},
};

}  // namespace

std::span<const BifSpec> re_bifs() { return table; }

}  // namespace beam

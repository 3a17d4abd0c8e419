// erts' option parsing for `re` (erl_bif_re.c): see re/re_options.hpp.
#include "re/re_options.hpp"

#include <climits>

#include "bifs/iolist.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

namespace beam::re {

uint8_t pcre2_newline(uint8_t bits) {
    switch (bits) {
    case NL_CR: return PCRE2_NEWLINE_CR;
    case NL_LF: return PCRE2_NEWLINE_LF;
    case NL_CR | NL_LF: return PCRE2_NEWLINE_CRLF;
    case NL_ANY: return PCRE2_NEWLINE_ANY;
    case NL_ANY | NL_CR: return PCRE2_NEWLINE_ANYCRLF;
    default: return 0;
    }
}

// erts' term_to_int on 64-bit: it compares the value as unsigned, so a negative one fails too.
bool term_to_int(Term t, int& out) {
    if (!is_small(t) || small_value(t) > INT_MAX || small_value(t) < 0) return false;
    out = int(small_value(t));
    return true;
}

// erl_bif_re.c's parse_options: false for anything it refuses.
bool parse_options(Term list, Options& o) {
    for (; is_list(list); list = tail(list)) {
        Term item = head(list);
        if (is_tuple(item)) {
            Word n = tuple_arity(item);
            Term k = n > 0 ? tuple_elem(item, 0) : NIL;
            if (n != 2 || !is_atom(k)) {
                if (n != 3 || k != atom("capture")) return false;
                o.cap_values = tuple_elem(item, 1);
                o.cap_type = tuple_elem(item, 2);
                o.flags |= CAPTURE_OPT | UNIQUE_EXEC_OPT;
                continue;
            }
            Term v = tuple_elem(item, 1);
            int x;
            if (k == atom("capture")) {
                o.cap_values = v;
                o.cap_type = atom("index");
                o.flags |= CAPTURE_OPT | UNIQUE_EXEC_OPT;
            } else if (k == atom("offset")) {
                if (!term_to_int(v, x) || x < 0) return false;
                o.offset = x;
                o.flags |= UNIQUE_EXEC_OPT;
            } else if (k == atom("match_limit")) {
                if (!term_to_int(v, x) || x < 0) return false;
                o.match_limit = uint32_t(x);
                o.flags |= UNIQUE_EXEC_OPT | MATCH_LIMIT;
            } else if (k == atom("match_limit_recursion")) {
                if (!term_to_int(v, x) || x < 0) return false;
                o.match_limit_recursion = uint32_t(x);
                o.flags |= UNIQUE_EXEC_OPT | MATCH_LIMIT_RECURSION;
            } else if (k == atom("newline")) {
                if (v == atom("cr")) o.newline |= NL_CR;
                else if (v == atom("crlf")) o.newline |= NL_CR | NL_LF;
                else if (v == atom("lf")) o.newline |= NL_LF;
                else if (v == atom("anycrlf")) o.newline |= NL_ANY | NL_CR;
                else if (v == atom("any")) o.newline |= NL_ANY;
                else return false;
            } else {
                return false;
            }
            continue;
        }
        if (!is_atom(item)) return false;
        struct Flag {
            const char* name;
            uint32_t compile, match, flags;
        };
        static const Flag table[] = {
            {"anchored", PCRE2_ANCHORED, PCRE2_ANCHORED, 0},
            {"notempty", 0, PCRE2_NOTEMPTY, UNIQUE_EXEC_OPT},
            {"notempty_atstart", 0, PCRE2_NOTEMPTY_ATSTART, UNIQUE_EXEC_OPT},
            {"notbol", 0, PCRE2_NOTBOL, UNIQUE_EXEC_OPT},
            {"noteol", 0, PCRE2_NOTEOL, UNIQUE_EXEC_OPT},
            {"no_start_optimize", PCRE2_NO_START_OPTIMIZE, 0, UNIQUE_COMPILE_OPT},
            {"caseless", PCRE2_CASELESS, 0, UNIQUE_COMPILE_OPT},
            {"dollar_endonly", PCRE2_DOLLAR_ENDONLY, 0, UNIQUE_COMPILE_OPT},
            {"dotall", PCRE2_DOTALL, 0, UNIQUE_COMPILE_OPT},
            {"extended", PCRE2_EXTENDED, 0, UNIQUE_COMPILE_OPT},
            {"firstline", PCRE2_FIRSTLINE, 0, UNIQUE_COMPILE_OPT},
            {"multiline", PCRE2_MULTILINE, 0, UNIQUE_COMPILE_OPT},
            {"no_auto_capture", PCRE2_NO_AUTO_CAPTURE, 0, UNIQUE_COMPILE_OPT},
            {"dupnames", PCRE2_DUPNAMES, 0, UNIQUE_COMPILE_OPT},
            {"ungreedy", PCRE2_UNGREEDY, 0, UNIQUE_COMPILE_OPT},
            {"ucp", PCRE2_UCP, 0, UNIQUE_COMPILE_OPT},
            {"never_utf", PCRE2_NEVER_UTF, 0, UNIQUE_COMPILE_OPT},
            {"report_errors", 0, 0, UNIQUE_EXEC_OPT | REPORT_ERRORS},
            {"unicode", PCRE2_UTF, 0, UNIQUE_COMPILE_OPT | UNICODE},
            {"global", 0, 0, UNIQUE_EXEC_OPT | GLOBAL},
        };
        if (item == atom("bsr_anycrlf")) {
            o.bsr |= 1;
            continue;
        }
        if (item == atom("bsr_unicode")) {
            o.bsr |= 2;
            continue;
        }
        const Flag* f = nullptr;
        for (const Flag& e : table)
            if (atom_name(item) == e.name) f = &e;
        if (!f) return false;
        o.compile |= f->compile;
        o.match |= f->match;
        o.flags |= f->flags;
    }
    return is_nil(list);
}
// The compile options a pattern is built with; false when PCRE 8.44 would refuse them
// ("inconsistent NEWLINE options").
bool compile_options(const Options& o, CompileOptions& out) {
    out.flags = o.compile;
    out.newline = o.newline ? pcre2_newline(o.newline) : 0;
    out.bsr = o.bsr == 1 ? PCRE2_BSR_ANYCRLF : o.bsr == 2 ? PCRE2_BSR_UNICODE : 0;
    return !(o.newline && !out.newline) && o.bsr != 3;
}

void groups_of_name(const Pattern& pat, std::string_view name, Wanted& out) {
    for (auto& [n, g] : pat.names)
        if (n == name) {
            out.push_back(g);
            if (!pat.dupnames) return;
        }
}


// erl_bif_re.c's build_capture: false for a capture specification it refuses.
bool capture_spec(const Options& o, const Pattern& pat, RetType& type, int& all_from, std::vector<Wanted>& wanted) {
    all_from = -1;  // -1: a list of groups in `wanted`; 0 all; 1 all_but_first
    if (!(o.flags & CAPTURE_OPT)) {
        type = RetType::Index;
        all_from = 0;
        return true;
    }
    if (o.cap_type == atom("index")) type = RetType::Index;
    else if (o.cap_type == atom("list")) type = RetType::List;
    else if (o.cap_type == atom("binary")) type = RetType::Binary;
    else return false;
    Term v = o.cap_values;
    if (v == atom("all")) {
        all_from = 0;
    } else if (v == atom("none") || is_nil(v)) {
        type = RetType::None;
    } else if (v == atom("all_but_first")) {
        all_from = 1;
    } else if (v == atom("first")) {
        wanted.push_back({0});
    } else if (v == atom("all_names")) {
        if (pat.names.empty()) type = RetType::None;
        for (size_t i = 0; i < pat.names.size(); ++i) {
            if (i > 0 && pat.dupnames && pat.names[i].first == pat.names[i - 1].first) continue;
            Wanted w;
            if (pat.dupnames) groups_of_name(pat, pat.names[i].first, w);
            else w.push_back(pat.names[i].second);
            wanted.push_back(std::move(w));
        }
    } else if (is_list(v)) {
        for (; is_list(v); v = tail(v)) {
            Term id = head(v);
            Wanted w;
            int x;
            if (term_to_int(id, x)) {
                w.push_back(x);
            } else if (is_atom(id)) {
                groups_of_name(pat, atom_name(id), w);
            } else if (is_binary_obj(id) || is_list(id) || is_nil(id)) {
                std::vector<uint8_t> name;
                if (!iolist_to_bytes(id, name)) return false;
                // A name is read up to its first NUL, as erts reads its C string.
                std::string_view s(reinterpret_cast<const char*>(name.data()), name.size());
                groups_of_name(pat, s.substr(0, s.find('\0')), w);
            } else {
                return false;
            }
            wanted.push_back(std::move(w));
        }
        if (!is_nil(v)) return false;
    } else {
        return false;
    }
    return true;
}

}  // namespace beam::re

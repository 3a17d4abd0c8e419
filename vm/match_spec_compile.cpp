// Checking and compiling match specifications (vm/match_spec.hpp). The checks and their
// messages follow erl's, which erlang:match_spec_test/3 shows to programs.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <unordered_map>

#include "bifs/bif.hpp"
#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy_term.hpp"
#include "vm/map.hpp"
#include "vm/match_spec.hpp"
#include "vm/term_print.hpp"

namespace beam {

namespace {

struct CompileError {
    std::string message;
};

// '$N' with N a decimal number: its N, else -1.
long var_number(Term t) {
    if (!is_atom(t)) return -1;
    std::string_view s = atom_name(t);
    if (s.size() < 2 || s[0] != '$' || s.size() > 11) return -1;
    long n = 0;
    for (char c : s.substr(1)) {
        if (c < '0' || c > '9') return -1;
        n = n * 10 + (c - '0');
    }
    return n;
}

// Guard functions of the match spec language: those of erlang, by name and arity.
bool is_guard_function(std::string_view name, unsigned arity) {
    struct G {
        const char* name;
        unsigned arity;
    };
    static const G table[] = {
        {"is_atom", 1},  {"is_float", 1},   {"is_integer", 1},  {"is_list", 1},    {"is_number", 1},
        {"is_pid", 1},   {"is_port", 1},    {"is_reference", 1}, {"is_tuple", 1},  {"is_map", 1},
        {"is_binary", 1}, {"is_function", 1}, {"abs", 1},       {"element", 2},    {"hd", 1},
        {"length", 1},   {"node", 1},       {"node", 0},        {"round", 1},      {"size", 1},
        {"map_size", 1}, {"map_get", 2},    {"is_map_key", 2},  {"bit_size", 1},   {"byte_size", 1},
        {"binary_part", 2}, {"binary_part", 3}, {"tl", 1},      {"trunc", 1},      {"float", 1},
        {"+", 1},        {"-", 1},          {"+", 2},           {"-", 2},          {"*", 2},
        {"/", 2},        {"div", 2},        {"rem", 2},         {"band", 2},       {"bor", 2},
        {"bxor", 2},     {"bnot", 1},       {"bsl", 2},         {"bsr", 2},        {">", 2},
        {">=", 2},       {"<", 2},          {"=<", 2},          {"=:=", 2},        {"==", 2},
        {"=/=", 2},      {"/=", 2},         {"not", 1},         {"xor", 2},
    };
    for (const G& g : table)
        if (g.arity == arity && name == g.name) return true;
    return false;
}

// A term for a message about a term too deep to print in full: its outermost layer.
std::string shallow_text(Term t) {
    if (is_tuple(t)) return "{...}";
    if (is_list(t)) return "[...]";
    if (is_map(t)) return "#{...}";
    return display_string(t);
}

class Compiler {
public:
    Compiler(MatchSpec& ms) : ms_(ms) {}

    void clause(Term head, Term guards, Term body) {
        bound_.clear();
        MsClause c;
        c.head = head_pattern(head);
        for (auto& [n, unused] : bound_) c.all_vars.push_back(slot_for(n));
        std::sort(c.all_vars.begin(), c.all_vars.end(),
                  [&](uint32_t a, uint32_t b) { return ms_.var_numbers[a] < ms_.var_numbers[b]; });
        expressions(guards, true, c.guards);
        expressions(body, false, c.body);
        if (c.body.empty() && ms_.dialect == MsDialect::Table) fail("Body clause does not return anything.");
        ms_.clauses.push_back(std::move(c));
    }

private:
    [[noreturn]] void fail(std::string message) { throw CompileError{std::move(message)}; }

    Term constant(Term t) { return copy_term(t, ms_.area); }

    uint32_t slot_for(long n) {
        auto [it, fresh] = slots_.try_emplace(n, ms_.slots);
        if (fresh) {
            ms_.slots++;
            ms_.var_numbers.push_back(uint32_t(n));
        }
        return it->second;
    }

    MsNode head_pattern(Term head) {
        if (ms_.dialect == MsDialect::Table) return pattern(head);
        // Trace: the arguments are matched as a tuple; a list head is a tuple pattern of its
        // elements, '_' and '$N' take the whole argument list.
        if (is_list(head) || is_nil(head)) {
            std::vector<Term> elems;
            if (!list_elements(head, elems))
                fail("Match expression part " + display_string(head) + " is not a proper list.");
            MsNode n{MsNode::Tuple};
            for (Term e : elems) n.kids.push_back(pattern(e));
            return n;
        }
        if (head == atom("_") || var_number(head) >= 0 || is_tuple(head)) return pattern(head);
        fail("Match head is invalid in this context.");
    }

    static bool has_variables(Term root) {
        std::vector<Term> todo{root};
        while (!todo.empty()) {
            Term t = todo.back();
            todo.pop_back();
            if (is_atom(t)) {
                if (t == atom("_") || var_number(t) >= 0) return true;
            } else if (is_list(t)) {
                todo.push_back(head(t));
                todo.push_back(tail(t));
            } else if (is_tuple(t)) {
                todo.insert(todo.end(), tuple_elems(t), tuple_elems(t) + tuple_arity(t));
            } else if (is_map(t)) {
                for (auto& [k, v] : map_pairs(t, MapOrder::Iteration)) {
                    todo.push_back(k);
                    todo.push_back(v);
                }
            }
        }
        return false;
    }

    // Nesting beyond this is refused (OTP refuses what would overflow its compiler's stack).
    static constexpr int MAX_DEPTH = 5000;
    struct Depth {
        int& d;
        Depth(int& d, Compiler& c, Term t) : d(d) {
            if (++d > MAX_DEPTH) c.fail("Excessive nesting; system limit reached near: " + shallow_text(t));
        }
        ~Depth() { --d; }
    };
    int depth_ = 0;

    MsNode pattern(Term t) {
        Depth guard_depth(depth_, *this, t);
        if (t == atom("_")) return MsNode{MsNode::Any};
        if (long n = var_number(t); n >= 0) {
            bool first = bound_.insert({n, true}).second;
            MsNode v{first ? MsNode::Bind : MsNode::Same};
            v.slot = slot_for(n);
            return v;
        }
        if (!has_variables(t)) {
            MsNode c{MsNode::Exact};
            c.term = constant(t);
            return c;
        }
        if (is_list(t)) {
            MsNode c{MsNode::List};
            for (; is_list(t); t = tail(t)) c.kids.push_back(pattern(head(t)));
            c.kids.push_back(pattern(t));
            return c;
        }
        if (is_tuple(t)) {
            MsNode c{MsNode::Tuple};
            for (Word i = 0; i < tuple_arity(t); ++i) c.kids.push_back(pattern(tuple_elem(t, i)));
            return c;
        }
        // A map: constant keys (OTP does not allow variables as keys), value patterns.
        auto pairs = map_pairs(t, MapOrder::Iteration);
        MsNode m{MsNode::MapPat};
        std::vector<Term> keys;
        for (auto& [k, v] : pairs) {
            if (has_variables(k)) fail("Match head is invalid in this context.");
            keys.push_back(k);
            m.kids.push_back(pattern(v));
        }
        m.term = constant(make_tuple_from(ms_.area, keys.data(), keys.size()));
        return m;
    }

    void expressions(Term list, bool guard, std::vector<MsNode>& out) {
        if (is_nil(list)) return;
        if (!is_list(list)) fail("Match expression is not a list.");
        for (; is_list(list); list = tail(list)) out.push_back(expr(head(list), guard));
        if (!is_nil(list)) fail("Match expression is not a proper list.");
    }

    MsNode const_node(Term t) {
        MsNode c{MsNode::Const};
        c.term = constant(t);
        return c;
    }

    MsNode expr(Term t, bool guard) {
        Depth guard_depth(depth_, *this, t);
        if (is_atom(t)) {
            if (t == atom("$_")) return MsNode{MsNode::Whole};
            if (t == atom("$$")) return MsNode{MsNode::AllVars};
            if (long n = var_number(t); n >= 0) {
                if (!bound_.count(n)) fail("Variable $" + std::to_string(n) + " is unbound.");
                MsNode v{MsNode::Var};
                v.slot = slot_for(n);
                return v;
            }
            return const_node(t);
        }
        if (is_list(t)) {
            MsNode c{MsNode::MakeList};
            for (; is_list(t); t = tail(t)) c.kids.push_back(expr(head(t), guard));
            c.kids.push_back(expr(t, guard));
            return c;
        }
        if (is_map(t)) {
            MsNode m{MsNode::MakeMap};
            m.slot = 1;
            for (auto& [k, v] : map_pairs(t, MapOrder::Iteration)) {
                m.kids.push_back(expr(k, guard));
                m.kids.push_back(expr(v, guard));
            }
            return m;
        }
        if (!is_tuple(t)) return const_node(t);
        Word n = tuple_arity(t);
        if (n == 1 && is_tuple(tuple_elem(t, 0))) {  // {{...}}: builds a tuple
            Term inner = tuple_elem(t, 0);
            MsNode c{MsNode::MakeTuple};
            for (Word i = 0; i < tuple_arity(inner); ++i) c.kids.push_back(expr(tuple_elem(inner, i), guard));
            return c;
        }
        if (n == 0 || !is_atom(tuple_elem(t, 0)))
            fail(display_string(t) + " is neither a function call, nor a tuple (tuples are written {{ ... }}).");
        return call(t, guard);
    }

    std::vector<MsNode> args(Term t, bool guard) {
        std::vector<MsNode> a;
        for (Word i = 1; i < tuple_arity(t); ++i) a.push_back(expr(tuple_elem(t, i), guard));
        return a;
    }

    MsNode call(Term t, bool guard) {
        Term f = tuple_elem(t, 0);
        std::string name(atom_name(f));
        unsigned arity = unsigned(tuple_arity(t) - 1);
        // The " in {...}." of an error message, made only when there is an error: a deeply
        // nested expression would otherwise print each level's subterm (quadratic memory).
        auto in = [t] { return " in " + display_string(t) + "."; };
        if (name == "const") {
            if (arity != 1) fail("Special form 'const' called with more than one argument" + in());
            return const_node(tuple_elem(t, 1));
        }
        if (name == "and" || name == "or" || name == "andalso" || name == "orelse") {
            if (arity == 0) fail("Special form '" + name + "' called without arguments" + in());
            MsNode b{name == "and" ? MsNode::And : name == "or" ? MsNode::Or : name == "andalso" ? MsNode::AndAlso
                                                                                                 : MsNode::OrElse};
            b.kids = args(t, guard);
            return b;
        }
        if (name == "self") {
            if (arity != 0) fail("Special form 'self' called with arguments" + in());
            return MsNode{MsNode::Self};
        }
        if (name == "is_record" && arity == 3) {
            MsNode r{MsNode::IsRecord};
            r.kids = args(t, guard);
            return r;
        }
        if (auto special = trace_form(t, name, arity, guard, in)) return *special;
        if (!is_guard_function(name, arity))
            fail("Function " + atom_text_quoted(f) + "/" + std::to_string(arity) + " does_not_exist.");
        MsNode c{MsNode::Call};
        c.bif = find_bif(atom("erlang"), f, arity);
        if (!c.bif) fail("Function " + atom_text_quoted(f) + "/" + std::to_string(arity) + " does_not_exist.");
        c.kids = args(t, guard);
        return c;
    }

    // The trace dialect's special forms: argument counts, where they may appear.
    template <class In>
    std::optional<MsNode> trace_form(Term t, const std::string& name, unsigned arity, bool guard, const In& in) {
        struct Form {
            const char* name;
            int min, max;      // arguments
            bool in_guards;    // allowed in guards
            const char* wrong; // the message for a wrong count
        };
        static const Form forms[] = {
            {"message", 1, 1, false, "called with wrong number of arguments"},
            {"return_trace", 0, 0, false, "called with arguments"},
            {"exception_trace", 0, 0, false, "called with arguments"},
            {"is_seq_trace", 0, 0, true, "called with arguments"},
            {"set_seq_token", 2, 2, false, "called with wrong number of arguments"},
            {"get_seq_token", 0, 0, false, "called with arguments"},
            {"display", 1, 1, false, "called with wrong number of arguments"},
            {"process_dump", 0, 0, false, "called with arguments"},
            {"enable_trace", 1, 2, false, "called with wrong number of arguments"},
            {"disable_trace", 1, 2, false, "called with wrong number of arguments"},
            {"trace", 2, 3, false, "called with wrong number of arguments"},
            {"caller", 0, 0, false, "called with arguments"},
            {"caller_line", 0, 0, false, "called with arguments"},
            {"silent", 1, 1, false, "called with wrong number of arguments"},
            {"get_tcw", 0, 0, true, nullptr},
            {"set_tcw", 1, 1, false, nullptr},
            {"set_tcw_fake", 1, 1, false, nullptr},
        };
        for (const Form& f : forms) {
            if (name != f.name) continue;
            if (!f.wrong) {  // functions of the trace dialect, not special forms
                std::string fa = name + "/" + std::to_string(arity);
                if (int(arity) < f.min || int(arity) > f.max) fail("Function " + fa + " does_not_exist.");
                if (ms_.dialect != MsDialect::Trace || (guard && !f.in_guards))
                    fail("Function " + fa + " cannot be called in this context.");
            } else {
                if (ms_.dialect != MsDialect::Trace) fail("Special form '" + name + "' used in wrong dialect.");
                if (guard && !f.in_guards) fail("Special form '" + name + "' called in guard context.");
                if (int(arity) < f.min || int(arity) > f.max) fail("Special form '" + name + "' " + f.wrong + in());
            }
            MsNode s{MsNode::Special};
            s.term = atom(name);
            s.kids = args(t, guard);
            return s;
        }
        return std::nullopt;
    }

    MatchSpec& ms_;
    std::unordered_map<long, bool> bound_;
    std::unordered_map<long, uint32_t> slots_;
};

}  // namespace

Result<std::unique_ptr<MatchSpec>> compile_match_spec(Term spec, MsDialect dialect) {
    auto ms = std::make_unique<MatchSpec>();
    ms->dialect = dialect;
    if (!is_list(spec)) return Error{"Match programs are not in a list."};
    Compiler c(*ms);
    try {
        Term l = spec;
        for (; is_list(l); l = tail(l)) {
            Term part = head(l);
            if (!is_tuple(part) || tuple_arity(part) != 3) return Error{"Match program part is not a tuple of arity 3."};
        }
        if (!is_nil(l)) return Error{"Match programs are not in a proper list."};
        for (l = spec; is_list(l); l = tail(l)) {
            Term part = head(l);
            c.clause(tuple_elem(part, 0), tuple_elem(part, 1), tuple_elem(part, 2));
        }
    } catch (const CompileError& e) {
        return Error{e.message};
    }
    return ms;
}

}  // namespace beam

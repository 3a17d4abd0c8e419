// Running compiled match specifications (vm/match_spec.hpp) on one object.
#include <cstdio>

#include "bifs/bif.hpp"
#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/copy_term.hpp"
#include "vm/map.hpp"
#include "vm/match_spec.hpp"
#include "vm/process.hpp"
#include "vm/seq_trace.hpp"
#include "vm/system_flags.hpp"
#include "vm/term_order.hpp"
#include "vm/term_print.hpp"
#include "vm/trace_calls.hpp"

namespace beam {

namespace {

class Run {
public:
    Run(const MatchSpec& ms, Process* p, Term object, bool effects, const MsTraceCall* call)
        : ms_(ms), p_(p), object_(object), effects_(effects), call_(call), slots_(ms.slots, NIL) {}

    MsOutcome run() {
        Term target = object_;
        if (ms_.dialect == MsDialect::Trace) {
            std::vector<Term> args;
            list_elements(object_, args);
            args_tuple_ = make_tuple_from(*p_, args.data(), args.size());
        }
        for (const MsClause& c : ms_.clauses) {
            clause_ = &c;
            if (!match_head(c.head, target)) continue;
            if (!guards_hold(c.guards)) continue;
            MsOutcome out;
            out.matched = true;
            if (ms_.dialect == MsDialect::Table) out.result = table_body(c.body);
            else trace_body(c.body, out);
            return out;
        }
        MsOutcome none;
        none.result = am::false_;
        return none;
    }

private:
    bool match_head(const MsNode& head, Term object) {
        // Trace: a tuple pattern sees the arguments as a tuple; '_' and '$N' the list itself.
        if (ms_.dialect == MsDialect::Trace && head.kind != MsNode::Any && head.kind != MsNode::Bind)
            return match(head, args_tuple_);
        return match(head, object);
    }

    bool match(const MsNode* n, Term t) {
        for (;;) {
            switch (n->kind) {
            case MsNode::Any: return true;
            case MsNode::Bind: slots_[n->slot] = t; return true;
            case MsNode::Same: return eq_exact(slots_[n->slot], t);
            case MsNode::Exact: return eq_exact(n->term, t);
            case MsNode::Tuple:
                if (!is_tuple(t) || tuple_arity(t) != n->kids.size()) return false;
                // '_', '$N' and constants, most of a table pattern's elements ({{C, '_'}, '_'}),
                // are decided here rather than by a call each: a select_count of 2,048 objects
                // spent half its time in this function's dispatch.
                for (size_t i = 0; i < n->kids.size(); ++i) {
                    const MsNode& k = n->kids[i];
                    Term e = tuple_elem(t, i);
                    switch (k.kind) {
                    case MsNode::Any: break;
                    case MsNode::Bind: slots_[k.slot] = e; break;
                    case MsNode::Exact:
                        if (!eq_exact(k.term, e)) return false;
                        break;
                    default:
                        if (!match(&k, e)) return false;
                    }
                }
                return true;
            case MsNode::List: {
                size_t elems = n->kids.size() - 1;
                for (size_t i = 0; i < elems; ++i, t = tail(t))
                    if (!is_list(t) || !match(&n->kids[i], head(t))) return false;
                n = &n->kids[elems];
                continue;
            }
            case MsNode::MapPat: {
                if (!is_map(t)) return false;
                for (size_t i = 0; i < n->kids.size(); ++i) {
                    const Term* v = map_get(t, tuple_elem(n->term, i));
                    if (!v || !match(&n->kids[i], *v)) return false;
                }
                return true;
            }
            default: return false;
            }
        }
    }
    bool match(const MsNode& n, Term t) { return match(&n, t); }

    bool guards_hold(const std::vector<MsNode>& guards) {
        for (const MsNode& g : guards)
            if (eval(g) != am::true_) return false;
        return true;
    }

    Term table_body(const std::vector<MsNode>& body) {
        Term r = NIL;  // an empty body
        for (const MsNode& e : body) {
            r = eval(e);
            if (is_non_value(r)) return atom("EXIT");
        }
        return r;
    }

    void trace_body(const std::vector<MsNode>& body, MsOutcome& out) {
        message_ = am::true_;
        for (const MsNode& e : body) {
            if (is_non_value(eval(e))) break;  // a failing expression ends the body, the match stands
        }
        out.result = message_;
        out.return_trace = return_trace_;
        out.exception_trace = exception_trace_;
    }

    // The value of an expression, or NON_VALUE when it fails.
    Term eval(const MsNode& n) {
        switch (n.kind) {
        case MsNode::Const:
            // Constants live in the spec's area, which may be freed before the result is.
            return is_immediate(n.term) ? n.term : copy_term(n.term, *p_);
        case MsNode::Var: return slots_[n.slot];
        case MsNode::Whole: return object_;
        case MsNode::AllVars: {
            Term list = NIL;
            for (size_t i = clause_->all_vars.size(); i-- > 0;)
                list = cons_at(p_->alloc(2), slots_[clause_->all_vars[i]], list);
            return list;
        }
        case MsNode::Self: return p_->pid;
        case MsNode::Call: {
            Term args[3];
            for (size_t i = 0; i < n.kids.size(); ++i)
                if (is_non_value(args[i] = eval(n.kids[i]))) return NON_VALUE;
            Term r = n.bif->fn(p_, args);
            return r;
        }
        case MsNode::IsRecord: {
            Term v = eval(n.kids[0]), name = eval(n.kids[1]), size = eval(n.kids[2]);
            if (is_non_value(v) || is_non_value(name) || is_non_value(size)) return NON_VALUE;
            if (!is_atom(name) || !is_small(size)) return NON_VALUE;
            return make_bool(is_tuple(v) && SWord(tuple_arity(v)) == small_value(size) && tuple_arity(v) > 0 &&
                             tuple_elem(v, 0) == name);
        }
        case MsNode::MakeTuple: {
            std::vector<Term> elems(n.kids.size());
            for (size_t i = 0; i < n.kids.size(); ++i)
                if (is_non_value(elems[i] = eval(n.kids[i]))) return NON_VALUE;
            return make_tuple_from(*p_, elems.data(), elems.size());
        }
        case MsNode::MakeList: {
            std::vector<Term> elems(n.kids.size());
            for (size_t i = 0; i < n.kids.size(); ++i)
                if (is_non_value(elems[i] = eval(n.kids[i]))) return NON_VALUE;
            return make_list_from(*p_, elems.data(), elems.size() - 1, elems.back());
        }
        case MsNode::MakeMap: {
            std::vector<std::pair<Term, Term>> pairs;
            for (size_t i = 0; i + 1 < n.kids.size(); i += 2) {
                Term k = eval(n.kids[i]), v = eval(n.kids[i + 1]);
                if (is_non_value(k) || is_non_value(v)) return NON_VALUE;
                pairs.push_back({k, v});
            }
            return map_from_pairs(*p_, std::move(pairs));
        }
        case MsNode::And:
        case MsNode::Or: {
            bool all = true, any = false;
            for (const MsNode& k : n.kids) {
                Term v = eval(k);
                if (v != am::true_ && v != am::false_) return NON_VALUE;
                all = all && v == am::true_;
                any = any || v == am::true_;
            }
            return make_bool(n.kind == MsNode::And ? all : any);
        }
        case MsNode::AndAlso:
        case MsNode::OrElse: {
            Term stop = n.kind == MsNode::AndAlso ? am::false_ : am::true_;
            for (const MsNode& k : n.kids) {
                Term v = eval(k);
                if (v == stop) return stop;
                if (v != am::true_ && v != am::false_) return NON_VALUE;
            }
            return n.kind == MsNode::AndAlso ? am::true_ : am::false_;
        }
        case MsNode::Special: return special(n);
        default: return NON_VALUE;
        }
    }

    // The trace dialect's forms. Without effects (erlang:match_spec_test/3) they give what
    // they give for a call that is not traced; the actions on tracing are in
    // vm/trace_calls.cpp (ms_trace_action).
    Term special(const MsNode& n) {
        std::string_view name = atom_name(n.term);
        std::vector<Term> args;
        for (const MsNode& k : n.kids) {
            Term v = eval(k);
            if (is_non_value(v)) return NON_VALUE;
            args.push_back(v);
        }
        if (name == "message") {
            message_ = args[0];
            return am::true_;
        }
        if (name == "return_trace") return return_trace_ = true, am::true_;
        if (name == "exception_trace") return exception_trace_ = true, am::true_;
        if (name == "display") {
            // As erlang:display/1: erl ends the line with "\r\n" (bifs/misc.cpp).
            std::printf("%s\r\n", display_string(args[0]).c_str());
            std::fflush(stdout);
            return am::true_;
        }
        if (name == "caller") return call_ && is_value(call_->caller) ? call_->caller : am::undefined;
        if (name == "caller_line") return call_ && is_value(call_->caller_line) ? call_->caller_line : am::undefined;
        // seq_trace's token (vm/seq_trace.hpp); set_seq_token changes it only when the spec
        // runs for real (erl's match_spec_test/3 leaves the token alone).
        if (name == "is_seq_trace") return make_bool(p_ && seq_current_token(p_) != NIL);
        if (name == "get_seq_token") return p_ ? seq_current_token(p_) : NIL;
        if (name == "set_seq_token") {
            if (!effects_ || !p_) return am::true_;
            return is_value(seq_trace_set(p_, args[0], args[1])) ? am::true_ : NON_VALUE;
        }
        // The trace control word is the VM's (0 for a spec run without a process).
        if (name == "get_tcw") return make_small(p_ ? SWord(system_flags(*p_->vm).trace_control_word.load()) : 0);
        if (name == "set_tcw" || name == "set_tcw_fake") {
            if (!is_small(args[0]) || small_value(args[0]) < 0 || small_value(args[0]) > 0xFFFFFFFF) return NON_VALUE;
            if (!p_) return make_small(0);
            std::atomic<uint32_t>& tcw = system_flags(*p_->vm).trace_control_word;
            uint32_t old = name == "set_tcw" && effects_ ? tcw.exchange(uint32_t(small_value(args[0]))) : tcw.load();
            return make_small(SWord(old));
        }
        // enable_trace, disable_trace, trace, silent, process_dump, set_seq_token
        return ms_trace_action(p_, name, args, effects_ && call_);
    }

    const MatchSpec& ms_;
    Process* p_;
    Term object_;
    bool effects_;
    const MsTraceCall* call_;
    Term args_tuple_ = NIL;
    std::vector<Term> slots_;
    const MsClause* clause_ = nullptr;
    Term message_ = am::true_;
    bool return_trace_ = false;
    bool exception_trace_ = false;
};

}  // namespace

MsOutcome run_match_spec(const MatchSpec& ms, Process* p, Term object, bool effects, const MsTraceCall* call) {
    return Run(ms, p, object, effects, call).run();
}

}  // namespace beam

// trace_pattern(send | 'receive', ...) filtering (vm/trace_message_patterns.hpp).
#include "vm/trace_message_patterns.hpp"

#include <vector>

#include "vm/breakpoints.hpp"
#include "vm/copy_term.hpp"
#include "vm/match_spec.hpp"
#include "vm/process.hpp"
#include "vm/trace.hpp"
#include "vm/vm.hpp"

namespace beam {

bool send_trace_wanted(Process* p, Term to, Term msg, Term* extra) {
    *extra = NON_VALUE;
    const MessageTracePattern& pat = p->vm->send_trace_pattern;
    if (!pat.on.load(std::memory_order_acquire)) return false;
    std::shared_ptr<const TraceMatchSpec> spec = pat.spec.load(std::memory_order_acquire);
    if (!spec || !spec->compiled) return true;
    Term args = cons_at(p->alloc(2), to, cons_at(p->alloc(2), msg, NIL));
    MsTraceCall call;  // no caller: erl refuses caller() here
    call.caller = am::undefined;
    call.caller_line = am::undefined;
    MsOutcome out = run_match_spec(*spec->compiled, p, args, true, &call);
    if (!out.matched || out.result == am::false_) return false;
    if (trace_flags_of(p) & trace_flag::SILENT) return false;
    if (is_value(out.result) && out.result != am::true_) *extra = out.result;
    return true;
}

bool spec_uses_caller(Term spec) {
    std::vector<Term> todo{spec};
    while (!todo.empty()) {
        Term t = todo.back();
        todo.pop_back();
        if (is_list(t)) {
            todo.push_back(head(t));
            todo.push_back(tail(t));
        } else if (is_tuple(t)) {
            if (tuple_arity(t) == 1 && (tuple_elem(t, 0) == atom("caller") || tuple_elem(t, 0) == atom("caller_line")))
                return true;
            for (Word i = 0; i < tuple_arity(t); ++i) todo.push_back(tuple_elem(t, i));
        }
    }
    return false;
}

bool receive_trace_wanted(Process* p) { return p->vm->receive_trace_pattern.on.load(std::memory_order_acquire); }

Term message_pattern_info(Process* p, const MessageTracePattern& pattern) {
    if (!pattern.on.load(std::memory_order_acquire)) return am::false_;
    std::shared_ptr<const TraceMatchSpec> spec = pattern.spec.load(std::memory_order_acquire);
    if (!spec || !spec->compiled) return am::true_;
    return copy_term(spec->source, *p);
}

}  // namespace beam

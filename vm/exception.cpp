// Raising and catching: stack traces in OTP's shape, unwinding to the innermost catch.
//
// A trace is a list of {M, F, ArityOrArgs, Location} frames, at most backtrace_depth long
// (8 unless erlang:system_flag(backtrace_depth, N) changed it, vm/system_flags.hpp). Its first frame is, in order of preference: a prebuilt frame
// (a failed BIF, with error_info; an undefined function), then the function executing when the
// exception was raised, then one frame per return address on the stack.
#include <fmt/format.h>

#include <vector>

#include "bifs/bif_util.hpp"
#include "vm/interp.hpp"
#include "vm/interp_support.hpp"
#include "vm/map.hpp"
#include "vm/system_flags.hpp"
#include "vm/trace_calls.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {
Term make_tuple(Process* p, std::initializer_list<Term> elems) { return beam::make_tuple(*p, elems); }
Term list_from(Process* p, const Term* elems, size_t n) { return make_list_from(*p, elems, n); }

// [{file, "f.erl"}, {line, N}] or [] when the code has no line information there.
Term location(Process* p, const ModuleCode* mc, const Word* pc) {
    const LineRecord* lr = mc->line_at(pc);
    if (!lr || lr->line == 0 || lr->file >= mc->files.size()) return NIL;
    Term file = make_tuple(p, {am::file, mc->files[lr->file]});
    Term line = make_tuple(p, {am::line, make_small(lr->line)});
    Term items[2] = {file, line};
    return list_from(p, items, 2);
}

// The frame for code address `pc`, or NON_VALUE when pc is not in module code. `extra` (an
// {error_info, Map} from error/3, or NON_VALUE) ends the location list.
Term frame_at(Process* p, const Word* pc, Term arity_or_args, Term extra = NON_VALUE) {
    ModuleCode* mc = p->vm->code_at(pc);
    if (!mc) return NON_VALUE;
    const FunctionInfo* fi = mc->function_at(pc);
    if (!fi) return NON_VALUE;
    Term a = is_value(arity_or_args) ? arity_or_args : make_small(fi->arity);
    Term loc = location(p, mc, pc);
    if (is_value(extra)) {
        std::vector<Term> items;
        for (Term l = loc; is_list(l); l = tail(l)) items.push_back(head(l));
        items.push_back(extra);
        loc = list_from(p, items.data(), items.size());
    }
    return make_tuple(p, {mc->name, fi->name, a, loc});
}

Term build_trace(Process* p, const Word* pc) {
    std::vector<Term> frames;
    if (is_value(p->ftop)) frames.push_back(p->ftop);
    if (!p->fskip_pc_frame) {
        Term f = frame_at(p, pc, p->fargs, p->ferror_info);
        if (is_value(f)) frames.push_back(f);
    }
    // As OTP's gather_stacktrace, a return address equal to the one just recorded is skipped:
    // body recursion through one call site shows as a single frame. A depth of 0 still keeps
    // the first frame, as erl does.
    const Word* prev = nullptr;
    size_t depth = std::max<size_t>(1, system_flags(*p->vm).backtrace_depth.load(std::memory_order_relaxed));
    for (Term* s = p->stop; s < p->hend && frames.size() < depth; ++s) {
        if (!is_cp(*s) || is_trace_frame_cp(*s)) continue;
        if (cp_of(*s) == prev) continue;
        prev = cp_of(*s);
        // A return address points after the call; the call itself carries the location.
        Term f = frame_at(p, cp_of(*s) - 1, NON_VALUE);
        if (is_value(f)) frames.push_back(f);
    }
    if (frames.size() > depth) frames.resize(depth);
    return list_from(p, frames.data(), frames.size());
}

}  // namespace

// process_info's current_stacktrace: q's current function, then its callers from the return
// addresses on its stack, as deep as an exception's trace. q is p itself or a process p has
// borrowed (not running), so its pc and stack hold still. A backtrace_depth of 0 gives [], as
// on erl (an exception's trace keeps its first frame even then: see above).
Term current_stacktrace(Process* p, const Process* q, size_t min_depth) {
    size_t depth = std::max<size_t>(min_depth, system_flags(*p->vm).backtrace_depth.load(std::memory_order_relaxed));
    if (depth == 0) return NIL;
    std::vector<Term> frames;
    Term f = frame_at(p, q->pc, NON_VALUE);
    if (is_value(f)) frames.push_back(f);
    const Word* prev = q->pc;
    for (Term* s = q->stop; s < q->hend && frames.size() < depth; ++s) {
        if (!is_cp(*s) || is_trace_frame_cp(*s) || cp_of(*s) == prev) continue;  // as build_trace
        prev = cp_of(*s);
        f = frame_at(p, cp_of(*s) - 1, NON_VALUE);
        if (is_value(f)) frames.push_back(f);
    }
    return list_from(p, frames.data(), frames.size());
}

namespace {

bool is_raising_bif(const BifSpec* spec) {
    if (spec->module != "erlang") return false;
    // nif_error is not one of them: erl's trace starts with {erlang, nif_error, Args, _}.
    return spec->name == "error" || spec->name == "exit" || spec->name == "throw" || spec->name == "raise";
}
}  // namespace

Term class_atom(ErrorClass c) {
    switch (c) {
    case ErrorClass::Error: return am::error;
    case ErrorClass::Exit: return am::exit;
    case ErrorClass::Throw: return am::throw_;
    }
    return am::error;
}

// The module whose format_error/2 explains a failed native of `module`, as OTP chooses it.
Term error_info_module(std::string_view module) {
    static constexpr std::string_view erts[] = {"erlang", "erts_internal", "atomics", "counters", "persistent_term"};
    static constexpr std::string_view stdlib[] = {"binary", "ets", "lists", "maps", "math", "re", "unicode"};
    for (auto m : erts)
        if (module == m) return am::erl_erts_errors;
    for (auto m : stdlib)
        if (module == m) return am::erl_stdlib_errors;
    if (module == "os") return atom("erl_kernel_errors");
    return NON_VALUE;
}

void note_bif_error(Process* p, const BifSpec* spec, const Term* args) {
    if (is_raising_bif(spec) || p->ftrace_preset || is_value(p->ftop)) return;
    Term m = atom(spec->module), f = atom(spec->name);
    Term arglist = list_from(p, args, spec->arity);
    Term info_mod = error_info_module(spec->module);
    Term loc = NIL;  // natives of other modules (NIF modules such as zlib) carry no error_info
    if (is_value(info_mod)) {
        Term info = is_value(p->fcause) ? map_from_pairs(*p, {{am::module, info_mod}, {atom("cause"), p->fcause}})
                                        : map_from_pairs(*p, {{am::module, info_mod}});
        Term loc_item = make_tuple(p, {am::error_info, info});
        loc = list_from(p, &loc_item, 1);
    }
    p->ftop = make_tuple(p, {m, f, arglist, loc});
}

const Word* handle_exception(Process* p, Term* x, const Word* pc) {
    if (!p->ftrace_preset) p->ftrace = build_trace(p, pc);
    Term cls = class_atom(p->fclass);
    Term raw = make_tuple(p, {cls, p->ftrace});
    p->ftop = NON_VALUE;
    p->fargs = NON_VALUE;
    p->ferror_info = NON_VALUE;
    p->fcause = NON_VALUE;
    p->fskip_pc_frame = false;
    p->ftrace_preset = false;
    if (p->catches == 0) {
        if (p->call_trace_frames) trace_unwind(p, cls, p->fvalue, p->hend, false);
        return nullptr;
    }
    // Find the innermost catch marker; the frame holding it starts just above the previous
    // return address (or at the stack pointer if none was passed).
    Term* frame_base = p->stop;
    for (Term* s = p->stop; s < p->hend; ++s) {
        if (is_cp(*s)) {
            frame_base = s + 1;
        } else if (is_catch(*s)) {
            // Call tracing's frames passed on the way report the exception (exception_trace).
            if (p->call_trace_frames) trace_unwind(p, cls, p->fvalue, s, true);
            p->stop = frame_base;
            x[0] = NON_VALUE;
            x[1] = cls;
            x[2] = p->fvalue;
            x[3] = raw;
            // The catch has them now; kept here they would keep what they hold alive (a NIF
            // resource among a failed call's arguments) until the next exception.
            p->fvalue = NIL;
            p->ftrace = NIL;
            return catch_address(*s);
        }
    }
    if (p->call_trace_frames) trace_unwind(p, cls, p->fvalue, p->hend, false);
    return nullptr;
}

void raise_function_clause(Process* p, Term* x, const FunctionInfo* fn) {
    p->error(am::function_clause);
    p->fargs = list_from(p, x, fn->arity);
}

Term catch_value(Process* p, Term* x) {
    Term cls = x[1], reason = x[2];
    if (cls == am::throw_) return reason;
    if (cls == am::exit) return make_tuple(p, {am::EXIT, reason});
    Term trace = stacktrace_of(p, x[3]);
    return make_tuple(p, {am::EXIT, make_tuple(p, {reason, trace})});
}

Term stacktrace_of(Process* p, Term raw) {
    if (is_tuple(raw) && tuple_arity(raw) == 2) return tuple_elem(raw, 1);
    return raw;
}

void reraise(Process* p, Term raw, Term value) {
    ErrorClass c = ErrorClass::Error;
    Term trace = NIL;
    if (is_tuple(raw) && tuple_arity(raw) == 2) {
        Term cls = tuple_elem(raw, 0);
        c = cls == am::throw_ ? ErrorClass::Throw : cls == am::exit ? ErrorClass::Exit : ErrorClass::Error;
        trace = tuple_elem(raw, 1);
    }
    p->raise(c, value);
    p->ftrace = trace;
    p->ftrace_preset = true;
}

bool raw_raise(Process* p, Term cls, Term reason, Term trace) {
    ErrorClass c;
    if (cls == am::error) c = ErrorClass::Error;
    else if (cls == am::exit) c = ErrorClass::Exit;
    else if (cls == am::throw_) c = ErrorClass::Throw;
    else return false;
    p->raise(c, reason);
    p->ftrace = stacktrace_of(p, trace);
    p->ftrace_preset = true;
    return true;
}

void raise_not_implemented(Process* p, const char* what) {
    std::fprintf(stderr, "beamvm: %s is not implemented\n", what);
    p->error(make_tuple(p, {atom("not_implemented"), atom(what)}));
}

const BifSpec* bif_plus() {
    static const BifSpec* s = find_bif(am::erlang, atom("+"), 2);
    return s;
}
const BifSpec* bif_minus() {
    static const BifSpec* s = find_bif(am::erlang, atom("-"), 2);
    return s;
}

}  // namespace beam

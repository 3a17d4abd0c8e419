// Call tracing at run time (vm/trace_calls.hpp): a traced call's messages, its match
// specification, counters, and the frames that report returns and exceptions.
#include "vm/trace_calls.hpp"
#include "vm/term_order.hpp"

#include <utility>

#include "bifs/bif.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_backtrace.hpp"
#include "bifs/system_trace.hpp"
#include "vm/binary.hpp"
#include "vm/breakpoints.hpp"
#include "vm/interp_support.hpp"
#include "vm/clocks.hpp"
#include "vm/code_table.hpp"
#include "vm/interp.hpp"
#include "vm/process.hpp"
#include "vm/trace.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// The arguments of a traced call as the trace message shows them. A function that matches a
// binary in its head can receive the caller's match context instead (the compiler passes it
// on): as erts does, it is shown as the part of the binary it has not matched yet.
Term call_arguments(Process* p, const Term* x, unsigned arity) {
    std::vector<Term> args(x, x + arity);
    for (Term& a : args) {
        if (!is_boxed(a) || header_sub(box_header(a)) != Sub::MatchState) continue;
        const Term* ms = boxed_ptr(a);
        a = make_slice(*p, ms[1], size_t(ms[2].raw), size_t(ms[3].raw - ms[2].raw));
    }
    return make_list_from(*p, args.data(), args.size());
}

// The flags word of a return trace frame.
constexpr SWord RT_EXCEPTION = 1, RT_META = 2;
// What a traced call asks for afterwards (OTP's MATCH_SET_* return flags).
constexpr uint32_t WANT_RETURN = 1, WANT_EXCEPTION = 2, WANT_RETURN_TO = 4;

struct TraceCode {
    Word return_trace[1];
    Word return_to_trace[1];
    Word return_to_bif_trace[1];
    Word return_time_trace[1];
};
const TraceCode& trace_code() {
    static const TraceCode c{{handler_word(Op::return_trace)},
                             {handler_word(Op::return_to_trace)},
                             {handler_word(Op::return_to_bif_trace)},
                             {handler_word(Op::return_time_trace)}};
    return c;
}

// {M, F, A} of the function holding code address pc, or `undefined`.
Term function_mfa(Process* p, const Word* pc) {
    ModuleCode* mc = p->vm->code_at(pc);
    const FunctionInfo* fi = mc ? mc->function_at(pc) : nullptr;
    if (!fi) return am::undefined;
    return make_tuple(*p, {mc->name, fi->name, make_small(fi->arity)});
}

// The first real return address at or above `s` (trace frames skipped), or nullptr.
const Term* real_return_slot(const Process* p, const Term* s) {
    while (s < p->hend) {
        if (!is_cp(*s)) return nullptr;
        const Word* cp = cp_of(*s);
        if (cp == trace_code().return_trace) s += 4;
        else if (cp == trace_code().return_to_trace) s += 1;
        else if (cp == trace_code().return_to_bif_trace || cp == trace_code().return_time_trace) s += 2;
        else return s;
    }
    return nullptr;
}

// The code address a traced call returns into: the calling BIF instruction for a traced BIF
// bound at load time (it runs inside its caller), else the return address at `top` (the
// stack's top at the call) past call tracing's frames. Null if there is none.
const Word* calling_pc(const Process* p, const Term* top, const Word* bif_caller) {
    if (bif_caller) return bif_caller;
    const Term* s = real_return_slot(p, top);
    return s ? cp_of(*s) - 1 : nullptr;
}

// caller() and caller_line(): {M, F, A} and {M, F, A, {File, Line}} of the calling function.
void callers(Process* p, const Word* pc, MsTraceCall& call) {
    call.caller = call.caller_line = am::undefined;
    ModuleCode* mc = pc ? p->vm->code_at(pc) : nullptr;
    const FunctionInfo* fi = mc ? mc->function_at(pc) : nullptr;
    if (!fi) return;
    call.caller = make_tuple(*p, {mc->name, fi->name, make_small(fi->arity)});
    const LineRecord* lr = mc->line_at(pc);
    Term loc = am::undefined;
    if (lr && lr->line != 0 && lr->file < mc->files.size())
        loc = make_tuple(*p, {mc->files[lr->file], make_small(lr->line)});
    call.caller_line = make_tuple(*p, {mc->name, fi->name, make_small(fi->arity), loc});
}

// A meta tracer (always erl_tracer with a pid or port here) as a Tracer to emit to.
struct MetaTracer {
    Tracer t;
    explicit MetaTracer(Term dest) {
        t.module = atom("erl_tracer");
        t.state = dest;
    }
};

// One call's trace, for the process's own tracer (meta null) or a meta tracer: runs the
// match spec, emits the call message, and says which frames to push (OTP's erts_call_trace).
uint32_t call_trace(Process* p, Term* x, Term m, Term f, uint32_t arity, const TraceMatchSpec* ms, bool local,
                    const Tracer* meta, const Word* caller_pc) {
    using namespace trace_flag;
    // The process's tracer as it was before the match spec ran: the spec may take it away
    // (disable_trace), and the call is still reported to it (erl).
    TracerRef tracer;
    if (!meta) {
        uint32_t pflags = trace_flags_of(p);
        if (!(pflags & CALL)) return 0;
        tracer = tracer_of(p);
        if (!tracer) return 0;
        if (!tracer_alive(*p->vm, *tracer)) {
            set_trace(p, 0, nullptr);
            return 0;
        }
        // erl_tracer:enabled/3 discards what a process would trace to itself.
        if (tracer->destination() == p->pid) return 0;
    } else if (is_sensitive(p) || !tracer_alive(*p->vm, *meta) || meta->destination() == p->pid) {
        return 0;
    }
    Term args = call_arguments(p, x, arity);
    Term pam = am::true_;
    uint32_t want = 0;
    if (ms && ms->compiled) {
        MsTraceCall call;
        callers(p, caller_pc, call);
        MsOutcome out = run_match_spec(*ms->compiled, p, args, true, &call);
        pam = out.matched ? out.result : am::false_;
        if (out.return_trace) want |= WANT_RETURN;
        if (out.exception_trace) want |= WANT_EXCEPTION;
    }
    uint32_t flags = TIMESTAMP;  // meta tracing: a fixed set
    if (!meta) {
        flags = trace_flags_of(p);  // the spec may have changed them (silent/1)
        if (flags & SILENT) return 0;
        if (pam == am::false_) return want;
        if (local && (flags & RETURN_TO)) want |= WANT_RETURN_TO;
    } else if (pam == am::false_) {
        return want;
    }
    Term mfa = make_tuple(*p, {m, f, (flags & ARITY) && !meta ? make_small(arity) : args});
    Term what = atom("call");
    if (meta) {
        if (pam == am::true_) trace_emit_to(p, *meta, flags, what, {mfa});
        else trace_emit_to(p, *meta, flags, what, {mfa, pam});
    } else {
        if (pam == am::true_) trace_emit_to(p, *tracer, flags, what, {mfa});
        else trace_emit_to(p, *tracer, flags, what, {mfa, pam});
    }
    return want;
}

// Pushes the frames `want` asks for on the stack (the space was reserved by the caller).
// True if the trace frames on top of the stack include a return_to frame already (a tail
// call of a traced function from another): one return_to message will do, as erl.
bool return_to_pending(const Process* p) {
    for (const Term* s = p->stop; s < p->hend && is_cp(*s);) {
        const Word* cp = cp_of(*s);
        if (cp == trace_code().return_to_trace) return true;
        if (cp == trace_code().return_to_bif_trace || cp == trace_code().return_time_trace) {
            s += 2;
            continue;
        }
        if (cp != trace_code().return_trace) return false;
        s += 4;
    }
    return false;
}

// `bif_caller`: a BIF bound at load time is traced, called from this code address. erl
// reports its return to that function even when the call was a tail call (the BIF runs
// inside its caller there).
void push_frames(Process* p, uint32_t want, Term m, Term f, uint32_t arity, Term meta_dest,
                 const Word* bif_caller = nullptr) {
    // The stack pointer moves before each frame's terms are made, so that the heap words
    // they take cannot be the frame's own (Process::alloc keeps below p->stop).
    if ((want & WANT_RETURN_TO) && bif_caller) {
        Term* E = p->stop -= 2;
        E[0] = make_cp(trace_code().return_to_bif_trace);
        E[1] = NIL;
        E[1] = function_mfa(p, bif_caller);
        p->call_trace_frames = true;
    } else if ((want & WANT_RETURN_TO) && !return_to_pending(p)) {
        Term* E = p->stop -= 1;
        E[0] = make_cp(trace_code().return_to_trace);
        p->call_trace_frames = true;
    }
    if (want & (WANT_RETURN | WANT_EXCEPTION)) {
        Term* E = p->stop -= 4;
        E[0] = make_cp(trace_code().return_trace);
        E[1] = NIL;
        E[2] = make_small((want & WANT_EXCEPTION ? RT_EXCEPTION : 0) | (is_value(meta_dest) ? RT_META : 0));
        E[3] = is_value(meta_dest) ? meta_dest : NIL;
        E[1] = make_tuple(*p, {m, f, make_small(arity)});
        p->call_trace_frames = true;
    }
}

// The words the interpreter checked for stay free for push_frames while the match spec and
// the messages allocate on the heap.
struct ReservedFrames {
    Process* p;
    Term* top;
    bool held = true;
    // The reserved words lie inside the stack while the match spec runs, and its
    // process_dump action walks the stack as terms: they hold [] until frames are pushed.
    // (Left as they were, they showed whatever the block held before: a crash, now and then,
    // in conformance.trace_call_actions with two schedulers.)
    explicit ReservedFrames(Process* proc) : p(proc), top(proc->stop) {
        p->stop -= TRACE_FRAME_WORDS;
        for (size_t i = 0; i < TRACE_FRAME_WORDS; ++i) p->stop[i] = NIL;
    }
    ~ReservedFrames() { release(); }
    void release() {
        if (held) p->stop = top;
        held = false;
    }
};

// A process whose tracer is gone stops being traced (erl_tracer:enabled/3 says remove).
bool process_tracer_alive(Process* p) {
    TracerRef tracer = tracer_of(p);
    if (tracer && tracer_alive(*p->vm, *tracer)) return true;
    set_trace(p, 0, nullptr);
    return false;
}

// call_time: adds the time since the process's last call_time event to the function running
// until now, and `calls` to its count.
void charge_time(Process* p, const FunctionInfo* fi, int64_t now, uint64_t calls) {
    Breakpoint* bp = fi ? breakpoint_of(*fi) : nullptr;
    if (!bp) return;
    uint32_t flags = bp->flags.load(std::memory_order_acquire);
    if ((flags & (bp_flag::TIME | bp_flag::TIME_PAUSED)) != bp_flag::TIME) return;
    std::lock_guard lock(bp->time_mutex);
    CallTime& ct = bp->times[p->pid.raw];
    ct.count += calls;
    int64_t since = p->rare().call_time_since;
    if (now > since) ct.ns += uint64_t(now - since);
}

// A call of fi, traced for call_time (OTP's erts_trace_time_call): the caller's time so far
// is charged to it, and a frame remembers it so that the return charges fi and resumes it.
void time_call(Process* p, const FunctionInfo* fi) {
    int64_t now = monotonic_ns();
    Process::Rare& rare = p->rare();
    const FunctionInfo* prev = rare.call_time_fn;
    if (prev) charge_time(p, prev, now, 0);
    rare.call_time_fn = fi;
    rare.call_time_since = now;
    charge_time(p, fi, now, 1);
    Term* E = p->stop;
    if (is_trace_frame_cp(E[0])) return;  // erl keeps one frame there
    E = p->stop -= 2;
    E[0] = make_cp(trace_code().return_time_trace);
    E[1] = prev ? make_small(SWord(reinterpret_cast<uintptr_t>(prev))) : NIL;
    p->call_trace_frames = true;
}

}  // namespace

const Word* return_trace_address() { return trace_code().return_trace; }
const Word* return_to_trace_address() { return trace_code().return_to_trace; }
bool is_trace_frame_cp(Term t) {
    if (!is_cp(t)) return false;
    const Word* cp = cp_of(t);
    return cp == trace_code().return_trace || cp == trace_code().return_to_trace ||
           cp == trace_code().return_to_bif_trace || cp == trace_code().return_time_trace;
}

namespace {
Term module_of_function(Process* p, const FunctionInfo* fi) {
    ModuleCode* mc = p->vm->code_at(fi->entry);
    return mc ? mc->name : am::undefined;
}
}  // namespace

const Word* debug_break(Process* p, Term* x, const FunctionInfo* fi) {
    return debug_breakpoint_target(p, x, module_of_function(p, fi), fi->name, fi->arity);
}

Word breakpoint_hit(Process* p, Term* x, const FunctionInfo* fi) {
    const Word* bif_caller = std::exchange(p->traced_bif_caller, nullptr);
    Breakpoint* bp = breakpoint_of(*fi);
    uint32_t flags = bp->flags.load(std::memory_order_acquire);
    Term m = module_of_function(p, fi);
    uint32_t want = 0, meta_want = 0;
    Term meta_dest = NON_VALUE;
    {
        const Word* caller_pc = calling_pc(p, p->stop, bif_caller);
        ReservedFrames reserve(p);
        if (flags & bp_flag::LOCAL) {
            TraceMatchSpecRef ms = bp->local_ms.load(std::memory_order_acquire);
            want = call_trace(p, x, m, fi->name, fi->arity, ms.get(), true, nullptr, caller_pc);
        }
        if (flags & bp_flag::META) {
            TracerRef tracer = bp->meta_tracer.load(std::memory_order_acquire);
            if (tracer && !tracer_alive(*p->vm, *tracer)) {
                // A meta tracer that is gone leaves the breakpoint without one (erl).
                bp->meta_tracer.compare_exchange_strong(tracer, nullptr);
                tracer = nullptr;
            }
            if (tracer) {
                TraceMatchSpecRef ms = bp->meta_ms.load(std::memory_order_acquire);
                meta_want = call_trace(p, x, m, fi->name, fi->arity, ms.get(), true, tracer.get(), caller_pc);
                meta_dest = tracer->destination();
            }
        }
        if ((flags & (bp_flag::COUNT | bp_flag::COUNT_PAUSED)) == bp_flag::COUNT)
            bp->count.fetch_add(1, std::memory_order_relaxed);
        bool timed = (flags & (bp_flag::TIME | bp_flag::TIME_PAUSED)) == bp_flag::TIME &&
                     (trace_flags_of(p) & trace_flag::CALL) && process_tracer_alive(p);
        reserve.release();
        if (want) push_frames(p, want, m, fi->name, fi->arity, NON_VALUE, bif_caller);
        if (meta_want & (WANT_RETURN | WANT_EXCEPTION))
            push_frames(p, meta_want & (WANT_RETURN | WANT_EXCEPTION), m, fi->name, fi->arity, meta_dest);
        if (timed) time_call(p, fi);
    }
    return flags & bp_flag::DEBUG ? 0 : bp->original;
}

const Word* export_trace_hit(Process* p, Term* x, const ExportTrace* t) {
    p->traced_bif_caller = nullptr;
    const Word* target = t->target.load(std::memory_order_acquire);
    Export* e = t->exp;
    const Word* caller_pc = calling_pc(p, p->stop, nullptr);
    ReservedFrames reserve(p);
    TraceMatchSpecRef ms = t->ms.load(std::memory_order_acquire);
    uint32_t want = call_trace(p, x, e->module, e->function, e->arity, ms.get(), false, nullptr, caller_pc);
    reserve.release();
    if (want) push_frames(p, want, e->module, e->function, e->arity, NON_VALUE);
    return target;
}

void trace_return(Process* p, const Term* E, Term value) {
    SWord fl = small_value(E[1]);
    if (fl & RT_META) {
        MetaTracer meta(E[2]);
        if (tracer_alive(*p->vm, meta.t) && E[2] != p->pid) trace_emit_to(p, meta.t, trace_flag::TIMESTAMP, atom("return_from"), {E[0], value});
        return;
    }
    if (trace_flags_of(p) & trace_flag::CALL) trace_emit(p, atom("return_from"), {E[0], value});
}

void trace_return_to(Process* p, const Word* cp) {
    if (!(trace_flags_of(p) & trace_flag::RETURN_TO)) return;
    (void)cp;
    const Term* s = real_return_slot(p, p->stop);
    Term mfa = s ? function_mfa(p, cp_of(*s) - 1) : am::undefined;
    trace_emit(p, atom("return_to"), {mfa});
}

void trace_return_time(Process* p, Term prev) {
    int64_t now = monotonic_ns();
    Process::Rare& rare = p->rare();
    charge_time(p, rare.call_time_fn, now, 0);
    rare.call_time_fn = is_small(prev) ? reinterpret_cast<const FunctionInfo*>(uintptr_t(small_value(prev))) : nullptr;
    rare.call_time_since = now;
}

void trace_return_to_bif(Process* p, Term mfa) {
    if (trace_flags_of(p) & trace_flag::RETURN_TO) trace_emit(p, atom("return_to"), {mfa});
}

void trace_unwind(Process* p, Term cls, Term value, const Term* to, bool caught) {
    // A throw nothing catches ends the process as error:{nocatch, Value}: erl reports it so.
    if (!caught && cls == am::throw_) {
        cls = am::error;
        value = make_tuple(*p, {atom("nocatch"), value});
    }
    const Word* rt = trace_code().return_trace;
    const Word* rto = trace_code().return_to_trace;
    const Word* return_to = nullptr;
    bool after_return_to = false;
    // A traced BIF that raised: a catch in its calling function (nothing but the BIF's
    // return_to frame between) reports the return to that function, as erl does.
    Term bif_caller = NON_VALUE;
    bool bif_return_next = false;
    for (const Term* s = p->stop; s < to; ++s) {
        if (!is_cp(*s)) continue;
        const Word* cp = cp_of(*s);
        if (cp == rt) {
            SWord fl = small_value(s[2]);
            if (fl & RT_EXCEPTION) {
                Term cv = make_tuple(*p, {cls, value});
                if (fl & RT_META) {
                    MetaTracer meta(s[3]);
                    if (tracer_alive(*p->vm, meta.t))
                        trace_emit_to(p, meta.t, trace_flag::TIMESTAMP, atom("exception_from"), {s[1], cv});
                } else if (trace_flags_of(p) & trace_flag::CALL) {
                    trace_emit(p, atom("exception_from"), {s[1], cv});
                }
            }
            s += 3;
        } else if (cp == rto) {
            after_return_to = true;
            return_to = nullptr;
        } else if (cp == trace_code().return_to_bif_trace) {
            bif_caller = s[1];
            bif_return_next = true;
            s += 1;
        } else if (cp == trace_code().return_time_trace) {
            s += 1;
        } else {
            return_to = after_return_to ? cp : nullptr;
            after_return_to = false;
            // The BIF's own return address (a body call) is in its caller: still there. After
            // a tail call it is the caller's caller's, and the caller is gone.
            if (!bif_return_next || !is_value(bif_caller) || compare_terms(function_mfa(p, cp - 1), bif_caller) != 0)
                bif_caller = NON_VALUE;
            bif_return_next = false;
        }
    }
    if (caught && is_value(bif_caller) && (trace_flags_of(p) & trace_flag::RETURN_TO)) {
        trace_emit(p, atom("return_to"), {bif_caller});
        return;
    }
    if (caught && return_to && (trace_flags_of(p) & trace_flag::RETURN_TO))
        trace_emit(p, atom("return_to"), {function_mfa(p, return_to - 1)});
}

const Word* caller_return_address(const Process* p, const Term* E) {
    if (!is_cp(E[0]) || !is_trace_frame_cp(E[0])) return cp_of(E[0]);
    const Term* s = real_return_slot(p, E);
    return s ? cp_of(*s) : cp_of(E[0]);
}

bool traces_bif(const FunctionInfo& fi) {
    static const Word bif_body = handler_word(Op::bif_body_p);
    Breakpoint* bp = breakpoint_of(fi);
    return bp && bp->flags.load(std::memory_order_acquire) != 0 && bp->original == bif_body;
}

const Word* traced_bif_target(Process* p, const BifSpec* spec) {
    Term m = atom(spec->module), f = atom(spec->name);
    Export* e = p->ns->export_entry(m, f, spec->arity);
    if (ExportTrace* t = std::atomic_ref<ExportTrace*>(e->trace).load(std::memory_order_acquire); t && t->active())
        return t->stub;
    if (ModuleCode* mc = p->ns->current(m))
        for (const FunctionInfo& fi : mc->functions)
            if (fi.name == f && fi.arity == spec->arity && traces_bif(fi)) return fi.entry;
    return nullptr;
}

Term ms_trace_action(Process* p, std::string_view name, const std::vector<Term>& args, bool effects) {
    if (!effects) return am::true_;
    if (name == "silent") {
        if (args[0] == am::true_) p->trace_flags.fetch_or(trace_flag::SILENT, std::memory_order_acq_rel);
        else if (args[0] == am::false_) p->trace_flags.fetch_and(~trace_flag::SILENT, std::memory_order_acq_rel);
        return am::true_;
    }
    if (name == "enable_trace" || name == "disable_trace" || name == "trace")
        return trace_flags_action(p, name, args);
    // erl's text is its stack dump of the process, the text process_info(P, backtrace) gives.
    if (name == "process_dump") return make_binary(*p, backtrace_text(p, p));
    return am::true_;
}

}  // namespace beam

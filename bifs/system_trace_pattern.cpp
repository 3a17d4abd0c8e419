// erlang:trace_pattern/2,3 and the function half of erlang:trace_info/2: which functions are
// call traced and how (vm/breakpoints.hpp holds the breakpoints, vm/trace_calls.cpp what a
// traced call does). Mirrors OTP's erl_bif_trace.c (trace_pattern, trace_info_func).
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <vector>

#include "bifs/bif.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_trace.hpp"
#include "vm/bignum.hpp"
#include "vm/breakpoints.hpp"
#include "vm/code_table.hpp"
#include "vm/copy_term.hpp"
#include "vm/process.hpp"
#include "vm/trace_calls.hpp"
#include "vm/trace_message_patterns.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// What trace_pattern's second argument asks (OTP's erts_break_op).
enum class BreakOp { Off, On, Restart, Pause };

struct PatternFlags {
    bool global = false, local = false, meta = false, count = false, time = false;
    bool breakpoint() const { return local || meta || count || time; }
    TracerRef meta_tracer;
};

// trace_pattern's flag list; false for what erl refuses.
bool parse_pattern_flags(Process* p, Term list, PatternFlags& f) {
    for (; is_list(list); list = tail(list)) {
        Term item = head(list);
        if (is_tuple(item)) {
            // {meta, Pid | Port} or {meta, Module, State}
            if (tuple_arity(item) < 2 || tuple_arity(item) > 3 || tuple_elem(item, 0) != atom("meta")) return false;
            if (f.global) return false;
            f.meta_tracer = tuple_arity(item) == 2 ? make_tracer(p, tuple_elem(item, 1), NON_VALUE)
                                                   : make_tracer(p, tuple_elem(item, 1), tuple_elem(item, 2));
            if (!f.meta_tracer) return false;
            f.meta = true;
        } else if (item == atom("local")) {
            if (f.global) return false;
            f.local = true;
        } else if (item == atom("meta")) {
            if (f.global) return false;
            f.meta = true;
            if (!f.meta_tracer) f.meta_tracer = make_tracer(p, p->pid, NON_VALUE);
        } else if (item == atom("global")) {
            if (f.breakpoint()) return false;
            f.global = true;
        } else if (item == atom("call_count")) {
            if (f.global) return false;
            f.count = true;
        } else if (item == atom("call_time")) {
            if (f.global) return false;
            f.time = true;
        } else {
            return false;
        }
    }
    return is_nil(list);
}

// *bad: 1 for a specification erl refuses (badarg), 2 for one nested too deeply (system_limit).
TraceMatchSpecRef make_pattern_spec(Term pattern, int* bad) {
    *bad = 0;
    auto ms = std::make_shared<TraceMatchSpec>();
    if (is_nil(pattern) || pattern == am::true_ || pattern == atom("restart") || pattern == atom("pause")) return ms;
    auto compiled = compile_match_spec(pattern, MsDialect::Trace);
    if (!compiled.ok()) {
        *bad = compiled.error().message.find("Excessive nesting") != std::string::npos ? 2 : 1;
        return nullptr;
    }
    ms->compiled = std::move(compiled.value());
    ms->source = copy_term(pattern, ms->area);
    return ms;
}

// The namespaces a process sees modules in: its own, then its ancestors'.
std::vector<std::pair<Term, ModuleCode*>> visible_modules(Process* p) {
    std::vector<std::pair<Term, ModuleCode*>> out;
    for (Namespace* ns = p->ns; ns; ns = ns->parent())
        for (Term m : ns->loaded_modules()) {
            bool seen = std::any_of(out.begin(), out.end(), [&](auto& e) { return e.first == m; });
            if (!seen)
                if (ModuleCode* mc = p->ns->current(m)) out.push_back({m, mc});
        }
    return out;
}

bool mfa_matches(Term m, Term f, uint32_t a, const Term spec[3], int specified) {
    if (specified >= 1 && m != spec[0]) return false;
    if (specified >= 2 && f != spec[1]) return false;
    if (specified >= 3 && SWord(a) != small_value(spec[2])) return false;
    return true;
}

// Local breakpoints (local, meta, call_count, call_time) on one function (OTP's
// erts_set_trace_break and friends, set_function_break).
void set_local(ModuleCode& mc, FunctionInfo& fi, BreakOp op, const PatternFlags& pf, const TraceMatchSpecRef& ms) {
    using namespace bp_flag;
    Breakpoint* bp = breakpoint_of(fi);
    // pause and restart act on existing counters only; local and meta they switch on.
    if (!bp && (op == BreakOp::Off || (op != BreakOp::On && !pf.local && !pf.meta))) return;
    if (!bp) bp = ensure_breakpoint(mc, fi);
    uint32_t flags = bp->flags.load(std::memory_order_acquire);
    if (op == BreakOp::Off) {
        if (pf.local) flags &= ~LOCAL;
        if (pf.meta) flags &= ~META;
        if (pf.count) flags &= ~(COUNT | COUNT_PAUSED);
        if (pf.time) flags &= ~(TIME | TIME_PAUSED);
    } else {
        if (pf.local) {
            bp->local_ms.store(ms, std::memory_order_release);
            flags |= LOCAL;
        }
        if (pf.meta) {
            bp->meta_ms.store(ms, std::memory_order_release);
            bp->meta_tracer.store(pf.meta_tracer, std::memory_order_release);
            flags |= META;
        }
        if (pf.count && ((flags & COUNT) || op == BreakOp::On)) {
            if (op == BreakOp::Pause) {
                flags |= COUNT_PAUSED;
            } else {
                bp->count.store(0, std::memory_order_relaxed);
                flags = (flags | COUNT) & ~COUNT_PAUSED;
            }
        }
        if (pf.time && ((flags & TIME) || op == BreakOp::On)) {
            if (op == BreakOp::Pause) {
                flags |= TIME_PAUSED;
            } else {
                std::lock_guard lock(bp->time_mutex);
                bp->times.clear();
                flags = (flags | TIME) & ~TIME_PAUSED;
            }
        }
    }
    bp->flags.store(flags, std::memory_order_release);
    update_entry(fi, *bp);
}

void clear_local(FunctionInfo& fi) {
    Breakpoint* bp = breakpoint_of(fi);
    if (!bp) return;
    bp->flags.store(0, std::memory_order_release);
    update_entry(fi, *bp);
}

// OTP's erts_set_trace_pattern for an {M, F, A} with `specified` parts given.
SWord set_pattern(Process* p, const Term spec[3], int specified, BreakOp op, const PatternFlags& pf,
                  const TraceMatchSpecRef& ms) {
    VM& vm = *p->vm;
    CallTracing& ct = vm.call_tracing;
    // What matches is gathered first: the namespace's lock is never taken inside ct.mutex
    // (a load applies the on_load pattern the other way round).
    std::vector<Export*> exports;
    std::vector<std::pair<ModuleCode*, FunctionInfo*>> functions;
    for (auto& [m, mc] : visible_modules(p)) {
        if (specified >= 1 && m != spec[0]) continue;
        // Global tracing lives in export entries: the module's exported functions.
        for (auto& [f, a] : mc->exports)
            if (mfa_matches(m, f, a, spec, specified)) exports.push_back(p->ns->export_entry(m, f, a));
        for (FunctionInfo& fi : mc->functions)
            if (mfa_matches(m, fi.name, fi.arity, spec, specified)) functions.push_back({mc, &fi});
    }
    std::lock_guard lock(ct.mutex);
    for (Export* e : exports) {
        ExportTrace* t = std::atomic_ref<ExportTrace*>(e->trace).load(std::memory_order_acquire);
        if (op != BreakOp::Off && !pf.breakpoint()) {
            if (!t) t = ensure_export_trace(ct, e);
            t->ms.store(ms, std::memory_order_release);
            bool was = t->active();
            set_export_trace(*t, true);
            if (e->bif && !was && t->active()) ct.bifs_traced.fetch_add(1, std::memory_order_relaxed);
        } else if (op == BreakOp::Off && pf.breakpoint()) {
            // turning breakpoint tracing off leaves global tracing alone
        } else if (t) {
            bool was = t->active();
            set_export_trace(*t, false);
            if (e->bif && was && !t->active()) ct.bifs_traced.fetch_sub(1, std::memory_order_relaxed);
        }
    }
    for (auto [mc, fi] : functions) {
        bool was_bif = traces_bif(*fi);
        if (op != BreakOp::Off && !pf.breakpoint()) clear_local(*fi);  // global replaces local
        else set_local(*mc, *fi, op, pf, ms);
        bool is_bif = traces_bif(*fi);
        if (was_bif != is_bif) ct.bifs_traced.fetch_add(is_bif ? 1 : -1, std::memory_order_relaxed);
    }
    return SWord(pf.breakpoint() ? functions.size() : exports.size());
}

// trace_pattern(on_load, ...): the pattern new modules get (OTP keeps a default pattern).
void update_on_load(CallTracing& ct, BreakOp op, const PatternFlags& pf, const TraceMatchSpecRef& ms) {
    CallTracing::OnLoad& d = ct.on_load;
    uint32_t bits = (pf.local ? bp_flag::LOCAL : 0) | (pf.meta ? bp_flag::META : 0) |
                    (pf.count && op == BreakOp::On ? bp_flag::COUNT : 0) |
                    (pf.time && op == BreakOp::On ? bp_flag::TIME : 0);
    if (!pf.breakpoint()) {
        d.set = op != BreakOp::Off;
        d.flags = 0;
        d.ms = ms;
        d.meta_ms = nullptr;
        d.meta_tracer = nullptr;
        return;
    }
    if (pf.local) d.ms = ms;
    if (pf.meta) d.meta_ms = ms, d.meta_tracer = pf.meta_tracer;
    if (d.set && d.flags == 0 && op == BreakOp::Off) return;  // global stays
    if (op != BreakOp::Off) {
        d.flags = (d.set && d.flags == 0) ? bits : (d.flags | bits);
        d.set = d.flags != 0;
    } else {
        d.flags &= ~(bits | (pf.count ? bp_flag::COUNT : 0) | (pf.time ? bp_flag::TIME : 0));
        d.set = d.flags != 0;
    }
}

void set_on_load(CallTracing& ct, BreakOp op, const PatternFlags& pf, const TraceMatchSpecRef& ms) {
    std::lock_guard lock(ct.mutex);
    update_on_load(ct, op, pf, ms);
    ct.on_load_set.store(ct.on_load.set, std::memory_order_release);
}

// badarg with erl's cause: which argument was wrong (match_spec, badopt, call_count, none).
Term bad(Process* p, const char* cause) {
    p->badarg();
    p->fcause = atom(cause);
    return NON_VALUE;
}

Term trace_pattern(Process* p, Term mfa, Term pattern, Term flag_list) {
    BreakOp op = BreakOp::On;
    if (pattern == am::false_) op = BreakOp::Off;
    else if (pattern == atom("restart")) op = BreakOp::Restart;
    else if (pattern == atom("pause")) op = BreakOp::Pause;
    int bad_spec = 0;
    TraceMatchSpecRef ms = op == BreakOp::Off ? nullptr : make_pattern_spec(pattern, &bad_spec);
    if (bad_spec == 2) return p->error(atom("system_limit"));
    if (bad_spec) return bad(p, "match_spec");
    PatternFlags pf;
    if (!parse_pattern_flags(p, flag_list, pf)) return bad(p, "badopt");
    // A match specification needs local or meta tracing to act on.
    if (ms && ms->compiled && !pf.local && !pf.meta && (pf.count || pf.time)) return bad(p, "call_count");
    if (mfa == atom("on_load")) {
        set_on_load(p->vm->call_tracing, op, pf, ms);
        return make_small(0);
    }
    if (is_tuple(mfa)) {
        if (tuple_arity(mfa) != 3) return bad(p, "none");
        Term spec[3] = {tuple_elem(mfa, 0), tuple_elem(mfa, 1), tuple_elem(mfa, 2)};
        if (!is_atom(spec[0]) || !is_atom(spec[1]) || (!is_small(spec[2]) && spec[2] != atom("_")))
            return bad(p, "none");
        int specified = 0;
        while (specified < 3 && spec[specified] != atom("_")) ++specified;
        for (int i = specified; i < 3; ++i)
            if (spec[i] != atom("_")) return bad(p, "none");
        return make_small(set_pattern(p, spec, specified, op, pf, ms));
    }
    if (mfa == atom("send") || mfa == atom("receive")) {
        if (pf.global || pf.breakpoint() || op == BreakOp::Restart || op == BreakOp::Pause) return bad(p, "none");
        if (ms && ms->compiled && spec_uses_caller(pattern)) return bad(p, "match_spec");
        MessageTracePattern& pat = mfa == atom("send") ? p->vm->send_trace_pattern : p->vm->receive_trace_pattern;
        if (ms && ms->compiled && mfa == atom("receive")) {
            std::fprintf(stderr, "beamvm: erlang:trace_pattern/3 with a 'receive' match specification is not implemented\n");
            return p->error(make_tuple(*p, {atom("not_implemented"), atom("erlang:trace_pattern/3")}));
        }
        pat.spec.store(ms && ms->compiled ? ms : nullptr, std::memory_order_release);
        pat.on.store(op != BreakOp::Off, std::memory_order_release);
        return make_small(1);
    }
    return bad(p, "none");
}

Term trace_pattern_2(Process* p, const Term* a) { return trace_pattern(p, a[0], a[1], NIL); }
Term trace_pattern_3(Process* p, const Term* a) { return trace_pattern(p, a[0], a[1], a[2]); }

// {call_time, [{Pid, Count, S, Us}]} of a breakpoint.
Term call_times(Process* p, Breakpoint& bp) {
    std::lock_guard lock(bp.time_mutex);
    Term list = NIL;
    for (auto& [pid, ct] : bp.times) {
        Term item = make_tuple(*p, {Term{pid}, make_integer_u(*p, ct.count), make_integer_u(*p, ct.ns / 1'000'000'000),
                                    make_integer_u(*p, ct.ns / 1000 % 1'000'000)});
        list = cons_at(p->alloc(2), item, list);
    }
    return list;
}

Term spec_source(Process* p, const TraceMatchSpecRef& ms) {
    if (!ms || !ms->compiled) return NIL;
    return copy_term(ms->source, *p);
}

}  // namespace

Term trace_info_function(Process* p, Term what, Term item) {
    static const Term items[] = {atom("traced"), atom("match_spec"), atom("meta"), atom("meta_match_spec"),
                                 atom("call_count"), atom("call_time"), am::all};
    bool known_item = std::find(std::begin(items), std::end(items), item) != std::end(items);
    if (what == atom("send") || what == atom("receive")) {
        if (item != atom("match_spec")) return p->badarg();
        const MessageTracePattern& pat = what == atom("send") ? p->vm->send_trace_pattern : p->vm->receive_trace_pattern;
        return make_tuple(*p, {item, message_pattern_info(p, pat)});
    }
    if (what == atom("on_load")) {
        if (!known_item) return make_tuple(*p, {item, am::false_});  // as erl
        // The default pattern for modules loaded later.
        CallTracing& ct = p->vm->call_tracing;
        std::lock_guard lock(ct.mutex);
        const CallTracing::OnLoad& d = ct.on_load;
        Term traced = !d.set ? am::false_ : d.flags == 0 ? atom("global") : (d.flags & bp_flag::LOCAL) ? atom("local") : am::false_;
        if (item == atom("traced")) return make_tuple(*p, {item, traced});
        if (item == atom("match_spec")) return make_tuple(*p, {item, traced == am::false_ ? am::false_ : spec_source(p, d.ms)});
        return make_tuple(*p, {item, am::false_});
    }
    if (!is_tuple(what)) return bad(p, "badopt");
    bool mfa = is_tuple(what) && tuple_arity(what) == 3 && is_atom(tuple_elem(what, 0)) &&
               is_atom(tuple_elem(what, 1)) && is_small(tuple_elem(what, 2));
    if (!mfa || !known_item) return p->badarg();
    Term m = tuple_elem(what, 0), f = tuple_elem(what, 1);
    SWord a = small_value(tuple_elem(what, 2));
    ModuleCode* mc = p->ns->current(m);
    FunctionInfo* fi = nullptr;
    if (mc)
        for (FunctionInfo& x : mc->functions)
            if (x.name == f && SWord(x.arity) == a) fi = &x;
    Export* e = nullptr;
    if (mc && std::find(mc->exports.begin(), mc->exports.end(), std::pair<Term, uint32_t>{f, uint32_t(a)}) != mc->exports.end())
        e = p->ns->export_entry(m, f, uint32_t(a));
    else if (find_bif_in(*p->vm, m, f, unsigned(a)))
        e = p->ns->export_entry(m, f, uint32_t(a));
    if (!fi && !e) return make_tuple(*p, {item, am::undefined});
    std::lock_guard lock(p->vm->call_tracing.mutex);
    ExportTrace* t = e ? std::atomic_ref<ExportTrace*>(e->trace).load(std::memory_order_acquire) : nullptr;
    Term traced = am::false_, match_spec = am::false_, meta = am::false_, meta_ms = am::false_;
    Term count = am::false_, time = am::false_;
    bool any = false;
    if (t && t->active()) {
        traced = atom("global");
        match_spec = spec_source(p, t->ms.load());
        any = true;
    } else if (Breakpoint* bp = fi ? breakpoint_of(*fi) : nullptr) {
        uint32_t flags = bp->flags.load(std::memory_order_acquire);
        if (flags & bp_flag::LOCAL) {
            traced = atom("local");
            match_spec = spec_source(p, bp->local_ms.load());
            any = true;
        }
        if (flags & bp_flag::META) {
            TracerRef tr = bp->meta_tracer.load();
            meta = tr ? tr->to_term(*p) : am::false_;
            meta_ms = spec_source(p, bp->meta_ms.load());
            any = true;
        }
        if (flags & bp_flag::COUNT) {
            count = make_integer(*p, bp->count.load(std::memory_order_relaxed));
            any = true;
        }
        if (flags & bp_flag::TIME) {
            time = call_times(p, *bp);
            any = true;
        }
    }
    if (!any) return make_tuple(*p, {item, am::false_});
    if (item == atom("traced")) return make_tuple(*p, {item, traced});
    if (item == atom("match_spec")) return make_tuple(*p, {item, match_spec});
    if (item == atom("meta")) return make_tuple(*p, {item, meta == am::false_ ? NIL : meta});
    if (item == atom("meta_match_spec")) return make_tuple(*p, {item, meta_ms});
    if (item == atom("call_count")) return make_tuple(*p, {item, count});
    if (item == atom("call_time")) return make_tuple(*p, {item, time});
    Term pairs[] = {make_tuple(*p, {atom("traced"), traced}),       make_tuple(*p, {atom("match_spec"), match_spec}),
                    make_tuple(*p, {atom("meta"), meta}),           make_tuple(*p, {atom("meta_match_spec"), meta_ms}),
                    make_tuple(*p, {atom("call_time"), time}),      make_tuple(*p, {atom("call_count"), count})};
    return make_tuple(*p, {item, make_list_from(*p, pairs, 6)});
}

// A module version just made current gets the on_load pattern (trace_pattern(on_load, ...)).
void apply_on_load_pattern(VM& vm, Namespace& ns, ModuleCode& mc) {
    CallTracing& ct = vm.call_tracing;
    std::lock_guard lock(ct.mutex);
    const CallTracing::OnLoad& d = ct.on_load;
    if (!d.set) return;
    if (d.flags == 0) {
        // (the namespace's lock is held by the load: export_entry takes it again)
        for (auto& [f, a] : mc.exports) {
            Export* e = ns.export_entry(mc.name, f, a);
            ExportTrace* t = ensure_export_trace(ct, e);
            t->ms.store(d.ms, std::memory_order_release);
            set_export_trace(*t, true);
        }
        return;
    }
    for (FunctionInfo& fi : mc.functions) {
        Breakpoint* bp = ensure_breakpoint(mc, fi);
        if (d.flags & bp_flag::LOCAL) bp->local_ms.store(d.ms);
        if (d.flags & bp_flag::META) bp->meta_ms.store(d.meta_ms), bp->meta_tracer.store(d.meta_tracer);
        bp->flags.store(d.flags, std::memory_order_release);
        update_entry(fi, *bp);
    }
}

namespace {
// erts_debug:breakpoint({M, F, A}, Bool) ('_' for the parts left open): calls of the matching
// functions go to ErrorHandler:breakpoint(M, F, Args) instead (vm/instructions.tab
// trace_breakpoint), or no longer. The number of functions matched is the answer.
Term debug_breakpoint_2(Process* p, const Term* a) {
    Term mfa = a[0];
    if ((a[1] != am::true_ && a[1] != am::false_) || !is_tuple(mfa) || tuple_arity(mfa) != 3) return p->badarg();
    Term spec[3] = {tuple_elem(mfa, 0), tuple_elem(mfa, 1), tuple_elem(mfa, 2)};
    if (!is_atom(spec[0]) || !is_atom(spec[1]) || (!is_small(spec[2]) && spec[2] != atom("_"))) return p->badarg();
    int specified = 0;
    while (specified < 3 && spec[specified] != atom("_")) ++specified;
    for (int i = specified; i < 3; ++i)
        if (spec[i] != atom("_")) return p->badarg();
    std::vector<std::pair<ModuleCode*, FunctionInfo*>> functions;
    for (auto& [m, mc] : visible_modules(p)) {
        if (specified >= 1 && m != spec[0]) continue;
        for (FunctionInfo& fi : mc->functions)
            if (mfa_matches(m, fi.name, fi.arity, spec, specified) && !traces_bif(fi)) functions.push_back({mc, &fi});
    }
    std::lock_guard lock(p->vm->call_tracing.mutex);
    for (auto [mc, fi] : functions) {
        Breakpoint* bp = a[1] == am::true_ ? ensure_breakpoint(*mc, *fi) : breakpoint_of(*fi);
        if (!bp) continue;
        uint32_t flags = bp->flags.load(std::memory_order_acquire);
        bp->flags.store(a[1] == am::true_ ? flags | bp_flag::DEBUG : flags & ~bp_flag::DEBUG, std::memory_order_release);
        update_entry(*fi, *bp);
    }
    return make_small(SWord(functions.size()));
}

constexpr BifSpec table[] = {
    {"erts_debug", "breakpoint", 2, &debug_breakpoint_2},
    {"erlang", "trace_pattern", 2, &trace_pattern_2},
    {"erlang", "trace_pattern", 3, &trace_pattern_3},
    {"erts_internal", "trace_pattern", 3, &trace_pattern_3},
};
}  // namespace

std::span<const BifSpec> trace_pattern_bifs() { return table; }

}  // namespace beam

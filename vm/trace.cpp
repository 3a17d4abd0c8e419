// Process tracing: tracers, flags and trace messages (vm/trace.hpp).
#include "vm/trace.hpp"

#include <ctime>
#include <utility>
#include <vector>

#include "bifs/bif_util.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/scheduler.hpp"
#include "scheduler/signals.hpp"
#include "vm/bignum.hpp"
#include "vm/clocks.hpp"
#include "vm/copy_term.hpp"
#include "vm/ext_term.hpp"
#include "vm/gc.hpp"
#include "vm/heap.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beam {

Term Tracer::to_term(TermAllocator& a) const {
    if (module == atom("erl_tracer") && (is_pid(state) || is_port(state))) return state;
    return make_tuple(a, {module, state});
}

bool Tracer::same_as(const Tracer& other) const {
    return module == other.module && compare_terms(state, other.state) == 0;
}

Term Tracer::destination() const {
    if (module == atom("erl_tracer") && (is_pid(state) || is_port(state))) return state;
    return NIL;
}

TracerRef make_tracer(Process* caller, Term module_or_pid, Term state) {
    auto t = std::make_shared<Tracer>();
    if (is_value(state)) {
        // {tracer, Module, State}: only erl_tracer runs here (other tracer modules are NIF
        // libraries on erl, which beamvm cannot load).
        if (module_or_pid != atom("erl_tracer")) return nullptr;
        if (!is_pid(state) && !is_port(state)) return nullptr;
        t->module = module_or_pid;
        t->state = state;
    } else {
        if (!is_pid(module_or_pid) && !is_port(module_or_pid)) return nullptr;
        t->module = atom("erl_tracer");
        t->state = module_or_pid;
    }
    // A tracer that is already gone is accepted, as erl does: the tracee drops it at its
    // next event.
    (void)caller;
    return t;
}

bool tracer_alive(VM& vm, const Tracer& tracer) {
    Term dest = tracer.destination();
    if (is_pid(dest)) {
        Process* q = vm.procs.lookup(dest);
        if (!q) return false;
        bool alive = !(q->sched.state.load(std::memory_order_acquire) & run_state::EXITED);
        ProcessTable::release(q);
        return alive;
    }
    if (is_port(dest)) return port_is_open(vm, dest);
    return false;
}

TracerRef tracer_of(const Process* p) { return p->tracer.load(std::memory_order_acquire); }

void set_trace(Process* p, uint32_t flags, TracerRef tracer) {
    if (flags == 0) tracer = nullptr;
    p->tracer.store(std::move(tracer), std::memory_order_release);
    flags &= ~trace_flag::SENSITIVE;
    uint32_t old = p->trace_flags.load(std::memory_order_relaxed);
    while (!p->trace_flags.compare_exchange_weak(old, flags | (old & trace_flag::SENSITIVE),
                                                 std::memory_order_acq_rel)) {
    }
}

Term trace_timestamp(TermAllocator& a, uint32_t flags) {
    using namespace trace_flag;
    auto now_tuple = [&](int64_t us) {
        return make_tuple(a, {make_small(us / 1'000'000'000'000), make_small(us / 1'000'000 % 1'000'000),
                              make_small(us % 1'000'000)});
    };
    // erl's precedence: timestamp (the CPU time once trace(all, true, [cpu_timestamp]) ran),
    // then strict_monotonic_timestamp, then monotonic_timestamp.
    if (flags & CPU_TIMESTAMP) {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return now_tuple(int64_t(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000);
    }
    if (flags & TIMESTAMP) return now_tuple(unique_now_us());
    if (flags & STRICT_MONOTONIC_TIMESTAMP) {
        static std::atomic<uint64_t> unique{1};
        return make_tuple(a, {make_integer(a, monotonic_ns()),
                              make_integer_u(a, unique.fetch_add(1, std::memory_order_relaxed))});
    }
    if (flags & MONOTONIC_TIMESTAMP) return make_integer(a, monotonic_ns());
    return NON_VALUE;
}

void trace_emit_to(Process* tracee, const Tracer& tracer, uint32_t flags, Term what,
                   std::initializer_list<Term> extra) {
    trace_emit_id(*tracee->vm, tracee->pid, tracer, flags, what, extra);
}

void trace_emit_id(VM& vm, Term tracee, const Tracer& tracer, uint32_t flags, Term what,
                   std::initializer_list<Term> extra) {
    Term dest = tracer.destination();
    // trace(all, true, [cpu_timestamp]) makes every `timestamp` a CPU-time one.
    if ((flags & trace_flag::TIMESTAMP) && vm.cpu_timestamp.load(std::memory_order_relaxed))
        flags |= trace_flag::CPU_TIMESTAMP;
    LiteralArea scratch;
    std::vector<Term> elems;
    elems.reserve(4 + extra.size());
    Term ts = trace_timestamp(scratch, flags);
    elems.push_back(is_value(ts) ? atom("trace_ts") : atom("trace"));
    elems.push_back(tracee);
    elems.push_back(what);
    elems.insert(elems.end(), extra.begin(), extra.end());
    // scheduler_id: the number of the scheduler the event happened on, before the timestamp.
    if (flags & trace_flag::SCHEDULER_ID) elems.push_back(make_small(Schedulers::current_index() + 1));
    if (is_value(ts)) elems.push_back(ts);
    Term msg = make_tuple_from(scratch, elems.data(), elems.size());
    if (is_pid(dest)) {
        post_message(vm, dest, msg);
    } else if (is_port(dest)) {
        // A port tracer gets each message in the external term format, as erl sends it.
        std::vector<uint8_t> bytes;
        if (encode_external(msg, bytes, {.node = &vm.node})) port_command(vm, dest, bytes.data(), bytes.size());
    }
}

void trace_sched(Process* p, const char* what) {
    // As erl: the function the process is in ({M, F, A}), 0 once it is exiting.
    LiteralArea scratch;
    Term where = make_small(0);
    if (!(p->sched.state.load(std::memory_order_acquire) & run_state::EXITED)) {
        if (p->sched.hibernating) {
            where = make_tuple(scratch, {am::erlang, atom("hibernate"), make_small(3)});
        } else if (p->pc == nif_resume_code() && p->rare_if_any()) {
            // In a NIF call that goes on later or on a dirty scheduler: its step.
            const NifContinuation& c = p->rare_if_any()->nif;
            unsigned arity = c.state == NifContinuation::State::Step ? c.argc : c.origin_arity;
            where = make_tuple(scratch, {c.module, c.name, make_small(arity)});
        } else if (ModuleCode* mc = p->vm->code_at(p->pc)) {
            if (const FunctionInfo* fi = mc->function_at(p->pc))
                where = make_tuple(scratch, {mc->name, fi->name, make_small(fi->arity)});
        } else {
            where = make_tuple(scratch, {p->sched.initial_m, p->sched.initial_f, make_small(p->sched.initial_a)});
        }
    }
    trace_emit(p, atom(what), {where});
}

void trace_gc(Process* p, const char* what, size_t words) {
    // Built outside the heap being collected: the message is copied to the tracer at once.
    LiteralArea scratch;
    Term info = gc_info_list(scratch, p);
    Term word = make_tuple(scratch, {atom("wordsize"), make_small(SWord(words))});
    trace_emit(p, atom(what), {cons_at(scratch.alloc(2), word, info)});
}

uint64_t trace_flags_as_erl(uint32_t flags) {
    using namespace trace_flag;
    // erl_process.h: three timestamp-type bits, then F_TRACE_FLAG(N) = 1 << (3 + N).
    static constexpr std::pair<uint32_t, uint64_t> bits[] = {
        {TIMESTAMP, 1},           {STRICT_MONOTONIC_TIMESTAMP, 2}, {MONOTONIC_TIMESTAMP, 4},
        {SEND, 1 << 4},           {RECEIVE, 1 << 5},               {SET_ON_SPAWN, 1 << 6},
        {SET_ON_FIRST_SPAWN, 1 << 7}, {SET_ON_LINK, 1 << 8},       {SET_ON_FIRST_LINK, 1 << 9},
        {CALL, 1 << 10},          {PROCS, 1 << 11},                {RUNNING, 1 << 13},
        {GARBAGE_COLLECTION, 1 << 14}, {ARITY, 1 << 15},           {RETURN_TO, 1 << 16},
        {SILENT, 1 << 17},        {RUNNING_PORTS, 1 << 20},        {RUNNING_PROCS, 1 << 21},
        {PORTS, 1 << 22},         {SCHEDULER_ID, 1 << 23},         {EXITING, 1 << 24},
    };
    uint64_t out = 0;
    for (auto [ours, theirs] : bits)
        if (flags & ours) out |= theirs;
    return out;
}

void trace_emit(Process* tracee, Term what, std::initializer_list<Term> extra) {
    TracerRef tracer = tracer_of(tracee);
    if (!tracer) return;
    if (!tracer_alive(*tracee->vm, *tracer)) {
        // erl_tracer:enabled/3 answers `remove` for a tracer that is gone: the process stops
        // being traced.
        set_trace(tracee, 0, nullptr);
        return;
    }
    trace_emit_to(tracee, *tracer, trace_flags_of(tracee), what, extra);
}

void trace_on_spawn(Process* parent, Process* child, Term mfa_args, bool link) {
    using namespace trace_flag;
    uint32_t pflags = trace_flags_of(parent);
    if (trace_flags_raw(parent) != 0) {
        TracerRef tracer = tracer_of(parent);
        if (pflags & PROCS) trace_emit(parent, atom("spawn"), {child->pid, mfa_args});
        if (link && (pflags & PROCS)) trace_emit(parent, atom("link"), {child->pid});
        // As erl_process.c: set_on_spawn gives the child every flag of the parent;
        // set_on_first_spawn does so once and then clears both set_on_spawn flags on both.
        // set_on_link and set_on_first_link do the same for a spawn_link.
        auto give = [&](uint32_t on, uint32_t on_first) {
            uint32_t flags = trace_flags_raw(parent);
            if (!tracer || !(flags & (on | on_first))) return;
            uint32_t given = trace_flags_raw(child) | flags;
            if (flags & on_first) {
                given &= ~(on | on_first);
                parent->trace_flags.fetch_and(~(on | on_first), std::memory_order_acq_rel);
            }
            set_trace(child, given, tracer);
        };
        give(SET_ON_SPAWN, SET_ON_FIRST_SPAWN);
        if (link) give(SET_ON_LINK, SET_ON_FIRST_LINK);
    }
    if (trace_flags_of(child) & PROCS) trace_emit(child, atom("spawned"), {parent->pid, mfa_args});
}

void trace_receive_event(Process* p, Term msg) { trace_receive(p, msg); }

}  // namespace beam

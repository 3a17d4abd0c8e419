// Process tracing: tracers, flags and trace messages (vm/trace.hpp).
#include "vm/trace.hpp"

#include <ctime>
#include <vector>

#include "bifs/bif_util.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/signals.hpp"
#include "vm/bignum.hpp"
#include "vm/clocks.hpp"
#include "vm/copy_term.hpp"
#include "vm/ext_term.hpp"
#include "vm/heap.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beam {

Tracer::~Tracer() { discard_buffer(state_copy); }

Term Tracer::to_term(TermAllocator& a) const {
    if (module == atom("erl_tracer") && (is_pid(state) || is_port(state))) return state;
    return make_tuple(a, {module, copy_term(state, a)});
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
    if (!tracer_alive(*caller->vm, *t)) return nullptr;
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

uint32_t trace_flags_of(const Process* p) { return p->trace_flags.load(std::memory_order_acquire); }

TracerRef tracer_of(const Process* p) { return p->tracer.load(std::memory_order_acquire); }

void set_trace(Process* p, uint32_t flags, TracerRef tracer) {
    if (flags == 0) tracer = nullptr;
    p->tracer.store(std::move(tracer), std::memory_order_release);
    p->trace_flags.store(flags, std::memory_order_release);
}

Term trace_timestamp(TermAllocator& a, uint32_t flags) {
    using namespace trace_flag;
    auto now_tuple = [&](int64_t us) {
        return make_tuple(a, {make_small(us / 1'000'000'000'000), make_small(us / 1'000'000 % 1'000'000),
                              make_small(us % 1'000'000)});
    };
    // As erl: timestamp (erlang:now() style, or CPU time) wins over strict_monotonic, which
    // wins over monotonic.
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
    VM& vm = *tracee->vm;
    Term dest = tracer.destination();
    // trace(all, true, [cpu_timestamp]) makes every `timestamp` a CPU-time one.
    if ((flags & trace_flag::TIMESTAMP) && vm.cpu_timestamp.load(std::memory_order_relaxed))
        flags |= trace_flag::CPU_TIMESTAMP;
    LiteralArea scratch;
    std::vector<Term> elems;
    elems.reserve(4 + extra.size());
    Term ts = trace_timestamp(scratch, flags);
    elems.push_back(is_value(ts) ? atom("trace_ts") : atom("trace"));
    elems.push_back(tracee->pid);
    elems.push_back(what);
    elems.insert(elems.end(), extra.begin(), extra.end());
    if (is_value(ts)) elems.push_back(ts);
    Term msg = make_tuple_from(scratch, elems.data(), elems.size());
    if (is_pid(dest)) {
        post_message(vm, dest, msg);
    } else if (is_port(dest)) {
        // A port tracer gets each message in the external term format, as erl sends it.
        std::vector<uint8_t> bytes;
        if (encode_external(msg, bytes)) port_command(vm, dest, bytes.data(), bytes.size());
    }
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

namespace {

// The flags a child or newly linked process gets from `flags` under set_on_spawn / set_on_link.
uint32_t inherit(Process* from, uint32_t on, uint32_t on_first) {
    using namespace trace_flag;
    uint32_t flags = trace_flags_of(from);
    if (!(flags & (on | on_first))) return 0;
    uint32_t given = flags;
    if (flags & on_first) {
        // set_on_first_*: the first child gets the flags without the set_on_first_* flag itself,
        // and the parent loses it.
        given &= ~on_first;
        if (!(flags & on)) {
            uint32_t left = flags & ~on_first;
            from->trace_flags.store(left, std::memory_order_release);
        }
    }
    return given;
}

}  // namespace

void trace_on_spawn(Process* parent, Process* child, Term mfa_args) {
    using namespace trace_flag;
    uint32_t pflags = trace_flags_of(parent);
    if (pflags != 0) {
        TracerRef tracer = tracer_of(parent);
        if (pflags & PROCS) trace_emit(parent, atom("spawn"), {child->pid, mfa_args});
        uint32_t given = inherit(parent, SET_ON_SPAWN, SET_ON_FIRST_SPAWN);
        if (given && tracer) set_trace(child, given, tracer);
    }
    if (trace_flags_of(child) & PROCS) trace_emit(child, atom("spawned"), {parent->pid, mfa_args});
}

void trace_on_link(Process* p, Process* other) {
    using namespace trace_flag;
    TracerRef tracer = tracer_of(p);
    if (!tracer || trace_flags_of(other) != 0) return;
    uint32_t given = inherit(p, SET_ON_LINK, SET_ON_FIRST_LINK);
    if (given) set_trace(other, given, tracer);
}

}  // namespace beam

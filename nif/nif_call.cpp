// Calling a NIF: a call environment on the caller's heap, the library's function, then the
// steps it scheduled with enif_schedule_nif, each run when the interpreter comes back to the
// process (nif_resume) or on a dirty scheduler thread; the exception it raised if any.
// The terms of a call in progress live in x registers (vm/nif_call.hpp).
#include <atomic>

#include "bifs/bif_util.hpp"
#include "nif/nif_env.hpp"
#include "nif/nif_module.hpp"
#include "vm/nif_call.hpp"
#include "vm/vm.hpp"

namespace beam::nif {

namespace {
thread_local VM* t_vm = nullptr;
std::atomic<VM*> g_last_vm{nullptr};
}  // namespace

VM* current_vm() { return t_vm ? t_vm : g_last_vm.load(std::memory_order_acquire); }

void set_current_vm(VM* vm) {
    t_vm = vm;
    g_last_vm.store(vm, std::memory_order_release);
}

void init_call_env(ErlNifEnv& env, Process* p, const NifModule* module) {
    env.vm = p->vm;
    env.proc = p;
    env.heap = p;
    env.module = module;
}

CallbackEnv::CallbackEnv(VM* vm) {
    env.vm = vm;
    env.own = std::make_unique<LiteralArea>();
    env.heap = env.own.get();
}

}  // namespace beam::nif

namespace beam {

namespace {

using NifFn = ERL_NIF_TERM (*)(ErlNifEnv*, int, const ERL_NIF_TERM[]);

uint8_t dirty_of(unsigned flags) {
    if (flags == ERL_NIF_DIRTY_JOB_CPU_BOUND) return dirty_kind::CPU;
    if (flags == ERL_NIF_DIRTY_JOB_IO_BOUND) return dirty_kind::IO;
    return dirty_kind::NONE;
}

// The call of `f` with `args` raises error:reason; its frame is {M, F, Args, []}, the
// arguments the Erlang code passed even when a later step raised (erts restores them).
NifStep raise_from(Process* p, const NifFunction* f, const Term* args, Term reason) {
    Term list = make_list_from(*p, args, f->arity);
    p->error(reason);
    p->ftop = make_tuple(*p, {f->module, f->name, list, NIL});
    return {NifNext::Raise};
}

// What one step of a call did.
struct StepOutcome {
    enum Kind { Value, Raised, Scheduled } kind;
    Term term;  // the value or the reason
    std::unique_ptr<ErlNifEnv::Scheduled> next;
};

StepOutcome run_step(Process* p, const NifFunction* origin, NifFn fn, int argc, const Term* argv, uint8_t dirty) {
    ErlNifEnv env;
    nif::init_call_env(env, p, origin->owner);
    env.dirty = dirty;
    if (nif::current_vm() != p->vm) nif::set_current_vm(p->vm);
    static_assert(sizeof(Term) == sizeof(ERL_NIF_TERM));
    Term r = nif::T(fn(&env, argc, reinterpret_cast<const ERL_NIF_TERM*>(argv)));
    // Raised even when the NIF went on to return something else, as erts does.
    if (is_value(env.exception)) return {StepOutcome::Raised, env.exception, nullptr};
    if (env.scheduled) return {StepOutcome::Scheduled, NIL, std::move(env.scheduled)};
    // Neither a term nor an exception nor a scheduled step: erts' badreturn.
    if (is_non_value(r)) return {StepOutcome::Raised, atom("badreturn"), nullptr};
    return {StepOutcome::Value, r, nullptr};
}

// The continuation for a scheduled step; its arguments go to regs[origin_arity..].
void set_step(NifContinuation& c, const ErlNifEnv::Scheduled& s, Term* regs) {
    c.state = NifContinuation::State::Step;
    c.dirty = dirty_of(unsigned(s.flags));
    c.fn = reinterpret_cast<void*>(s.fn);
    c.name = s.name;
    c.argc = uint16_t(s.argc);
    for (int i = 0; i < s.argc; ++i) regs[c.origin_arity + i] = s.args[i];
}

NifStep next_step(const NifContinuation& c) {
    return {c.dirty != dirty_kind::NONE ? NifNext::Dirty : NifNext::Continue, c.live()};
}

// A step on a normal scheduler, its registers in x.
NifStep step_here(Process* p, const NifFunction* origin, NifFn fn, int argc, Term* x, const Term* argv) {
    StepOutcome o = run_step(p, origin, fn, argc, argv, dirty_kind::NONE);
    switch (o.kind) {
    case StepOutcome::Value:
        if (p->rare_if_any()) p->rare().nif.state = NifContinuation::State::Idle;
        return {NifNext::Return, 0, o.term};
    case StepOutcome::Raised:
        if (p->rare_if_any()) p->rare().nif.state = NifContinuation::State::Idle;
        return raise_from(p, origin, x, o.term);
    case StepOutcome::Scheduled: {
        NifContinuation& c = p->rare().nif;
        c.origin = origin;
        c.origin_arity = uint16_t(origin->arity);
        c.module = origin->module;
        set_step(c, *o.next, x);
        return next_step(c);
    }
    }
    __builtin_unreachable();
}

}  // namespace

NifStep call_nif(Process* p, const NifFunction* f, Term* x) {
    if (uint8_t dirty = dirty_of(f->flags)) {
        // A NIF declared dirty (ErlNifFunc's flags): its first step runs on a dirty scheduler.
        NifContinuation& c = p->rare().nif;
        c.origin = f;
        c.origin_arity = uint16_t(f->arity);
        c.module = f->module;
        c.state = NifContinuation::State::Step;
        c.dirty = dirty;
        c.fn = reinterpret_cast<void*>(f->fptr);
        c.name = f->name;
        c.argc = uint16_t(f->arity);
        for (unsigned i = 0; i < f->arity; ++i) x[f->arity + i] = x[i];
        return {NifNext::Dirty, c.live()};
    }
    return step_here(p, f, f->fptr, int(f->arity), x, x);
}

NifStep resume_nif(Process* p, Term* x) {
    NifContinuation& c = p->rare().nif;
    NifContinuation::State state = c.state;
    c.state = NifContinuation::State::Idle;
    switch (state) {
    case NifContinuation::State::Done:
        return {NifNext::Return, 0, x[c.origin_arity]};
    case NifContinuation::State::Raised:
        return raise_from(p, c.origin, x, x[c.origin_arity]);
    case NifContinuation::State::Step:
        if (c.dirty != dirty_kind::NONE) {  // a normal step scheduled the dirty one
            c.state = NifContinuation::State::Step;
            return {NifNext::Dirty, c.live()};
        }
        return step_here(p, c.origin, reinterpret_cast<NifFn>(c.fn), c.argc, x, x + c.origin_arity);
    case NifContinuation::State::Idle:
        break;
    }
    p->error(atom("system_limit"));  // unreachable: nif_resume runs only with a call in progress
    return {NifNext::Raise};
}

uint8_t run_dirty_nif(Process* p) {
    NifContinuation& c = p->rare().nif;
    std::vector<Term>& regs = p->saved_x;
    StepOutcome o = run_step(p, c.origin, reinterpret_cast<NifFn>(c.fn), c.argc, regs.data() + c.origin_arity, c.dirty);
    switch (o.kind) {
    case StepOutcome::Value:
    case StepOutcome::Raised:
        c.state = o.kind == StepOutcome::Value ? NifContinuation::State::Done : NifContinuation::State::Raised;
        c.dirty = dirty_kind::NONE;
        regs.resize(size_t(c.origin_arity) + 1);
        regs[c.origin_arity] = o.term;
        break;
    case StepOutcome::Scheduled:
        regs.resize(size_t(c.origin_arity) + size_t(o.next->argc));
        set_step(c, *o.next, regs.data());
        break;
    }
    p->arity = c.live();
    return c.state == NifContinuation::State::Step ? c.dirty : dirty_kind::NONE;
}

}  // namespace beam

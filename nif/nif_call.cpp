// Calling a NIF: a call environment on the caller's heap, the library's function, then the
// calls it scheduled with enif_schedule_nif, and the exception it raised if any.
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

Term call_nif(Process* p, const NifFunction* f, Term* x) {
    ErlNifEnv env;
    nif::init_call_env(env, p, f->owner);
    env.function = f;
    if (nif::current_vm() != p->vm) nif::set_current_vm(p->vm);
    static_assert(sizeof(Term) == sizeof(ERL_NIF_TERM));
    ERL_NIF_TERM r = f->fptr(&env, int(f->arity), reinterpret_cast<const ERL_NIF_TERM*>(x));
    // enif_schedule_nif: the scheduled call replaces this one; its result is the call's.
    while (env.scheduled && is_non_value(env.exception)) {
        std::unique_ptr<ErlNifEnv::Scheduled> s = std::move(env.scheduled);
        r = s->fn(&env, s->argc, reinterpret_cast<const ERL_NIF_TERM*>(s->args));
    }
    if (is_value(env.exception)) {
        // Raised even when the NIF went on to return something else, as erts does.
        Term reason = env.exception;
        Term args = make_list_from(*p, x, f->arity);
        p->error(reason);
        p->ftop = make_tuple(*p, {f->module, f->name, args, NIL});
        return NON_VALUE;
    }
    return nif::T(r);
}

}  // namespace beam

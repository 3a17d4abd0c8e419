// enif_select and enif_select_x (enif_select_read/write/error are macros over the latter) on
// the VM's poller (nif/fd_select.hpp).
#include <climits>

#include "nif/fd_select.hpp"
#include "nif/nif_env.hpp"
#include "nif/resources.hpp"

using namespace beam;
using beam::nif::T;
using beam::nif::ResourceObject;

extern "C" {

// `msg_env`: the custom message's own environment; like enif_send, a successful call
// invalidates it (the message was copied out, the environment is cleared).
int enif_select_x(ErlNifEnv* env, ErlNifEvent e, enum ErlNifSelectFlags mode, void* obj, const ErlNifPid* pid,
                  ERL_NIF_TERM msg, ErlNifEnv* msg_env) {
    ResourceObject* r = ResourceObject::of(obj);
    VM* vm = env && env->vm ? env->vm : r->vm() ? r->vm() : nif::current_vm();
    if (!vm) return INT_MIN | ERL_NIF_SELECT_FAILED;
    nif::SelectCall call{int(e), int(mode), r, NIL, T(msg), env ? env->proc : nullptr};
    // The recipient: `pid`, else the calling process.
    if (pid) call.recipient = T(pid->pid);
    else if (env && env->proc) call.recipient = env->proc->pid;
    int result = nif::fd_select(*vm, call);
    if (result >= 0 && msg_env && (mode & ERL_NIF_SELECT_CUSTOM_MSG) &&
        (mode & (ERL_NIF_SELECT_READ | ERL_NIF_SELECT_WRITE | ERL_NIF_SELECT_ERROR)) &&
        !(mode & (ERL_NIF_SELECT_STOP | ERL_NIF_SELECT_CANCEL)))
        enif_clear_env(msg_env);
    return result;
}

int enif_select(ErlNifEnv* env, ErlNifEvent e, enum ErlNifSelectFlags mode, void* obj, const ErlNifPid* pid,
                ERL_NIF_TERM ref) {
    return enif_select_x(env, e, mode, obj, pid, ref, nullptr);
}

}  // extern "C"

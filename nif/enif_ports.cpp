// enif_* ports: port_command from a NIF, local port ids, liveness and registered names
// (scheduler/ports.hpp).
#include <vector>

#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "nif/nif_env.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

using namespace beam;
using beam::nif::N;
using beam::nif::T;

namespace {

VM* vm_of(ErlNifEnv* env) { return env && env->vm ? env->vm : nif::current_vm(); }

// erts' report for data that is no iolist (io.c's badsig_received), as logger prints it:
// "Bad value on output port 'cat'".
void report_bad_value(VM& vm, Process* caller, Term port) {
    std::optional<Term> item = port_info_item(vm, caller, port, atom("name"));
    if (!item) return;
    Term name = is_tuple(*item) ? tuple_elem(*item, 1) : *item;
    std::optional<std::string> text = char_list_to_utf8(name);
    if (!text) return;
    Term line = make_string(*caller, "Bad value on output port '" + *text + "'\n");
    send_to_system_logger(caller, "error", "~s~n", make_list_from(*caller, &line, 1));
}

}  // namespace

extern "C" {

int enif_get_local_port(ErlNifEnv*, ERL_NIF_TERM term, ErlNifPort* port) {
    if (!is_local_port(T(term))) return 0;
    port->port_id = term;
    return 1;
}

int enif_is_port_alive(ErlNifEnv* env, ErlNifPort* port) {
    VM* vm = vm_of(env);
    return vm && is_local_port(T(port->port_id)) && port_is_open(*vm, T(port->port_id));
}

int enif_whereis_port(ErlNifEnv* env, ERL_NIF_TERM name, ErlNifPort* port) {
    VM* vm = vm_of(env);
    if (!vm || !is_atom(T(name))) return 0;
    Term r = vm->procs.whereis(env && env->proc ? env->proc->ns : &vm->root(), T(name));
    return enif_get_local_port(env, N(r), port);
}

// erlang:port_command/2 from the calling process, never suspending it: a busy port queues the
// data (erts schedules the output as a port task whatever the port's state). False when the
// port is not a live local port, the data is no iolist (reported to logger, as erts does), or
// the caller has exited. msg_env is left as it is, as erts leaves it.
int enif_port_command(ErlNifEnv* env, const ErlNifPort* to_port, ErlNifEnv*, ERL_NIF_TERM msg) {
    VM* vm = vm_of(env);
    Term port = T(to_port->port_id);
    if (!vm || !is_local_port(port)) return 0;
    Process* caller = env ? env->proc : nullptr;
    if (caller && enif_thread_type() == ERL_NIF_THR_UNDEFINED &&
        (caller->sched.state.load(std::memory_order_relaxed) & run_state::EXITED))
        return 0;
    std::vector<uint8_t> bytes;
    if (!iolist_to_bytes(T(msg), bytes)) {
        if (caller) report_bad_value(*vm, caller, port);
        return 0;
    }
    PortOpResult r = port_command(*vm, port, bytes.data(), bytes.size(), caller ? caller->pid : NIL);
    return r == PortOpResult::Ok || r == PortOpResult::Queued;
}

}  // extern "C"

#include "bifs/sandbox_checks.hpp"

#include <initializer_list>
#include <optional>
#include <string_view>

#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/vm.hpp"

namespace beam {

Term capability_denied(Process* p, Capability c) {
    return p->error(make_tuple(*p, {atom("capability_denied"), atom(capability_name(c))}));
}

Term sandbox_limit_reached(Process* p, std::string_view what) {
    return p->error(make_tuple(*p, {atom("sandbox_limit"), atom(what)}));
}

bool sandbox_may_signal(Process* p, Term to) {
    if (!is_local_pid(to)) return true;
    VM& vm = *p->vm;
    Process* q = vm.procs.lookup(to);
    if (!q) return true;
    Term name = q->sched.registered_name;
    bool ok = q->ns != &vm.root() || name == NIL || vm.procs.whereis(p->ns, name) == to;
    ProcessTable::release(q);
    return ok;
}

namespace {

template <Capability C>
Term refuse(Process* p, const Term*) {
    return capability_denied(p, C);
}

// One spec per capability and arity would be needed only for stack traces; the interpreter
// reads fn alone from an export's spec, so one spec per capability serves every entry.
const BifSpec REFUSALS[] = {
    {"beamvm", "capability_denied", 0, &refuse<Capability::File>},
    {"beamvm", "capability_denied", 0, &refuse<Capability::Port>},
    {"beamvm", "capability_denied", 0, &refuse<Capability::Network>},
    {"beamvm", "capability_denied", 0, &refuse<Capability::OsCmd>},
    {"beamvm", "capability_denied", 0, &refuse<Capability::CodeLoad>},
    {"beamvm", "capability_denied", 0, &refuse<Capability::Halt>},
};

const BifSpec* refusal(Capability c) {
    switch (c) {
        case Capability::File: return &REFUSALS[0];
        case Capability::Port: return &REFUSALS[1];
        case Capability::Network: return &REFUSALS[2];
        case Capability::OsCmd: return &REFUSALS[3];
        case Capability::CodeLoad: return &REFUSALS[4];
        case Capability::Halt: return &REFUSALS[5];
    }
    return nullptr;
}

bool one_of(std::string_view f, std::initializer_list<std::string_view> names) {
    for (std::string_view n : names)
        if (f == n) return true;
    return false;
}

// Which capability an Erlang-level function needs, if any.
std::optional<Capability> needed(std::string_view m, std::string_view f) {
    // OTP's file module asks the root's file server; erl_prim_loader reads files for code.
    if (m == "file" || m == "erl_prim_loader" || m == "filelib" || m == "ram_file") return Capability::File;
    if (m == "os" && f == "cmd") return Capability::OsCmd;
    if (m == "code" && one_of(f, {"load_file", "load_binary", "load_abs", "purge", "soft_purge", "delete",
                                  "atomic_load", "prepare_loading", "finish_loading", "add_path", "add_patha",
                                  "add_pathz", "add_paths", "add_pathsa", "add_pathsz", "set_path", "del_path",
                                  "replace_path", "ensure_modules_loaded", "stick_dir", "unstick_dir"}))
        return Capability::CodeLoad;
    if (m == "erl_ddll") return Capability::CodeLoad;
    if (m == "init" && one_of(f, {"stop", "reboot", "restart"})) return Capability::Halt;
    if (m == "net_kernel" || m == "erl_epmd" || m == "rpc" || m == "erpc" || m == "global" || m == "inet_db")
        return Capability::Network;
    return std::nullopt;
}

}  // namespace

const BifSpec* sandbox_refusal(const SandboxPolicy& policy, Term module, Term function, uint32_t) {
    if (policy.allowed == ALL_CAPABILITIES) return nullptr;
    std::optional<Capability> c = needed(atom_name(module), atom_name(function));
    if (!c || policy.allows(*c)) return nullptr;
    return refusal(*c);
}

}  // namespace beam

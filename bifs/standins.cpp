// Stand-ins: OTP functions that beamvm implements in Erlang, in a module of its own, because
// OTP's version needs a server that beamvm does not start yet (design notes §11). An export
// entry of one of these continues in the stand-in (the call_standin instruction), whatever
// OTP module of the same name is loaded. Booting OTP's kernel (code_server) retires them.
#include "bifs/bif.hpp"
#include "vm/atom_table.hpp"

namespace beam {

namespace {

// OTP's code module: loading runs on_load functions in a process of their own, which a
// native function cannot wait for (vm/erlang/beamvm_code.erl).
const Standin table[] = {
    {"code", "load_file", 1, "beamvm_code"},
    {"code", "load_abs", 1, "beamvm_code"},
    {"code", "load_abs", 2, "beamvm_code"},
    {"code", "load_binary", 3, "beamvm_code"},
    {"code", "ensure_loaded", 1, "beamvm_code"},
    {"code", "ensure_modules_loaded", 1, "beamvm_code"},
    {"code", "atomic_load", 1, "beamvm_code"},
    // code_server answers these from the code path; crypto's on_load asks for its priv dir.
    {"code", "lib_dir", 1, "beamvm_code"},
    {"code", "lib_dir", 2, "beamvm_code"},
    {"code", "priv_dir", 1, "beamvm_code"},
    // No application controller runs yet: no application has an environment.
    {"application", "get_env", 2, "beamvm_application"},
    {"application", "get_env", 3, "beamvm_application"},
};

}  // namespace

const Standin* find_standin(Term module, Term name, unsigned arity) {
    for (const Standin& s : table)
        if (s.arity == arity && atom_name(module) == s.module && atom_name(name) == s.name) return &s;
    return nullptr;
}

}  // namespace beam

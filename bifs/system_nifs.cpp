// erlang:load_nif/2. beamvm loads no NIF libraries: the native functions of OTP's NIF modules
// (zlib, crypto, prim_file, ...) are built in, registered like BIFs under the module's name,
// and take the place of the module's Erlang stubs when it is loaded (loader/transform.cpp
// emits a native body for every function that has one). So a module's on_load call
// load_nif(Path, Info) succeeds when beamvm has natives for that module, whatever the path,
// and fails as a missing library does in erl otherwise.
#include <string>

#include "bifs/bif.hpp"
#include "bifs/bif_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/module.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term error_tuple(Process* p, const char* kind, const std::string& text) {
    return make_tuple(*p, {am::error, make_tuple(*p, {atom(kind), make_string(*p, text)})});
}

Term load_nif_2(Process* p, const Term* args) {
    auto path = char_list_to_utf8(args[0]);
    if (!path) return p->badarg();
    ModuleCode* caller = p->vm->code_at(p->pc);
    if (!caller)
        return error_tuple(p, "bad_lib",
                           "load_nif/2 must be explicitly called from the NIF module. It cannot be called "
                           "through apply/3.");
    if (!has_natives(caller->name))
        return error_tuple(p, "load_failed",
                           "Failed to load NIF library " + *path + ": 'beamvm has no built-in native functions for module " +
                               std::string(atom_name(caller->name)) + "'");
    return am::ok;
}

const BifSpec table[] = {
    {"erlang", "load_nif", 2, &load_nif_2},
};

}  // namespace

std::span<const BifSpec> nif_loading_bifs() { return table; }

}  // namespace beam

// erlang:load_nif/2. beamvm loads no NIF libraries: the native functions of OTP's NIF modules
// (zlib, crypto, prim_file, ...) are built in, registered like BIFs under the module's name,
// and take the place of the module's Erlang stubs when it is loaded (loader/transform.cpp
// emits a native body for every function that has one). So a module's on_load call
// load_nif(Path, Info) succeeds when beamvm has natives for that module, whatever the path,
// and fails as a missing library does in erl otherwise. crypto's natives need libcrypto, which
// beamvm opens only now (bifs/crypto_library.hpp): without it crypto's load fails, as on erl.
#include <cstdio>
#include <string>

#include "bifs/bif.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/crypto_library.hpp"
#include "vm/atom_table.hpp"
#include "vm/module.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term error_tuple(Process* p, const char* kind, const std::string& text) {
    return make_tuple(*p, {am::error, make_tuple(*p, {atom(kind), make_string(*p, text)})});
}

Term load_nif_2(Process* p, const Term* a) {
    // A module beamvm has no natives for cannot load any: erl's answer for a call it does not
    // accept (through apply/3, as the fuzzer calls it, before it looks at the arguments).
    ModuleCode* caller = p->vm->code_at(p->pc);
    if (!caller || !has_natives(caller->name))
        return error_tuple(p, "bad_lib",
                           "load_nif/2 must be explicitly called from the NIF module. It cannot be called "
                           "through apply/3.");
    if (!char_list_to_utf8(a[0])) return p->badarg();
    if (caller->name == atom("crypto") && !crypto_library_error().empty()) {
        // Booted, crypto's on_load logs this as erl's does. The quick start-up has no
        // erl_prim_loader, on which crypto's on_load then fails before it can say why.
        if (!p->vm->otp_boot) std::fprintf(stderr, "beamvm: %s\n", crypto_library_error().c_str());
        return error_tuple(p, "load_failed", "beamvm: " + crypto_library_error());
    }
    // Once per loaded version, as erts (which refuses reloading since OTP 20).
    if (caller->nifs_loaded.exchange(true))
        return error_tuple(p, "reload", "NIF library already loaded (reload disallowed since OTP 20).");
    return am::ok;
}

const BifSpec table[] = {
    {"erlang", "load_nif", 2, &load_nif_2},
};

}  // namespace

std::span<const BifSpec> nif_loading_bifs() { return table; }

}  // namespace beam

// erlang:load_nif/2 (OTP's erts_load_nif): opens Path ++ ".so", calls its nif_init, checks the
// ErlNifEntry as erts does, binds each function of its table to the calling module version's
// nif_slot, and runs the library's load or upgrade callback. Every refusal is erl's error
// tuple {error, {Reason, Text}}, with erts' texts.
//
// OTP's NIF modules that erts builds into its emulator (zlib, prim_file, prim_socket, ...) have
// beamvm natives instead (bifs/, io/socket/): registered like BIFs under the module's name, they
// take the place of the module's Erlang stubs when it is loaded (loader/transform.cpp emits a
// native body for every function that has one), so their load_nif/2 succeeds whatever the path.
#include <dlfcn.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "bifs/bif.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "bifs/sandbox_checks.hpp"
#include "vm/binary.hpp"
#include "nif/nif_env.hpp"
#include "nif/nif_module.hpp"
#include "nif/nif_text.hpp"
#include "nif/resources.hpp"
#include "vm/atom_table.hpp"
#include "vm/code_table.hpp"
#include "vm/module.hpp"
#include "vm/nif_call.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term error_tuple(Process* p, const char* kind, const std::string& text) {
    return make_tuple(*p, {am::error, make_tuple(*p, {atom(kind), make_string(*p, text)})});
}

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

// Versions as erts compares them: major * 0x100 + minor.
bool at_least(const ErlNifEntry* e, int major, int minor) { return e->major * 0x100 + e->minor >= major * 0x100 + minor; }

// The library's entry in today's layout: fields an older library lacks get erts' defaults.
ErlNifEntry modern_entry(const ErlNifEntry* src) {
    ErlNifEntry e{};
    e.major = src->major;
    e.minor = src->minor;
    e.name = src->name;
    e.num_of_funcs = src->num_of_funcs;
    e.funcs = src->funcs;
    e.load = src->load;
    e.reload = src->reload;
    e.upgrade = src->upgrade;
    e.unload = src->unload;
    e.vm_variant = at_least(src, 2, 1) ? src->vm_variant : "beam.vanilla";
    e.options = at_least(src, 2, 7) ? src->options : 0;
    e.sizeof_ErlNifResourceTypeInit = at_least(src, 2, 12) ? src->sizeof_ErlNifResourceTypeInit : 0;
    e.min_erts = at_least(src, 2, 14) ? src->min_erts : "erts-?";
    return e;
}

// Before 2.7 the function table had no flags field.
struct FuncV1 {
    const char* name;
    unsigned arity;
    ERL_NIF_TERM (*fptr)(ErlNifEnv*, int, const ERL_NIF_TERM[]);
};

const FunctionInfo* find_function(const ModuleCode& mc, Term name, unsigned arity) {
    for (const FunctionInfo& f : mc.functions)
        if (f.name == name && f.arity == arity) return &f;
    return nullptr;
}

// The functions a module allows to be NIFs: those its -nifs attributes name, or all when it
// has none (erts' check_is_nifable).
bool declared_nif(const ModuleCode& mc, const FunctionInfo& f) { return !mc.declares_nifs || f.declared_nif; }

std::vector<Term>& taints() {
    static std::vector<Term>* t = new std::vector<Term>;  // guarded by load_mutex()
    return *t;
}

std::mutex& load_mutex() {
    static std::mutex m;
    return m;
}

// Builds the NifModule of `entry` for `mc`, or says which function is wrong.
std::string bind_functions(NifModule& nm, const ModuleCode& mc, Term mod) {
    const ErlNifEntry& e = nm.entry;
    for (int i = 0; i < e.num_of_funcs; ++i) {
        ErlNifFunc f;
        if (at_least(&e, 2, 7)) {
            f = e.funcs[i];
        } else {
            const FuncV1& v1 = reinterpret_cast<const FuncV1*>(e.funcs)[i];
            f = ErlNifFunc{v1.name, v1.arity, v1.fptr, 0};
        }
        std::optional<Term> name = nif::existing_latin1_atom(f.name, std::strlen(f.name));
        const FunctionInfo* fi = name ? find_function(mc, *name, f.arity) : nullptr;
        std::string modname(atom_name(mod));
        if (!fi) return format("Function not found %s:%s/%u", modname.c_str(), f.name, f.arity);
        if (!declared_nif(mc, *fi))
            return format("Function not declared as nif %s:%s/%u", modname.c_str(), f.name, f.arity);
        if (f.flags != 0 && f.flags != ERL_NIF_DIRTY_JOB_IO_BOUND && f.flags != ERL_NIF_DIRTY_JOB_CPU_BOUND)
            return format("Illegal flags field value %d for NIF %s:%s/%u", int(f.flags), modname.c_str(), f.name, f.arity);
        for (const auto& other : nm.functions)
            if (other->name == *name && other->arity == f.arity)
                return format("Duplicate NIF entry for %s:%s/%u", modname.c_str(), f.name, f.arity);
        nm.functions.push_back(std::make_unique<NifFunction>(NifFunction{mod, *name, f.arity, f.flags, f.fptr, &nm}));
    }
    return {};
}

// Stores each function in its slot: from now on calls of it run the NIF.
void patch_slots(ModuleCode& mc, const NifModule& nm) {
    for (const auto& f : nm.functions) {
        const FunctionInfo* fi = find_function(mc, f->name, f->arity);
        Word* slot = const_cast<Word*>(fi->entry) + 1;
        __atomic_store_n(slot, reinterpret_cast<Word>(f.get()), __ATOMIC_RELEASE);
    }
}

Term load_library(Process* p, ModuleCode* caller, const std::string& path, Term load_info) {
    Term mod = caller->name;
    Namespace& ns = *p->ns;
    ModuleCode* prev = ns.old_version(mod);
    if (caller == prev)
        return error_tuple(p, "old_code", format("Calling load_nif from old module '%s' not allowed", std::string(atom_name(mod)).c_str()));
    if (caller == ns.on_load_pending(mod)) prev = ns.current(mod) ? ns.current(mod) : ns.old_version(mod);
    if (caller->nif) return error_tuple(p, "reload", "NIF library already loaded (reload disallowed since OTP 20).");

    auto lib = std::make_shared<NifLibrary>();
    lib->path = path + ".so";
    dlerror();
    lib->handle = dlopen(lib->path.c_str(), RTLD_NOW);
    if (!lib->handle) {
        std::string err = dlerror();
        const char* slogan = "Failed to load NIF library";
        if (err.find(lib->path) != std::string::npos) return error_tuple(p, "load_failed", format("%s: '%s'", slogan, err.c_str()));
        return error_tuple(p, "load_failed", format("%s %s: '%s'", slogan, lib->path.c_str(), err.c_str()));
    }
    void* init = dlsym(lib->handle, "nif_init");
    if (!init) init = dlsym(lib->handle, "_nif_init");
    if (!init) {
        dlerror();
        dlsym(lib->handle, "_nif_init");
        const char* err = dlerror();
        return error_tuple(p, "bad_lib", format("Failed to find library init function: '%s'", err ? err : "nif_init"));
    }
    // Tainted from the moment its library's code runs, as erts marks it.
    if (std::find(taints().begin(), taints().end(), mod) == taints().end()) taints().push_back(mod);
    auto* src = reinterpret_cast<ErlNifEntry* (*)()>(init)();
    if (!src) return error_tuple(p, "bad_lib", "Library init-call unsuccessful");
    std::string modname(atom_name(mod));
    if (src->major > ERL_NIF_MAJOR_VERSION || (src->major == ERL_NIF_MAJOR_VERSION && src->minor > ERL_NIF_MINOR_VERSION))
        return error_tuple(p, "bad_lib", format("That '%s' NIF library needs %s or newer. Either try to recompile the NIF lib or use a newer erts runtime.",
                                               modname.c_str(), at_least(src, 2, 14) ? src->min_erts : "erts-?"));
    if (src->major < ERL_NIF_MIN_REQUIRED_MAJOR_VERSION_ON_LOAD || (src->major == 2 && src->minor == 5))
        return error_tuple(p, "bad_lib", format("That old NIF library (%d.%d) is not compatible with this erts runtime (%d.%d). Try recompile the NIF lib.",
                                               src->major, src->minor, ERL_NIF_MAJOR_VERSION, ERL_NIF_MINOR_VERSION));
    if (at_least(src, 2, 1) && std::strcmp(src->vm_variant, ERL_NIF_VM_VARIANT) != 0)
        return error_tuple(p, "bad_lib", format("Library (%s) not compiled for this vm variant (%s).", src->vm_variant, ERL_NIF_VM_VARIANT));
    if (nif::latin1_to_utf8(src->name, std::strlen(src->name)) != atom_name(mod))
        return error_tuple(p, "bad_lib", format("Library module name '%s' does not match calling module '%s'", src->name, modname.c_str()));

    auto nm = std::make_shared<NifModule>();
    nm->library = lib;
    nm->entry = modern_entry(src);
    nm->vm = p->vm;
    std::string bad = bind_functions(*nm, *caller, mod);
    if (!bad.empty()) return error_tuple(p, "bad_lib", bad);

    ErlNifEnv env;
    nif::init_call_env(env, p, nm.get());
    nif::begin_resource_types(nm);
    if (prev && prev->nif) {
        if (!nm->entry.upgrade) {
            nif::end_resource_types(false);
            return error_tuple(p, "upgrade", "Upgrade not supported by this NIF library.");
        }
        void* old_priv = prev->nif->priv_data;
        int veto = nm->entry.upgrade(&env, &nm->priv_data, &prev->nif->priv_data, nif::N(load_info));
        if (veto) {
            prev->nif->priv_data = old_priv;
            nif::end_resource_types(false);
            return error_tuple(p, "upgrade", format("Library upgrade-call unsuccessful (%d).", veto));
        }
    } else if (nm->entry.load) {
        int veto = nm->entry.load(&env, &nm->priv_data, nif::N(load_info));
        if (veto) {
            nif::end_resource_types(false);
            return error_tuple(p, "load", format("Library load-call unsuccessful (%d).", veto));
        }
    }
    nif::end_resource_types(true);
    nm->loaded = true;
    caller->nif = nm;
    patch_slots(*caller, *nm);
    return am::ok;
}

Term load_nif_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    // erl's answer for a call it does not accept (through apply/3, as the fuzzer calls it),
    // before it looks at the arguments.
    ModuleCode* caller = p->vm->code_at(p->pc);
    if (!caller || (!caller->nif_slots && !has_natives(caller->name)))
        return error_tuple(p, "bad_lib",
                           "load_nif/2 must be explicitly called from the NIF module. It cannot be called "
                           "through apply/3.");
    // A file name as erts takes one: a string, or a binary of its UTF-8 bytes.
    std::optional<std::string> path;
    if (is_binary(a[0])) {
        std::string scratch;
        path = std::string(binary_bytes(a[0], scratch));
    } else {
        path = char_list_to_utf8(a[0]);
    }
    if (!path) return p->badarg();
    if (has_natives(caller->name)) {
        // Once per loaded version, as erts (which refuses reloading since OTP 20).
        if (caller->nifs_loaded.exchange(true))
            return error_tuple(p, "reload", "NIF library already loaded (reload disallowed since OTP 20).");
        return am::ok;
    }
    nif::set_current_vm(p->vm);
    std::lock_guard lock(load_mutex());
    return load_library(p, caller, *path, a[1]);
}

const BifSpec table[] = {
    {"erlang", "load_nif", 2, &load_nif_2},
};

}  // namespace

NifLibrary::~NifLibrary() {
    if (handle) dlclose(handle);
}

// erts calls no unload for a library whose load or upgrade was refused.
NifModule::~NifModule() {
    if (!entry.unload || !loaded) return;
    nif::CallbackEnv cb(vm);
    cb.env.module = this;
    entry.unload(&cb.env, priv_data);
}

std::span<const BifSpec> nif_loading_bifs() { return table; }

std::vector<Term> nif_taints() {
    std::lock_guard lock(load_mutex());
    return taints();
}

}  // namespace beam

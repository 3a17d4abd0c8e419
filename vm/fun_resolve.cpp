// Finding the code of a local fun that came from the external term format.
#include "vm/fun_resolve.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "bifs/bif_util.hpp"
#include "vm/ext_term.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

// The module's own entry for `ref`, when this version of the module is the one it was made by.
FunEntry* matching_entry(ModuleCode* mc, const FunEntry& ref) {
    if (!mc || ref.index >= mc->funs.size()) return nullptr;
    FunEntry* fe = mc->funs[ref.index].get();
    if (fe->new_index != ref.new_index || fe->old_uniq != ref.old_uniq || fe->num_free != ref.num_free ||
        fe->arity != ref.arity || !std::equal(fe->md5, fe->md5 + 16, ref.md5))
        return nullptr;
    return fe;
}

// binary_to_term: the entry of the loaded code of the calling process's namespace. A module
// that is not loaded is not loaded here (OTP loads it on the first call).
FunEntry* resolve_fun_for_decode(void* ctx, const FunRef& r) {
    auto* p = static_cast<Process*>(ctx);
    FunEntry probe;
    probe.module = r.module;
    probe.index = r.index;
    probe.new_index = r.new_index;
    probe.old_uniq = r.old_uniq;
    probe.num_free = r.num_free;
    probe.arity = r.fun_arity + r.num_free;
    std::copy(std::begin(r.md5), std::end(r.md5), probe.md5);
    return matching_entry(p->ns->current(r.module), probe);
}

Export* resolve_export_for_decode(void* ctx, Term module, Term function, uint32_t arity) {
    return static_cast<Process*>(ctx)->ns->export_entry(module, function, arity);
}

// Installed before main runs: this file is linked whenever the interpreter is (calls.cpp uses
// resolve_detached_fun).
const bool installed = [] {
    runtime_decode_hooks.resolve_fun = &resolve_fun_for_decode;
    runtime_decode_hooks.resolve_export = &resolve_export_for_decode;
    return true;
}();

}  // namespace

FunEntry* resolve_detached_fun(Process* p, Term* x, unsigned arity, Term fun) {
    const FunEntry& ref = *fun_entry(fun);
    auto loaded = p->vm->ensure_loaded(*p->ns, ref.module);
    if (!loaded.ok()) {
        if (!loaded.error().message.starts_with("not found"))
            std::fprintf(stderr, "beamvm: loading %s failed: %s\n", std::string(atom_name(ref.module)).c_str(),
                         loaded.error().message.c_str());
        p->error(am::undef);
        p->ftop = make_tuple(*p, {fun, make_list_from(*p, x, arity), NIL});
        p->fskip_pc_frame = true;
        return nullptr;
    }
    if (FunEntry* fe = matching_entry(loaded.value(), ref)) return fe;
    p->error2(am::badfun, fun);
    p->fskip_pc_frame = true;
    return nullptr;
}

}  // namespace beam

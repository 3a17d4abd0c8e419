// Calls whose target is found at run time: funs, apply, functions not loaded yet.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"
#include "vm/interp.hpp"
#include "vm/fun_resolve.hpp"
#include "vm/interp_support.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {
Term list_of_x(Process* p, const Term* x, unsigned n) { return make_list_from(*p, x, n); }
Term tuple_of(Process* p, std::initializer_list<Term> elems) { return beam::make_tuple(*p, elems); }

void raise_undef(Process* p, Term m, Term f, Term* x, unsigned arity) {
    p->error(am::undef);
    p->ftop = tuple_of(p, {m, f, list_of_x(p, x, arity), NIL});
    p->fskip_pc_frame = true;
}

// OTP's call_error_handler (beam_common.c): a process whose error_handler flag names a module
// other than the default continues an undefined call in Handler:HandlerFn(Module, What, Args)
// (undefined_function with the function's name, undefined_lambda with the fun), as a call
// that returns to the original caller. The handler module must already be loaded (OTP does
// not load it either); otherwise the call is undef. beamvm first loads the module from the
// code path itself, as OTP's default error_handler would: OTP has loaded much of kernel and
// stdlib at boot where beamvm loads on first call, so `lists:reverse/1` must not reach a
// process's own handler. The handler sees what stays undefined.
bool has_own_error_handler(const Process* p) { return p->error_handler != am::error_handler; }

const Word* call_error_handler(Process* p, Term* x, Term module, Term what, unsigned n, const char* handler_fn,
                               unsigned* arity) {
    Export* h = p->ns->export_entry(p->error_handler, atom(handler_fn), 3);
    if (!h->is_loaded()) {
        if (is_atom(what)) {
            raise_undef(p, module, what, x, n);
        } else {  // a fun: the frame is {Fun, Args, []}, as resolve_detached_fun raises it
            p->error(am::undef);
            p->ftop = tuple_of(p, {what, list_of_x(p, x, n), NIL});
            p->fskip_pc_frame = true;
        }
        return nullptr;
    }
    Term args = list_of_x(p, x, n);
    x[0] = module;
    x[1] = what;
    x[2] = args;
    *arity = 3;
    return h->address.load(std::memory_order_acquire);
}
}  // namespace

const Word* debug_breakpoint_target(Process* p, Term* x, Term module, Term function, unsigned arity) {
    unsigned n = arity;
    return call_error_handler(p, x, module, function, arity, "breakpoint", &n);
}

// Booted OTP loads a module on its first call through error_handler and code_server, which a
// restricted namespace (vm/sandbox.hpp) does not see: a raw request to code_server could load
// anything into the root. Its processes' first calls load here instead, from OTP's library
// directories only (not code_server's path: a -pa directory's module must be loaded by the
// root first). The module goes to the root, as every first-call load does.
static bool load_for_sandbox(Process* p, Term module) {
    namespace fs = std::filesystem;
    VM& vm = *p->vm;
    if (vm.root().current(module)) return true;
    std::error_code ec;
    const std::string file = std::string(atom_name(module)) + ".beam";
    std::vector<fs::path> dirs;
    for (const auto& app : fs::directory_iterator(fs::path(vm.otp_root()) / "lib", ec)) dirs.push_back(app.path());
    std::sort(dirs.begin(), dirs.end());  // as code_server's path: the same file whatever the order on disk
    for (const fs::path& app : dirs) {
        fs::path f = app / "ebin" / file;
        if (!fs::is_regular_file(f, ec)) continue;
        if (vm.root().current(module)) return true;  // loaded meanwhile by someone else
        return vm.load_file(vm.root(), f.string()).ok();
    }
    return false;
}

const Word* resolve_undefined(Process* p, Term* x, Export* e, unsigned* arity) {
    auto loaded = p->vm->ensure_loaded(*p->ns, e->module, false);
    if (loaded.ok() && e->is_loaded()) return e->address.load(std::memory_order_acquire);
    if (!loaded.ok() && loaded.error().message == VM::AUTOLOAD_BUSY) return RETRY_CALL;
    if (!loaded.ok() && loaded.error().message.ends_with(": on_load")) {
        // Its on_load function must run in a process of its own first: OTP's error_handler
        // path, in Erlang (vm/erlang/beamvm_code.erl).
        Term args = list_of_x(p, x, e->arity);
        x[0] = e->module;
        x[1] = e->function;
        x[2] = args;
        *arity = 3;
        Export* handler = p->ns->export_entry(atom("beamvm_code"), atom("undefined_function"), 3);
        return handler->address.load(std::memory_order_acquire);
    }
    if (!loaded.ok() && !loaded.error().message.starts_with("not found"))
        std::fprintf(stderr, "beamvm: loading %s failed: %s\n", std::string(atom_name(e->module)).c_str(),
                     loaded.error().message.c_str());
    if (p->vm->otp_boot && !has_own_error_handler(p) && p->ns->policy().allowed != ALL_CAPABILITIES) {
        if (load_for_sandbox(p, e->module) && e->is_loaded()) return e->address.load(std::memory_order_acquire);
        raise_undef(p, e->module, e->function, x, e->arity);
        return nullptr;
    }
    // Booted OTP: what is not preloaded is error_handler's (code_server loads it).
    if (has_own_error_handler(p) || p->vm->otp_boot)
        return call_error_handler(p, x, e->module, e->function, e->arity, "undefined_function", arity);
    raise_undef(p, e->module, e->function, x, e->arity);
    return nullptr;
}

const Word* on_load_target(Process* p, Term* x) {
    ModuleCode* mc = is_atom(x[0]) ? p->ns->on_load_pending(x[0]) : nullptr;
    if (!mc || !mc->on_load) {
        p->badarg();
        static const BifSpec spec{"erlang", "call_on_load_function", 1, nullptr};
        note_bif_error(p, &spec, x);
        p->fskip_pc_frame = true;
        return nullptr;
    }
    return mc->on_load;
}

const Word* apply_target(Process* p, Term* x, unsigned* arity_io, bool pushed) {
    unsigned arity = *arity_io;
    // erlang:apply/3 applied is unwrapped, as OTP's apply does: the function it names is
    // applied in its place, so no erlang:apply frame appears in a stack trace.
    static const Term apply_atom = atom("apply");
    while (arity == 3 && x[3] == am::erlang && x[4] == apply_atom && is_atom(x[0]) && is_atom(x[1])) {
        Term m2 = x[0], f2 = x[1], args = x[2];
        unsigned n = 0;
        if (!unpack_args(args, x, &n)) {
            // As they were: erlang:apply/3 itself then reports the bad list.
            x[0] = m2, x[1] = f2, x[2] = args, x[3] = am::erlang, x[4] = apply_atom;
            break;
        }
        x[n] = m2;
        x[n + 1] = f2;
        arity = n;
    }
    *arity_io = arity;
    Term m = x[arity], f = x[arity + 1];
    if (!is_atom(m) || !is_atom(f)) {
        p->badarg();
        Term args = list_of_x(p, x, arity);
        Term a3[3] = {m, f, args};
        static const BifSpec apply_spec{"erlang", "apply", 3, nullptr};
        note_bif_error(p, &apply_spec, a3);
        p->fskip_pc_frame = pushed;
        return nullptr;
    }
    Export* e = p->ns->export_entry(m, f, arity);
    return e->address.load(std::memory_order_acquire);
}

void bad_apply_list(Process* p, Term m_or_fun, Term f, Term args, bool pushed) {
    p->badarg();
    if (is_value(f)) {
        Term a3[3] = {m_or_fun, f, args};
        static const BifSpec apply3{"erlang", "apply", 3, nullptr};
        note_bif_error(p, &apply3, a3);
    } else {
        Term a2[2] = {m_or_fun, args};
        static const BifSpec apply2{"erlang", "apply", 2, nullptr};
        note_bif_error(p, &apply2, a2);
    }
    p->fskip_pc_frame = pushed;
}

const Word* fun_target(Process* p, Term* x, unsigned arity, Term fun, unsigned* total) {
    if (is_boxed_sub(fun, Sub::Fun)) {
        FunEntry* fe = fun_entry(fun);
        if (fe->detached && fe->fun_arity() == arity) {
            if ((has_own_error_handler(p) || p->vm->otp_boot) && !p->ns->current(fe->module) &&
                !p->vm->ensure_loaded(*p->ns, fe->module).ok())
                return call_error_handler(p, x, fe->module, fun, arity, "undefined_lambda", total);
            fe = resolve_detached_fun(p, x, arity, fun);
            if (!fe) return nullptr;
        }
        if (fe->fun_arity() != arity) {
            p->error(am::badarity);
            p->fvalue = tuple_of(p, {am::badarity, tuple_of(p, {fun, list_of_x(p, x, arity)})});
            return nullptr;
        }
        size_t n = fun_num_free(fun);
        const Term* env = fun_free_vars(fun);
        for (size_t i = 0; i < n; ++i) x[arity + i] = env[i];
        *total = arity + unsigned(n);
        return fe->address;
    }
    if (is_boxed_sub(fun, Sub::Export)) {
        Export* e = export_of(fun);
        // An export fun names a function: the caller's namespace resolves it, wherever the
        // fun was made (a detached one, from binary_to_term or a literal, included).
        if (e->owner != p->ns) e = p->ns->foreign(e);
        if (e->arity != arity) {
            p->error(am::badarity);
            p->fvalue = tuple_of(p, {am::badarity, tuple_of(p, {fun, list_of_x(p, x, arity)})});
            return nullptr;
        }
        return e->address.load(std::memory_order_acquire);
    }
    p->error2(am::badfun, fun);
    p->fskip_pc_frame = true;
    return nullptr;
}

bool unpack_args(Term list, Term* x, unsigned* n) {
    unsigned i = 0;
    while (is_list(list)) {
        if (i >= MAX_X_REGS - 2) return false;
        x[i++] = head(list);
        list = tail(list);
    }
    if (!is_nil(list)) return false;
    *n = i;
    return true;
}

Term make_closure(Process* p, FunEntry* fe, const Word* free_ops, Term* x, Word n) {
    // Decode the free variables before allocating: allocation never moves the stack, but keep
    // the reads first so the order does not matter.
    Term* hp = p->alloc(FUN_HEADER_WORDS + n);
    Term fun = make_fun_at(hp, fe, p->pid, n);
    for (Word i = 0; i < n; ++i) fun_free_vars(fun)[i] = any_operand(free_ops[i], x, p->stop);
    return fun;
}

bool is_function_of_arity(Term f, Term arity) {
    if (!is_small(arity) || small_value(arity) < 0) return false;
    uint64_t a = uint64_t(small_value(arity));
    if (is_boxed_sub(f, Sub::Fun)) return fun_entry(f)->fun_arity() == a;
    if (is_boxed_sub(f, Sub::Export)) return export_of(f)->arity == a;
    return false;
}

const Word* select_value(Term v, const Word* fail, const Word* table, Word n) {
    // Pairs [value, address] sorted by value word.
    Word lo = 0, hi = n;
    while (lo < hi) {
        Word mid = (lo + hi) / 2;
        Word w = table[2 * mid];
        if (w == v.raw) return reinterpret_cast<const Word*>(table[2 * mid + 1]);
        if (w < v.raw) lo = mid + 1;
        else hi = mid;
    }
    return fail;
}

double number_as_double(Term t) {
    if (is_small(t)) return double(small_value(t));
    if (is_float(t)) return float_value(t);
    return int_to_double(t);
}

}  // namespace beam

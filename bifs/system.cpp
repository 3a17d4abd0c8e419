// BIFs that reach the VM: code and module information, halting, system information, the
// process's own identity, funs built by name. Mirrors the erlang module of OTP 25.
#include <optional>
#include <cstdio>
#include <string_view>
#include <thread>

#include "bifs/sandbox_checks.hpp"
#include "bifs/system_info_items.hpp"
#include "crashdump/crash_dump.hpp"
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/bignum.hpp"
#include "bifs/system_flags.hpp"
#include "bifs/system_processes.hpp"
#include "vm/binary.hpp"
#include "vm/module.hpp"
#include "nif/nif_module.hpp"
#include "vm/otp_version.hpp"
#include "vm/vm.hpp"
#include "scheduler/process_sched.hpp"
#include "scheduler/process_table.hpp"
#include "scheduler/ports.hpp"
#include "scheduler/signals.hpp"

namespace beam {

namespace {

// The target triple erl's configure would have named for this build.
#if defined(__x86_64__)
constexpr const char* SYSTEM_ARCHITECTURE = "x86_64-pc-linux-gnu";
#elif defined(__aarch64__)
constexpr const char* SYSTEM_ARCHITECTURE = "aarch64-unknown-linux-gnu";
#else
constexpr const char* SYSTEM_ARCHITECTURE = "unknown-unknown-linux-gnu";
#endif

Term self_0(Process* p, const Term*) { return p->pid; }

// halt/1,2 (OTP: halt_2 in bif.c). Status: a non-negative integer (a bignum is masked to its
// low word, as term_to_Uint_mask does; the OS keeps the low 8 bits), `abort`, or a string:
// the slogan, printed on stderr as erts prints it (\r\n), and erl_crash.dump, written once
// the schedulers have stopped (crashdump/crash_dump.hpp); exit status 1. With a string the
// flush option changes nothing, as in erts.
// erts keeps the first 1023 characters of a slogan (bif.c: HALT_MSG_SIZE).
constexpr size_t HALT_SLOGAN_CHARS = 1023;

void keep_first_chars(std::string& utf8, size_t chars) {
    size_t seen = 0;
    for (size_t i = 0; i < utf8.size(); ++i) {
        if ((uint8_t(utf8[i]) & 0xC0) == 0x80) continue;  // a continuation byte
        if (seen++ == chars) {
            utf8.resize(i);
            return;
        }
    }
}

Term halt_status(Process* p, Term status) {
    int code;
    std::optional<std::string> slogan;
    if (is_small(status) && small_value(status) >= 0) code = int(small_value(status) & 0xFF);
    else if (is_integer(status) && int_sign(status) > 0) code = int(big_limbs(status)[0] & 0xFF);
    else if (status == atom("abort")) code = 134;
    else if (is_nil(status) || (is_list(status) && (slogan = char_list_to_utf8(status)))) {
        if (!slogan) slogan.emplace();
        keep_first_chars(*slogan, HALT_SLOGAN_CHARS);
        code = 1;
    }
    else return p->badarg();
    std::fflush(p->vm->out);
    if (slogan) {
        std::fprintf(stderr, "%s\r\n", slogan->c_str());
        request_crash_dump(*slogan, p->pid, Schedulers::current_index() + 1);
    }
    p->halt_requested = true;
    p->halt_status = code;
    return NON_VALUE;
}

// halt/2 options: a proper list of {flush, boolean()}; anything else is badarg with cause
// badopt, checked before the status. beamvm always flushes: its output is written as it goes.
bool valid_halt_options(Term opts) {
    for (; is_list(opts); opts = tail(opts)) {
        Term o = head(opts);
        if (!is_tuple(o) || tuple_arity(o) != 2 || tuple_elem(o, 0) != atom("flush") ||
            !is_boolean_atom(tuple_elem(o, 1)))
            return false;
    }
    return is_nil(opts);
}

Term halt_0(Process* p, const Term*) {
    if (!sandbox_allows(p, Capability::Halt)) [[unlikely]] return capability_denied(p, Capability::Halt);
    return halt_status(p, make_small(0));
}
Term halt_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::Halt)) [[unlikely]] return capability_denied(p, Capability::Halt);
    return halt_status(p, a[0]);
}
Term halt_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::Halt)) [[unlikely]] return capability_denied(p, Capability::Halt);
    if (!valid_halt_options(a[1])) {
        p->badarg();
        p->fcause = atom("badopt");
        return NON_VALUE;
    }
    return halt_status(p, a[0]);
}

Term functions_list(Process* p, const std::vector<std::pair<Term, uint32_t>>& fs) {
    std::vector<Term> items;
    for (auto [name, arity] : fs) items.push_back(make_tuple(*p, {name, make_small(arity)}));
    return make_list_from(*p, items.data(), items.size());
}

// The functions load_nif/2 replaced: those of the NIF library bound to this version, or, for a
// module whose natives beamvm has built in (erl_tracer, prim_file, ...), those it has.
Term loaded_nifs(Process* p, ModuleCode* mc) {
    std::vector<std::pair<Term, uint32_t>> fs;
    if (mc->nif) {
        for (const auto& f : mc->nif->functions)
            if (f->module == mc->name) fs.push_back({f->name, f->arity});
    } else if (mc->nifs_loaded.load()) {
        for (auto [name, arity] : mc->all_functions)
            if (find_bif_in(*p->vm, mc->name, name, arity)) fs.push_back({name, arity});
    }
    return functions_list(p, fs);
}

Term module_info_item(Process* p, ModuleCode* mc, Term what) {
    if (what == am::module) return mc->name;
    if (what == am::exports) {
        // OTP lists them in the reverse of the file's export table order.
        std::vector<std::pair<Term, uint32_t>> rev(mc->exports.rbegin(), mc->exports.rend());
        return functions_list(p, rev);
    }
    if (what == am::functions) return functions_list(p, mc->all_functions);
    if (what == am::attributes) return mc->attributes;
    if (what == am::compile) return mc->compile_info;
    if (what == am::md5) {
        uint8_t* data;
        Term b = make_binary_uninit(*p, 16, &data);
        std::copy(mc->md5, mc->md5 + 16, data);
        return b;
    }
    if (what == atom("nifs")) return loaded_nifs(p, mc);
    if (what == atom("native")) return am::false_;  // no HiPE since OTP 24
    if (what == atom("native_addresses")) return NIL;
    return NON_VALUE;
}

Term get_module_info_1(Process* p, const Term* a) {
    ModuleCode* mc = is_atom(a[0]) ? p->ns->current(a[0]) : nullptr;
    if (!mc) return p->badarg();
    Term keys[] = {am::module, am::exports, am::attributes, am::compile, am::md5};
    std::vector<Term> items;
    for (Term k : keys) items.push_back(make_tuple(*p, {k, module_info_item(p, mc, k)}));
    return make_list_from(*p, items.data(), items.size());
}

Term get_module_info_2(Process* p, const Term* a) {
    ModuleCode* mc = is_atom(a[0]) ? p->ns->current(a[0]) : nullptr;
    if (!mc) return p->badarg();
    Term r = module_info_item(p, mc, a[1]);
    return is_value(r) ? r : p->badarg();
}

Term function_exported_3(Process* p, const Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_small(a[2])) return p->badarg();
    ModuleCode* mc = p->ns->current(a[0]);
    uint32_t arity = uint32_t(small_value(a[2]));
    if (mc) {
        for (auto [name, ar] : mc->exports)
            if (name == a[1] && ar == arity) return am::true_;
    }
    return make_bool(find_bif_in(*p->vm, a[0], a[1], arity) != nullptr);
}

Term module_loaded_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(p->ns->current(a[0]) != nullptr);
}

Term system_info_1(Process* p, const Term* a) {
    Term what = a[0];
    if (what == am::machine) return make_string(*p, "BEAM");
    if (what == am::otp_release) return make_string(*p, OTP_RELEASE);
    if (what == am::wordsize) return make_small(8);
    if (what == am::version) return make_string(*p, ERTS_VERSION);
    if (what == atom("system_version"))
        return make_string(*p, "Erlang/OTP 25 [beamvm] [64-bit]\n");
    if (what == atom("schedulers")) return make_small(p->vm->scheds ? p->vm->scheds->count() : 1);
    if (what == atom("schedulers_online")) return make_small(p->vm->scheds ? p->vm->scheds->reported_online() : 1);
    if (what == atom("scheduler_id")) return make_small(Schedulers::current_index() + 1);
    if (what == atom("process_count")) return make_small(SWord(p->vm->procs.count()));
    if (what == atom("process_limit")) return make_small(p->vm->emu_options.process_limit);
    if (what == atom("port_count")) return make_small(static_cast<SWord>(port_count(*p->vm)));
    if (what == atom("system_architecture")) return make_string(*p, SYSTEM_ARCHITECTURE);
    if (what == atom("atom_count")) return make_small(SWord(AtomTable::instance().size()));
    if (what == atom("atom_limit")) return make_small(p->vm->emu_options.atom_limit);
    if (what == atom("thread_pool_size")) return make_small(p->vm->emu_options.thread_pool_size);
    if (what == atom("logical_processors") || what == atom("logical_processors_available") ||
        what == atom("logical_processors_online"))
        return make_small(SWord(std::max(1u, std::thread::hardware_concurrency())));
    if (what == atom("hipe_architecture")) return am::undefined;
    if (what == atom("debug_compiled") || what == atom("smp_support") || what == atom("threads"))
        return what == atom("debug_compiled") ? am::false_ : am::true_;
    if (what == atom("endian")) return am::little;
    if (what == atom("os_type")) return make_tuple(*p, {atom("unix"), atom("linux")});
    if (what == atom("os_version")) return make_tuple(*p, {make_small(6), make_small(1), make_small(0)});
    if (what == atom("emu_type")) return atom("opt");
    if (what == atom("emu_flavor")) return atom("emu");
    if (what == atom("build_type")) return atom("opt");
    if (what == atom("kernel_poll")) return make_bool(p->vm->emu_options.kernel_poll);
    if (what == atom("creation")) return make_integer_u(*p, this_node(p).creation());
    if (Term v = system_flag_info(p, what); is_value(v)) return v;
    if (Term v = system_info_item(p, what); is_value(v)) return v;
    return p->badarg();
}

// Modules whose natives erts provides as BIFs (erts' preloaded modules and the BIF modules
// of kernel and stdlib): their Erlang bodies are placeholders that call nif_error, so reaching
// one means beamvm lacks that native.
bool has_native_placeholders(std::string_view m) {
    static constexpr std::string_view modules[] = {
        "erlang", "erts_internal", "erts_debug", "erl_ddll", "persistent_term", "atomics",
        "counters", "lists", "maps", "binary", "unicode", "math", "os", "zlib", "prim_file",
        "prim_inet", "prim_buffer", "prim_net", "prim_socket", "erts_literal_area_collector",
        "erts_code_purger", "erts_dirty_process_signal_handler", "erl_tracer", "socket_registry"};
    for (std::string_view n : modules)
        if (n == m) return true;
    return false;
}

// nif_error/1,2: raises Reason, as erts does for a NIF library's stub. When the caller is one
// of erts' own placeholder bodies, the native is missing from beamvm: name it and raise undef.
Term nif_error_1(Process* p, const Term* a) {
    if (ModuleCode* mc = p->vm->code_at(p->pc); mc && has_native_placeholders(atom_name(mc->name))) {
        if (const FunctionInfo* fi = mc->function_at(p->pc)) {
            std::fprintf(stderr, "beamvm: native function %s:%s/%u is not implemented\n",
                         std::string(atom_name(mc->name)).c_str(), std::string(atom_name(fi->name)).c_str(),
                         fi->arity);
            return p->error(am::undef);
        }
    }
    return p->error(a[0]);
}

Term raise_3(Process* p, const Term* a) {
    ErrorClass c;
    if (a[0] == am::error) c = ErrorClass::Error;
    else if (a[0] == am::exit) c = ErrorClass::Exit;
    else if (a[0] == am::throw_) c = ErrorClass::Throw;
    else return am::badarg;  // OTP returns (not raises) badarg for a bad class or trace
    if (!proper_list_length(a[2])) return am::badarg;
    p->raise(c, a[1]);
    p->ftrace = a[2];
    p->ftrace_preset = true;
    return NON_VALUE;
}

Term make_fun_3(Process* p, const Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_small(a[2]) || small_value(a[2]) < 0 || small_value(a[2]) > 255)
        return p->badarg();
    Export* e = p->ns->export_entry(a[0], a[1], uint32_t(small_value(a[2])));
    Term* hp = p->alloc(EXPORT_FUN_WORDS);
    hp[0] = make_header(Sub::Export, 1);
    hp[1] = Term{reinterpret_cast<Word>(e)};
    return make_boxed(hp);
}

Term fun_info_2(Process* p, const Term* a) {
    Term f = a[0], what = a[1];
    if (!is_any_fun(f) || !is_atom(what)) return p->badarg();
    Term v;
    if (is_boxed_sub(f, Sub::Export)) {
        Export* e = export_of(f);
        if (what == am::module) v = e->module;
        else if (what == am::name) v = e->function;
        else if (what == am::arity) v = make_small(e->arity);
        else if (what == am::type) v = am::external;
        else if (what == am::env) v = NIL;
        else if (what == am::pid || what == am::index || what == am::new_index || what == am::uniq ||
                 what == am::new_uniq || what == atom("refc")) v = am::undefined;
        else return p->badarg();
    } else {
        FunEntry* fe = fun_entry(f);
        if (what == am::module) v = fe->module;
        else if (what == am::name) v = fe->function;
        else if (what == am::arity) v = make_small(fe->fun_arity());
        else if (what == am::type) v = am::local;
        else if (what == am::env) v = make_list_from(*p, fun_free_vars(f), fun_num_free(f));
        else if (what == am::pid) v = fun_creator(f);
        else if (what == am::index) v = make_small(fe->index);
        else if (what == am::uniq) v = make_small(fe->old_uniq);
        else if (what == am::new_index) v = make_small(fe->index);
        else if (what == am::new_uniq) {
            uint8_t* data;
            v = make_binary_uninit(*p, 16, &data);
            std::copy(fe->md5, fe->md5 + 16, data);
        } else if (what == atom("refc")) {
            // OTP counts the live funs of this entry; beamvm keeps no such count.
            return p->error2(atom("not_implemented"), make_tuple(*p, {atom("fun_info"), what}));
        } else return p->badarg();
    }
    return make_tuple(*p, {what, v});
}

Term group_leader_0(Process* p, const Term*) { return p->group_leader == NIL ? p->pid : p->group_leader; }


// beamvm's own start-up modules (OTP lists the modules built into its emulator).
Term pre_loaded_0(Process* p, const Term*) {
    std::vector<Term> mods;
    for (const std::string& m : p->vm->pre_loaded()) mods.push_back(atom(m));
    return make_list_from(*p, mods.data(), mods.size());
}

// save_calls N (0..10000): accepted and returned; beamvm does not record the calls, so
// process_info(P, last_calls) is only answered (false) while it is 0.
Term is_builtin_3(Process* p, const Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_small(a[2])) return p->badarg();
    // apply/2,3 and yield/0 are instructions in erts too, and count as built-ins there.
    unsigned arity = unsigned(small_value(a[2]));
    if (a[0] == am::erlang && ((a[1] == atom("apply") && (arity == 2 || arity == 3)) ||
                               (a[1] == atom("yield") && arity == 0)))
        return am::true_;
    return make_bool(find_bif_in(*p->vm, a[0], a[1], arity) != nullptr);
}

// Reached only through apply or a fun: calls by name become the gc_now instruction, which can
// collect (a BIF cannot). Here the collection waits for the next heap check.
Term garbage_collect_0(Process* p, const Term*) { return am::true_; }

// erts_internal:garbage_collect(Mode), erlang:garbage_collect/1,2 on the caller itself
// (OTP's Erlang code in erlang.beam): a BIF cannot collect, so it continues in
// beamvm_traps:garbage_collect/0, whose erlang:garbage_collect() is the gc_now instruction,
// told here whether to collect minor or fully.
Term erts_garbage_collect_1(Process* p, const Term* a) {
    if (a[0] != atom("major") && a[0] != atom("minor")) return p->badarg();
    p->gc_now_minor = a[0] == atom("minor");
    return p->trap(p->ns->export_entry(atom("beamvm_traps"), atom("garbage_collect"), 0), {});
}

// erts_internal:request_system_task(Pid, Prio, Request): {garbage_collect, ReqId, Mode} from
// erlang.beam's garbage_collect/1,2 on another process (or, async, on the caller), and OTP's
// {system_task_test, ReqId}. A signal behind those the caller sent before; the target takes it
// in at Prio (inherit: the caller's), runs it when it is next between two time slices and
// answers {Tag, ReqId, true}, or false if it exits first (scheduler/signals.hpp).
Term erts_request_system_task_3(Process* p, const Term* a) {
    Term prio_arg = a[1], req = a[2];
    if (!is_local_pid(a[0])) return p->badarg();
    int prio = prio_arg == atom("inherit") ? p->sched.prio : prio_of(prio_arg);
    if (prio < 0 || !is_tuple(req) || tuple_arity(req) < 2) return p->badarg();
    Term tag = tuple_elem(req, 0), id = tuple_elem(req, 1);
    SystemTaskKind kind;
    if (tag == atom("garbage_collect") && tuple_arity(req) == 3 &&
        (tuple_elem(req, 2) == atom("major") || tuple_elem(req, 2) == atom("minor"))) {
        kind = tuple_elem(req, 2) == atom("major") ? TASK_GC_MAJOR : TASK_GC_MINOR;
    } else if (tag == atom("system_task_test") && tuple_arity(req) == 2) {
        kind = TASK_TEST;
    } else if (is_atom(tag) && (tag == atom("check_process_code") || tag == atom("copy_literals") ||
                                tag == atom("old_code") || tag == atom("fun_entries"))) {
        // erts' code purger's tasks: beamvm's purge looks at processes itself (vm/code_purge.hpp).
        return p->error(make_tuple(*p, {atom("not_implemented"), tag}));
    } else {
        return p->badarg();
    }
    if (!send_system_task(*p->vm, p, a[0], kind, id, prio))
        post_message(*p->vm, p->pid, make_tuple(*p, {tag, id, am::false_}));
    return am::ok;
}

const BifSpec table[] = {
    {"erlang", "self", 0, &self_0, true},
    {"erlang", "halt", 0, &halt_0},
    {"erlang", "halt", 1, &halt_1},
    {"erlang", "halt", 2, &halt_2},
    {"erlang", "get_module_info", 1, &get_module_info_1},
    {"erlang", "get_module_info", 2, &get_module_info_2},
    {"erlang", "function_exported", 3, &function_exported_3},
    {"erlang", "module_loaded", 1, &module_loaded_1},
    {"erlang", "system_info", 1, &system_info_1},
    {"erlang", "nif_error", 1, &nif_error_1},
    {"erlang", "nif_error", 2, &nif_error_1},
    {"erlang", "raise", 3, &raise_3},
    {"erlang", "make_fun", 3, &make_fun_3},
    {"erlang", "fun_info", 2, &fun_info_2},
    {"erlang", "group_leader", 0, &group_leader_0},
    {"erlang", "pre_loaded", 0, &pre_loaded_0},
    {"erlang", "is_builtin", 3, &is_builtin_3},
    {"erlang", "garbage_collect", 0, &garbage_collect_0},
    {"erts_internal", "garbage_collect", 1, &erts_garbage_collect_1},
    {"erts_internal", "request_system_task", 3, &erts_request_system_task_3},
};

}  // namespace

std::span<const BifSpec> system_bifs() { return table; }

}  // namespace beam

// BIFs that reach the VM: code and module information, halting, system information, the
// process's own identity, funs built by name. Mirrors the erlang module of OTP 25.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

extern char** environ;
#include <thread>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/system_heap_options.hpp"
#include <fmt/format.h>

#include "vm/binary.hpp"
#include "vm/copy_term.hpp"
#include "vm/gc_options.hpp"
#include "vm/gc_internal.hpp"
#include "vm/term_order.hpp"
#include "vm/term_print.hpp"
#include "vm/module.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term self_0(Process* p, const Term*) { return p->pid; }

Term halt_status(Process* p, Term status) {
    int code;
    if (is_small(status) && small_value(status) >= 0) code = int(small_value(status) & 0xFF);
    else if (status == atom("abort")) code = 134;
    else if (is_list(status) || is_nil(status)) code = 1;  // halt("message"): slogan, status 1
    else return p->badarg();
    std::fflush(p->vm->out);
    p->halt_requested = true;
    p->halt_status = code;
    return NON_VALUE;
}
Term halt_0(Process* p, const Term*) { return halt_status(p, make_small(0)); }
Term halt_1(Process* p, const Term* a) { return halt_status(p, a[0]); }
Term halt_2(Process* p, const Term* a) { return halt_status(p, a[0]); }

Term functions_list(Process* p, const std::vector<std::pair<Term, uint32_t>>& fs) {
    std::vector<Term> items;
    for (auto [name, arity] : fs) items.push_back(make_tuple(*p, {name, make_small(arity)}));
    return make_list_from(*p, items.data(), items.size());
}

Term module_info_item(Process* p, ModuleCode* mc, Term what) {
    if (what == am::module) return mc->name;
    if (what == am::exports) return functions_list(p, mc->exports);
    if (what == am::functions) return functions_list(p, mc->all_functions);
    if (what == am::attributes) return mc->attributes;
    if (what == am::compile) return mc->compile_info;
    if (what == am::md5) {
        uint8_t* data;
        Term b = make_binary_uninit(*p, 16, &data);
        std::copy(mc->md5, mc->md5 + 16, data);
        return b;
    }
    if (what == atom("nifs")) return NIL;
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
    return make_bool(find_bif(a[0], a[1], arity) != nullptr);
}

Term module_loaded_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(p->ns->current(a[0]) != nullptr);
}

Term system_info_1(Process* p, const Term* a) {
    Term what = a[0];
    if (what == am::machine) return make_string(*p, "BEAM");
    if (what == am::otp_release) return make_string(*p, "25");
    if (what == am::wordsize) return make_small(8);
    if (what == am::version) return make_string(*p, "13.1.5");
    if (what == atom("system_version"))
        return make_string(*p, "Erlang/OTP 25 [beamvm] [64-bit]\n");
    if (what == atom("schedulers") || what == atom("schedulers_online"))
        return make_small(p->vm->scheds ? p->vm->scheds->count() : 1);
    if (what == atom("scheduler_id")) return make_small(Schedulers::current_index() + 1);
    if (what == atom("process_count")) return make_small(SWord(p->vm->procs.count()));
    if (what == atom("process_limit")) return make_small(262144);
    if (what == atom("atom_count")) return make_small(SWord(AtomTable::instance().size()));
    if (what == atom("atom_limit")) return make_small(SWord(MAX_ATOMS));
    if (what == atom("thread_pool_size")) return make_small(0);
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
    if (what == atom("kernel_poll")) return am::false_;
    if (what == atom("creation")) return make_small(0);
    return p->badarg();
}

Term nif_error_1(Process* p, const Term* a) {
    // Reached from a module's placeholder body for a native function beamvm lacks
    // (erlang.beam, for instance, defines every BIF as a call to nif_error). Name it.
    if (ModuleCode* mc = p->vm->code_at(p->pc)) {
        if (const FunctionInfo* fi = mc->function_at(p->pc))
            std::fprintf(stderr, "beamvm: native function %s:%s/%u is not implemented\n",
                         std::string(atom_name(mc->name)).c_str(), std::string(atom_name(fi->name)).c_str(),
                         fi->arity);
    }
    return p->error(am::undef);
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
                 what == am::new_uniq) v = am::undefined;
        else return p->badarg();
    } else {
        FunEntry* fe = fun_entry(f);
        if (what == am::module) v = fe->module;
        else if (what == am::name) v = fe->function;
        else if (what == am::arity) v = make_small(fe->fun_arity());
        else if (what == am::type) v = am::local;
        else if (what == am::env) v = make_list_from(*p, fun_free_vars(f), fun_num_free(f));
        else if (what == am::pid) v = p->pid;
        else if (what == am::index) v = make_small(fe->index);
        else if (what == am::uniq) v = make_small(fe->old_uniq);
        else if (what == am::new_index) v = make_small(fe->index);
        else if (what == am::new_uniq) {
            uint8_t* data;
            v = make_binary_uninit(*p, 16, &data);
            std::copy(fe->md5, fe->md5 + 16, data);
        } else return p->badarg();
    }
    return make_tuple(*p, {what, v});
}

Term group_leader_0(Process* p, const Term*) { return p->group_leader == NIL ? p->pid : p->group_leader; }


Term pre_loaded_0(Process* p, const Term*) { return NIL; }

// save_calls N (0..10000): accepted and returned; beamvm does not record the calls, so
// process_info(P, last_calls) is only answered (false) while it is 0.
Term set_save_calls(Process* p, Process* target, Term v) {
    if (!is_small(v) || small_value(v) < 0 || small_value(v) > 10000) return p->badarg();
    return make_small(target->save_calls.exchange(uint32_t(small_value(v))));
}

Term process_flag_2(Process* p, const Term* a) {
    if (a[0] == atom("trap_exit")) {
        if (!is_boolean_atom(a[1])) return p->badarg();
        Term old = make_bool(p->trap_exit);
        std::lock_guard lock(p->sched.info_mutex);
        p->trap_exit = a[1] == am::true_;
        return old;
    }
    if (a[0] == atom("priority")) {
        if (a[1] != atom("low") && a[1] != am::normal && a[1] != atom("high") && a[1] != atom("max"))
            return p->badarg();
        Term old = p->priority;
        static const Term order[] = {atom("max"), atom("high"), am::normal, atom("low")};
        for (int i = 0; i < 4; ++i)
            if (order[i] == a[1]) p->sched.prio = i;
        p->priority = a[1];
        return old;
    }
    if (a[0] == atom("save_calls")) return set_save_calls(p, p, a[1]);
    if (a[0] == atom("min_heap_size")) {
        // Takes effect at the next collection (the block is not resized now), as in OTP.
        size_t words;
        if (!parse_heap_option(a[1], gc::DEFAULT_MIN_HEAP, &words)) return p->badarg();
        Term old = make_small(SWord(p->min_heap_size));
        std::lock_guard lock(p->sched.info_mutex);
        p->min_heap_size = words;
        return old;
    }
    if (a[0] == atom("min_bin_vheap_size")) {
        size_t words;
        if (!parse_heap_option(a[1], DEFAULT_MIN_BIN_VHEAP, &words)) return p->badarg();
        Term old = make_small(SWord(p->min_bin_vheap_size));
        std::lock_guard lock(p->sched.info_mutex);
        p->min_bin_vheap_size = words;
        return old;
    }
    if (a[0] == atom("max_heap_size")) {
        MaxHeapSize m;
        if (!parse_max_heap_size(a[1], &m) || !max_heap_fits(m, p->min_heap_size)) return p->badarg();
        Term old = max_heap_size_term(p, p->max_heap);
        std::lock_guard lock(p->sched.info_mutex);
        p->max_heap = m;
        return old;
    }
    if (a[0] == atom("fullsweep_after")) {
        uint32_t n;
        if (!parse_fullsweep_after(a[1], &n)) return p->badarg();
        Term old = make_small(p->fullsweep_after);
        std::lock_guard lock(p->sched.info_mutex);
        p->fullsweep_after = n;
        return old;
    }
    if (a[0] == atom("message_queue_data")) {
        bool off_heap;
        if (!parse_message_queue_data(a[1], &off_heap)) return p->badarg();
        Term old = message_queue_data_term(p->message_queue_off_heap);
        std::lock_guard lock(p->sched.info_mutex);
        p->message_queue_off_heap = off_heap;
        return old;
    }
    if (a[0] == atom("sensitive")) {
        if (!is_boolean_atom(a[1])) return p->badarg();
        Term old = make_bool(p->sensitive);
        p->sensitive = a[1] == am::true_;
        return old;
    }
    if (a[0] == atom("error_handler")) {
        // Stored and reported; beamvm's undefined-function handling does not call it.
        if (!is_atom(a[1])) return p->badarg();
        Term old = p->error_handler;
        std::lock_guard lock(p->sched.info_mutex);
        p->error_handler = a[1];
        return old;
    }
    return p->badarg();
}

// erts_internal:process_flag(Pid, Flag, Value), behind erlang:process_flag/3, which only
// knows save_calls. It returns the old value, or badarg for erlang.beam to raise (a reference
// would make it wait for a reply: not needed, save_calls is an atomic any process may set).
Term erts_process_flag_3(Process* p, const Term* a) {
    if (!is_pid(a[0]) || a[1] != atom("save_calls")) return am::badarg;
    if (a[0] == p->pid) {
        Term r = set_save_calls(p, p, a[2]);
        return is_non_value(r) ? am::badarg : r;
    }
    Process* q = p->vm->procs.lookup(a[0]);
    if (!q) return am::badarg;
    Term r = (q->sched.state.load(std::memory_order_acquire) & run_state::EXITED) ? p->badarg()
                                                                                  : set_save_calls(p, q, a[2]);
    ProcessTable::release(q);
    return is_non_value(r) ? am::badarg : r;
}

// beamvm's start-up module reports a crash on stderr as erl does:
//   init terminating in do_boot (Reason)
Term report_boot_crash_1(Process* p, const Term* a) {
    std::fflush(p->vm->out);
    std::fprintf(stderr, "init terminating in do_boot (%s)\n", display_string(a[0]).c_str());
    return am::ok;
}

// ---- the built-in I/O server's access to stdin/stdout (vm/erlang/beamvm_io_server.erl) ----

// Appends chardata (nested lists of characters and binaries) as code points. Binaries are
// UTF-8 when `utf8`, else latin1 bytes. False if it is not chardata.
bool flatten_chars(Term t, bool utf8, std::vector<uint32_t>& out) {
    std::vector<Term> stack{t};
    while (!stack.empty()) {
        Term x = stack.back();
        stack.pop_back();
        while (is_list(x)) {
            Term h = head(x);
            if (is_small(h)) {
                if (small_value(h) < 0 || small_value(h) > 0x10FFFF) return false;
                out.push_back(uint32_t(small_value(h)));
            } else if (is_list(h) || is_nil(h) || is_binary(h)) {
                stack.push_back(tail(x));
                x = h;
                continue;
            } else {
                return false;
            }
            x = tail(x);
        }
        if (is_binary(x)) {
            BitView v = bit_view(x);
            std::string_view bytes(reinterpret_cast<const char*>(v.bytes()), v.byte_size());
            if (utf8) {
                if (!decode_utf8(bytes, out)) return false;
            } else {
                for (unsigned char c : bytes) out.push_back(c);
            }
        } else if (!is_nil(x)) {
            return false;
        }
    }
    return true;
}

// beamvm_internal:put_chars(Fd, Encoding, Chars): Fd 1 is stdout, 2 is stderr.
Term put_chars_3(Process* p, const Term* a) {
    FILE* out_file = a[0] == make_small(2) ? stderr : p->vm->out;
    a++;
    bool utf8 = a[0] == am::unicode || a[0] == am::utf8;
    std::vector<uint32_t> cps;
    if (!flatten_chars(a[1], utf8, cps)) return atom("badarg");
    if (!utf8) {
        for (uint32_t c : cps)
            if (c > 255) return atom("badarg");
    }
    // stdout is latin1, as erl -noshell writing to a pipe: wider characters are escaped.
    std::string text;
    text.reserve(cps.size());
    for (uint32_t c : cps) {
        if (c < 256) text.push_back(char(c));
        else text += fmt::format("\\x{{{:X}}}", c);
    }
    if (out_file == stderr) std::fflush(p->vm->out);  // keep the two streams in program order
    std::fwrite(text.data(), 1, text.size(), out_file);
    std::fflush(out_file);
    return am::ok;
}

Term read_line_0(Process* p, const Term*) {
    std::string line;
    int c;
    while ((c = std::fgetc(stdin)) != EOF) {
        line.push_back(char(c));
        if (c == '\n') break;
    }
    if (line.empty()) return am::eof;
    return make_binary(*p, line);
}

Term read_chars_1(Process* p, const Term* a) {
    if (!is_small(a[0]) || small_value(a[0]) < 0) return p->badarg();
    std::string buf(size_t(small_value(a[0])), '\0');
    size_t n = std::fread(buf.data(), 1, buf.size(), stdin);
    if (n == 0 && buf.size() > 0) return am::eof;
    buf.resize(n);
    return make_binary(*p, buf);
}

// ---- persistent_term ----
// Values live in the VM's never-collected area, so readers share them without copying.
// Erasing or replacing leaks the old copy (OTP frees it after a global GC; not done yet).

const Term* persistent_find(VM& vm, Term key) {
    for (auto& [k, v] : vm.persistent.items)
        if (eq_exact(k, key)) return &v;
    return nullptr;
}

Term pt_get_1(Process* p, const Term* a) {
    std::lock_guard lock(p->vm->persistent.mutex);
    const Term* v = persistent_find(*p->vm, a[0]);
    return v ? *v : p->badarg();
}

Term pt_get_2(Process* p, const Term* a) {
    std::lock_guard lock(p->vm->persistent.mutex);
    const Term* v = persistent_find(*p->vm, a[0]);
    return v ? *v : a[1];
}

Term pt_put_2(Process* p, const Term* a) {
    VM& vm = *p->vm;
    std::lock_guard lock(vm.persistent.mutex);
    Term value = copy_term(a[1], vm.persistent.area);
    for (auto& [k, v] : vm.persistent.items)
        if (eq_exact(k, a[0])) {
            v = value;
            return am::ok;
        }
    vm.persistent.items.push_back({copy_term(a[0], vm.persistent.area), value});
    return am::ok;
}

Term pt_erase_1(Process* p, const Term* a) {
    VM& vm = *p->vm;
    std::lock_guard lock(vm.persistent.mutex);
    auto& items = vm.persistent.items;
    for (size_t i = 0; i < items.size(); ++i)
        if (eq_exact(items[i].first, a[0])) {
            items.erase(items.begin() + long(i));
            return am::true_;
        }
    return am::false_;
}

// ---- os ----
Term os_getenv_1(Process* p, const Term* a) {
    auto name = char_list_to_utf8(a[0]);
    if (!name) return p->badarg();
    const char* v = std::getenv(name->c_str());
    return v ? make_string(*p, v) : am::false_;
}

Term os_getenv_0(Process* p, const Term*) {

    std::vector<Term> items;
    for (char** e = environ; *e; ++e) items.push_back(make_string(*p, *e));
    return make_list_from(*p, items.data(), items.size());
}

Term os_putenv_2(Process* p, const Term* a) {
    auto name = char_list_to_utf8(a[0]), value = char_list_to_utf8(a[1]);
    if (!name || !value || name->empty() || name->find('=') != std::string::npos) return p->badarg();
    ::setenv(name->c_str(), value->c_str(), 1);
    return am::true_;
}

Term os_unsetenv_1(Process* p, const Term* a) {
    auto name = char_list_to_utf8(a[0]);
    if (!name) return p->badarg();
    ::unsetenv(name->c_str());
    return am::true_;
}

Term os_getpid_0(Process* p, const Term*) { return make_string(*p, std::to_string(::getpid())); }

// io.erl asks whether the group leader's node understands unicode I/O requests: ours does.
Term dflag_unicode_io_1(Process* p, const Term* a) { return am::true_; }

Term is_builtin_3(Process* p, const Term* a) {
    if (!is_atom(a[0]) || !is_atom(a[1]) || !is_small(a[2])) return p->badarg();
    return make_bool(find_bif(a[0], a[1], unsigned(small_value(a[2]))) != nullptr);
}

Term garbage_collect_0(Process* p, const Term*) { return am::true_; }

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
    {"erlang", "process_flag", 2, &process_flag_2},
    {"erts_internal", "process_flag", 3, &erts_process_flag_3},
    {"erlang", "is_builtin", 3, &is_builtin_3},
    {"beamvm_internal", "report_boot_crash", 1, &report_boot_crash_1},
    {"beamvm_internal", "put_chars", 3, &put_chars_3},
    {"net_kernel", "dflag_unicode_io", 1, &dflag_unicode_io_1},
    {"os", "getenv", 0, &os_getenv_0},
    {"os", "getenv", 1, &os_getenv_1},
    {"os", "putenv", 2, &os_putenv_2},
    {"os", "unsetenv", 1, &os_unsetenv_1},
    {"os", "getpid", 0, &os_getpid_0},
    {"persistent_term", "get", 1, &pt_get_1},
    {"persistent_term", "get", 2, &pt_get_2},
    {"persistent_term", "put", 2, &pt_put_2},
    {"persistent_term", "erase", 1, &pt_erase_1},
    {"beamvm_internal", "read_line", 0, &read_line_0},
    {"beamvm_internal", "read_chars", 1, &read_chars_1},
    {"erlang", "garbage_collect", 0, &garbage_collect_0},
};

}  // namespace

std::span<const BifSpec> system_bifs() { return table; }

}  // namespace beam

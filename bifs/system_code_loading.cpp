// Loading and purging from Erlang: OTP's erlang:prepare_loading/2, finish_loading/1,
// load_module/2, delete_module/1, purge_module/1, check_old_code/1, check_process_code/2,3 and
// the on_load protocol (call_on_load_function/1 is an instruction, finish_after_on_load/2
// here). Two versions per module at most, as OTP (design notes §5); purging is vm/code_purge.
//
// The purging BIFs may collect the caller (to copy literals it holds out of the purged
// version): they are never guard BIFs, so only their arguments are live in x registers, and
// the interpreter reloads its heap and stack registers after every BIF call.
#include <algorithm>
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "bifs/sandbox_checks.hpp"
#include "bifs/system_code_loading.hpp"
#include "scheduler/signals.hpp"
#include "vm/binary.hpp"
#include "vm/code_purge.hpp"
#include "vm/term_refs.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

Term* live_x(const Term* a) { return const_cast<Term*>(a); }

// Phase 1 of loading `bin` (a binary) as module `m` into `ns`: the version, or nullptr when
// the bytes are not a module named `m` (OTP's {error, badfile}).
std::unique_ptr<ModuleCode> prepare_version(Process* p, Namespace& ns, Term m, Term bin, const std::string& origin) {
    std::vector<uint8_t> bytes;
    iolist_to_bytes(bin, bytes);
    auto r = p->vm->prepare(ns, bytes, origin);
    if (!r.ok()) return nullptr;
    if (r.value()->name != m) {
        p->vm->retire_code(std::move(r.value()), false);
        return nullptr;
    }
    return std::move(r.value());
}

// erlang:prepare_loading/2 with the file the code came from (code:which reports it).
Term prepare(Process* p, Term m, Term bin, const std::string& origin) {
    if (!is_atom(m) || !is_binary(bin)) return p->badarg();
    std::unique_ptr<ModuleCode> code = prepare_version(p, *p->ns, m, bin, origin);
    if (!code) return make_tuple(*p, {am::error, atom("badfile")});
    uint64_t n = next_ref_number();
    {
        std::lock_guard lock(p->vm->prepared.mutex);
        p->vm->prepared.items[n] = {p->ns, std::move(code)};
    }
    return make_ref_from_number(*p, n);
}

Term prepare_loading_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    return prepare(p, a[0], a[1], "");
}

// beamvm_internal:prepare_loading(Module, Binary, File): as above, remembering the file.
Term internal_prepare_loading_3(Process* p, const Term* a) {
    auto file = char_list_to_utf8(a[2]);
    if (!file) return p->badarg();
    return prepare(p, a[0], a[1], *file);
}

VM::Prepared* find_prepared(Process* p, Term ref) {
    if (!is_ref(ref)) return nullptr;
    auto it = p->vm->prepared.items.find(ref_number(ref));
    return it == p->vm->prepared.items.end() || it->second.ns != p->ns ? nullptr : &it->second;
}

Term has_prepared_code_on_load_1(Process* p, const Term* a) {
    std::lock_guard lock(p->vm->prepared.mutex);
    VM::Prepared* prep = find_prepared(p, a[0]);
    if (!prep) return p->badarg();
    return make_bool(prep->code->on_load != nullptr);
}

// All or nothing, as OTP: every reference must be prepared code not yet finished, and no
// module may have old code in the way; then each becomes current (or waits for on_load).
Term finish_loading_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    std::vector<uint64_t> refs;
    std::vector<std::unique_ptr<ModuleCode>> codes;
    {
        std::lock_guard lock(p->vm->prepared.mutex);
        Term l = a[0];
        for (; is_list(l); l = tail(l)) {
            if (!find_prepared(p, head(l))) return p->badarg();
            refs.push_back(ref_number(head(l)));
        }
        if (!is_nil(l)) return p->badarg();
        // As erts: modules with on_load functions cannot be loaded as a group, and a module
        // may appear once (each later appearance is reported). Nothing is consumed then.
        if (refs.size() > 1)
            for (uint64_t n : refs)
                if (p->vm->prepared.items[n].code->on_load) return p->error(am::system_limit);
        std::vector<Term> seen, duplicated;
        for (uint64_t n : refs) {
            Term m = p->vm->prepared.items[n].code->name;
            if (std::find(seen.begin(), seen.end(), m) != seen.end()) duplicated.push_back(m);
            else seen.push_back(m);
        }
        if (!duplicated.empty())
            return make_tuple(*p, {atom("duplicated"), make_list_from(*p, duplicated.data(), duplicated.size())});
        std::vector<Term> blocked;
        for (uint64_t n : refs) {
            Term m = p->vm->prepared.items[n].code->name;
            if (p->ns->current(m) && p->ns->has_old_code(m)) blocked.push_back(m);
        }
        if (!blocked.empty())
            return make_tuple(*p, {atom("not_purged"), make_list_from(*p, blocked.data(), blocked.size())});
        for (uint64_t n : refs) {
            codes.push_back(std::move(p->vm->prepared.items[n].code));
            p->vm->prepared.items.erase(n);
        }
    }
    std::vector<Term> on_load, not_purged;
    for (auto& code : codes) {
        Term m = code->name;
        switch (p->ns->commit(code)) {
        case Namespace::Commit::Loaded: break;
        case Namespace::Commit::OnLoad: on_load.push_back(m); break;
        case Namespace::Commit::NotPurged:  // raced with another load meanwhile
            not_purged.push_back(m);
            p->vm->retire_code(std::move(code), false);
            break;
        }
    }
    if (!not_purged.empty())
        return make_tuple(*p, {atom("not_purged"), make_list_from(*p, not_purged.data(), not_purged.size())});
    if (!on_load.empty()) return make_tuple(*p, {atom("on_load"), make_list_from(*p, on_load.data(), on_load.size())});
    return am::ok;
}

Term finish_after_on_load_2(Process* p, const Term* a) {
    if (!is_atom(a[0]) || (a[1] != am::true_ && a[1] != am::false_)) return p->badarg();
    if (!p->ns->on_load_pending(a[0])) return p->badarg();
    purge_version(p, live_x(a), 2, p->ns->finish_on_load(a[0], a[1] == am::true_));
    return am::true_;
}

Term load_module_2(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    return load_module_into(p, *p->ns, a[0], a[1]);
}

Term delete_module_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    if (!is_atom(a[0]) || p->ns->has_old_code(a[0])) return p->badarg();
    return p->ns->delete_module(a[0]) ? am::true_ : am::undefined;
}

Term purge_module_1(Process* p, const Term* a) {
    if (!sandbox_allows(p, Capability::CodeLoad)) [[unlikely]] return capability_denied(p, Capability::CodeLoad);
    if (!is_atom(a[0])) return p->badarg();
    PurgeResult r = purge_old_code(p, live_x(a), 1, *p->ns, a[0], PurgeMode::Hard);
    return r.purged ? am::true_ : p->badarg();
}

Term check_old_code_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(p->ns->has_old_code(a[0]));
}

Term check_process_code_2(Process* p, const Term* a) {
    if (!is_pid(a[0]) || !is_atom(a[1])) return p->badarg();
    return make_bool(check_process_code(p, live_x(a), 2, a[0], a[1]));
}

// Options: {allow_gc, Bool} (beamvm's check never needs a collection) and {async, ReqId}
// (the answer comes as a message {check_process_code, ReqId, Result}).
Term check_process_code_3(Process* p, const Term* a) {
    if (!is_pid(a[0]) || !is_atom(a[1])) return p->badarg();
    Term async = NON_VALUE;
    Term l = a[2];
    for (; is_list(l); l = tail(l)) {
        Term o = head(l);
        if (!is_tuple(o) || tuple_arity(o) != 2) return p->badarg();
        Term k = tuple_elem(o, 0), v = tuple_elem(o, 1);
        if (k == atom("allow_gc") && (v == am::true_ || v == am::false_)) continue;
        if (k == atom("async")) {
            async = v;
            continue;
        }
        return p->badarg();
    }
    if (!is_nil(l)) return p->badarg();
    Term r = make_bool(check_process_code(p, live_x(a), 3, a[0], a[1]));
    if (is_non_value(async)) return r;
    post_message(*p->vm, p->pid, make_tuple(*p, {atom("check_process_code"), async, r}));
    return atom("async");
}

// OTP's erts_code_purger API, which code_server calls: OTP's purger process asks erts to
// prepare, checks every process, then completes; beamvm's sweep (vm/code_purge) does it all
// in the caller's native, so these are natives too (the purger process still runs, idle).
// purge/1 answers {HadOldCode, KilledSomeone}; soft_purge/1 true unless a process still uses
// the old code; finish_after_on_load/2 as erlang's, answering ok.
Term purger_purge_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->error(am::function_clause);
    PurgeResult r = purge_old_code(p, live_x(a), 1, *p->ns, a[0], PurgeMode::Hard);
    return make_tuple(*p, {make_bool(r.had_old), make_bool(r.killed)});
}

Term purger_soft_purge_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->error(am::function_clause);
    PurgeResult r = purge_old_code(p, live_x(a), 1, *p->ns, a[0], PurgeMode::Soft);
    return make_bool(!r.had_old || r.purged);
}

Term purger_finish_after_on_load_2(Process* p, const Term* a) {
    if (!is_atom(a[0]) || (a[1] != am::true_ && a[1] != am::false_)) return p->error(am::function_clause);
    if (p->ns->on_load_pending(a[0]))
        purge_version(p, live_x(a), 2, p->ns->finish_on_load(a[0], a[1] == am::true_));
    return am::ok;
}

const BifSpec table[] = {
    {"erts_code_purger", "purge", 1, &purger_purge_1},
    {"erts_code_purger", "soft_purge", 1, &purger_soft_purge_1},
    {"erts_code_purger", "finish_after_on_load", 2, &purger_finish_after_on_load_2},
    {"erlang", "prepare_loading", 2, &prepare_loading_2},
    {"erlang", "has_prepared_code_on_load", 1, &has_prepared_code_on_load_1},
    {"erlang", "finish_loading", 1, &finish_loading_1},
    {"erlang", "finish_after_on_load", 2, &finish_after_on_load_2},
    {"erlang", "load_module", 2, &load_module_2},
    {"erlang", "delete_module", 1, &delete_module_1},
    {"erlang", "purge_module", 1, &purge_module_1},
    {"erlang", "check_old_code", 1, &check_old_code_1},
    {"erlang", "check_process_code", 2, &check_process_code_2},
    {"erlang", "check_process_code", 3, &check_process_code_3},
    {"beamvm_internal", "prepare_loading", 3, &internal_prepare_loading_3},
};

}  // namespace

Term load_module_into(Process* p, Namespace& ns, Term m, Term bin) {
    if (!is_atom(m) || !is_binary(bin)) return p->badarg();
    std::unique_ptr<ModuleCode> code = prepare_version(p, ns, m, bin, "");
    if (!code) return make_tuple(*p, {am::error, atom("badfile")});
    switch (ns.commit(code)) {
    case Namespace::Commit::Loaded: return make_tuple(*p, {am::module, m});
    case Namespace::Commit::OnLoad: return make_tuple(*p, {am::error, atom("on_load")});
    case Namespace::Commit::NotPurged: break;
    }
    p->vm->retire_code(std::move(code), false);
    return make_tuple(*p, {am::error, atom("not_purged")});
}

std::span<const BifSpec> code_loading_bifs() { return table; }

}  // namespace beam

// Code loading from Erlang: the functions of OTP's `code` module that programs call (natively
// here, since beamvm has no code_server process), and erlang:load_module/delete_module/...
// Purging does not kill processes still running old code yet (hot code loading is a later
// issue): the old version's memory is kept instead, so they stay safe.
#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "vm/binary.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {


Term loaded_result(Process* p, Result<ModuleCode*>& r, Term m) {
    if (r.ok()) return make_tuple(*p, {am::module, m});
    const std::string& msg = r.error().message;
    Term reason = msg.starts_with("not found") ? atom("nofile")
                  : msg.find("purged") != std::string::npos ? atom("not_purged")
                                                            : atom("badfile");
    return make_tuple(*p, {am::error, reason});
}

Term code_ensure_loaded_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return make_tuple(*p, {am::error, am::badarg});
    auto r = p->vm->ensure_loaded(*p->ns, a[0]);
    return loaded_result(p, r, a[0]);
}

Term code_load_file_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return make_tuple(*p, {am::error, am::badarg});
    if (p->ns->has_old_code(a[0])) return make_tuple(*p, {am::error, atom("not_purged")});
    std::string path = p->vm->find_on_path(a[0]);
    if (path.empty()) return make_tuple(*p, {am::error, atom("nofile")});
    auto r = p->vm->load_file(*p->ns, path);
    return loaded_result(p, r, a[0]);
}

Term load_binary(Process* p, Term m, Term bin, const std::string& origin) {
    if (!is_atom(m) || !is_binary(bin)) return p->badarg();
    if (p->ns->has_old_code(m)) return make_tuple(*p, {am::error, atom("not_purged")});
    BitView v = bit_view(bin);
    auto r = p->vm->load_binary(*p->ns, std::span(v.bytes(), v.byte_size()), origin);
    if (r.ok() && r.value()->name != m) return make_tuple(*p, {am::error, atom("badfile")});
    return loaded_result(p, r, m);
}

Term code_load_binary_3(Process* p, const Term* a) {
    auto file = char_list_to_utf8(a[1]);
    return load_binary(p, a[0], a[2], file ? *file : "");
}
Term load_module_2(Process* p, const Term* a) { return load_binary(p, a[0], a[1], ""); }

Term code_is_loaded_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return am::false_;
    ModuleCode* mc = p->ns->current(a[0]);
    if (!mc) return am::false_;
    Term where = mc->path.empty() ? atom("in_memory") : make_string(*p, mc->path);
    return make_tuple(*p, {am::file, where});
}

Term code_which_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    if (ModuleCode* mc = p->ns->current(a[0])) return mc->path.empty() ? atom("in_memory") : make_string(*p, mc->path);
    std::string path = p->vm->find_on_path(a[0]);
    return path.empty() ? atom("non_existing") : make_string(*p, path);
}

Term code_delete_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(p->ns->delete_module(a[0]));
}
Term delete_module_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    if (p->ns->has_old_code(a[0])) return p->badarg();
    return p->ns->delete_module(a[0]) ? am::true_ : am::undefined;
}
Term code_purge_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(p->ns->purge_module(a[0]));
}
Term code_soft_purge_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    p->ns->purge_module(a[0]);
    return am::true_;
}
Term purge_module_1(Process* p, const Term* a) {
    if (!is_atom(a[0]) || !p->ns->purge_module(a[0])) return p->badarg();
    return am::true_;
}
Term check_old_code_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_bool(p->ns->has_old_code(a[0]));
}

Term code_get_path_0(Process* p, const Term*) {
    std::vector<Term> dirs;
    for (const std::string& d : p->vm->code_path()) dirs.push_back(make_string(*p, d));
    return make_list_from(*p, dirs.data(), dirs.size());
}
Term code_add_patha_1(Process* p, const Term* a) {
    auto d = char_list_to_utf8(a[0]);
    if (!d) return make_tuple(*p, {am::error, atom("bad_directory")});
    p->vm->add_path_front(*d);
    return am::true_;
}
Term code_add_pathz_1(Process* p, const Term* a) {
    auto d = char_list_to_utf8(a[0]);
    if (!d) return make_tuple(*p, {am::error, atom("bad_directory")});
    p->vm->add_path_back(*d);
    return am::true_;
}
Term code_root_dir_0(Process* p, const Term*) { return make_string(*p, p->vm->otp_root()); }

Term code_all_loaded_0(Process* p, const Term*) {
    std::vector<Term> items;
    for (Term m : p->ns->loaded_modules()) {
        ModuleCode* mc = p->ns->current(m);
        Term where = mc && !mc->path.empty() ? make_string(*p, mc->path) : atom("in_memory");
        items.push_back(make_tuple(*p, {m, where}));
    }
    return make_list_from(*p, items.data(), items.size());
}
Term loaded_0(Process* p, const Term*) {
    auto mods = p->ns->loaded_modules();
    return make_list_from(*p, mods.data(), mods.size());
}
Term code_is_sticky_1(Process* p, const Term*) { return am::false_; }
Term ports_0(Process* p, const Term*) { return NIL; }  // beamvm has no ports yet

const BifSpec table[] = {
    {"code", "ensure_loaded", 1, &code_ensure_loaded_1},
    {"code", "load_file", 1, &code_load_file_1},
    {"code", "load_binary", 3, &code_load_binary_3},
    {"code", "is_loaded", 1, &code_is_loaded_1},
    {"code", "which", 1, &code_which_1},
    {"code", "delete", 1, &code_delete_1},
    {"code", "purge", 1, &code_purge_1},
    {"code", "soft_purge", 1, &code_soft_purge_1},
    {"code", "get_path", 0, &code_get_path_0},
    {"code", "add_patha", 1, &code_add_patha_1},
    {"code", "add_pathz", 1, &code_add_pathz_1},
    {"code", "add_path", 1, &code_add_pathz_1},
    {"code", "root_dir", 0, &code_root_dir_0},
    {"code", "all_loaded", 0, &code_all_loaded_0},
    {"code", "is_sticky", 1, &code_is_sticky_1},
    {"erlang", "load_module", 2, &load_module_2},
    {"erlang", "delete_module", 1, &delete_module_1},
    {"erlang", "purge_module", 1, &purge_module_1},
    {"erlang", "check_old_code", 1, &check_old_code_1},
    {"erlang", "loaded", 0, &loaded_0},
    {"erlang", "ports", 0, &ports_0},
};

}  // namespace

std::span<const BifSpec> code_bifs() { return table; }

}  // namespace beam

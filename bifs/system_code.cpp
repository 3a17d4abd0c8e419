// The functions of OTP's `code` module that programs call, natively here since beamvm does
// not start OTP's code_server yet. Those that load code (and so may run on_load functions in
// a process of their own) are Erlang stand-ins instead: vm/erlang/beamvm_code.erl. Loading and
// purging themselves: bifs/system_code_loading.cpp, vm/code_purge.cpp.
#include <filesystem>
#include <fstream>

#include "bifs/bif_families.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/iolist.hpp"
#include "loader/beam_file.hpp"
#include "loader/beam_module.hpp"
#include "vm/binary.hpp"
#include "vm/code_purge.hpp"
#include "vm/vm.hpp"

namespace beam {

namespace {

std::optional<std::vector<uint8_t>> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// code:get_object_code/1: {Module, Binary, File} from the code path, or error.
Term code_get_object_code_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->error(am::function_clause);
    std::string path = p->vm->find_on_path(a[0]);
    auto bytes = path.empty() ? std::nullopt : read_bytes(path);
    if (!bytes) return am::error;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, bytes->size(), &data);
    std::copy(bytes->begin(), bytes->end(), data);
    return make_tuple(*p, {a[0], bin, make_string(*p, VM::absname(path))});
}

// beamvm_internal:read_beam_file(Name): {ok, Binary, AbsoluteName} or error (code:load_abs).
Term internal_read_beam_file_1(Process* p, const Term* a) {
    auto name = char_list_to_utf8(a[0]);
    if (!name) return p->badarg();
    auto bytes = read_bytes(*name);
    if (!bytes) return am::error;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, bytes->size(), &data);
    std::copy(bytes->begin(), bytes->end(), data);
    return make_tuple(*p, {am::ok, bin, make_string(*p, VM::absname(*name))});
}

// beamvm_internal:beam_md5(Binary): module_info(md5) of the module in it, or error.
Term internal_beam_md5_1(Process* p, const Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    std::vector<uint8_t> bytes;
    iolist_to_bytes(a[0], bytes);
    auto md5 = loader::beam_md5(bytes);
    if (!md5.ok()) return am::error;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, 16, &data);
    std::copy(md5.value().begin(), md5.value().end(), data);
    return bin;
}

// erts_internal:beamfile_chunk(Beam, ChunkId): the chunk's data (a copy), or undefined when
// the file cannot be read or has no such chunk (code:get_chunk/2, erl_features).
Term beamfile_chunk_2(Process* p, const Term* a) {
    auto id = char_list_to_utf8(a[1]);
    if (!is_binary(a[0]) || !id || id->size() != 4) return p->badarg();
    std::vector<uint8_t> bytes;
    iolist_to_bytes(a[0], bytes);
    auto file = loader::read_beam_file(bytes);
    if (!file.ok()) return am::undefined;
    const loader::Chunk* c = file.value().find(*id);
    if (!c) return am::undefined;
    uint8_t* data;
    Term bin = make_binary_uninit(*p, c->data.size(), &data);
    std::copy(c->data.begin(), c->data.end(), data);
    return bin;
}

// erts_internal:beamfile_module_md5(Beam): module_info(md5) of the module, or undefined.
Term beamfile_module_md5_1(Process* p, const Term* a) {
    if (!is_binary(a[0])) return p->badarg();
    std::vector<uint8_t> bytes;
    iolist_to_bytes(a[0], bytes);
    auto file = loader::read_beam_file(bytes);
    if (!file.ok() || !file.value().find("Code")) return am::undefined;  // not a module
    Term r = internal_beam_md5_1(p, a);
    return r == am::error ? am::undefined : r;
}

// code:module_status/1: not_loaded, loaded, modified (the file on the path has another md5)
// or removed (no file on the path any more).
Term code_module_status_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->error(am::function_clause);
    ModuleCode* mc = p->ns->current(a[0]);
    if (!mc) return atom("not_loaded");
    if (mc->path.empty()) return atom("loaded");
    std::string path = p->vm->find_on_path(a[0]);
    if (path.empty()) return atom("removed");
    auto bytes = read_bytes(path);
    if (!bytes) return atom("removed");
    auto md5 = loader::beam_md5(*bytes);
    if (!md5.ok()) return atom("modified");
    return std::equal(md5.value().begin(), md5.value().end(), mc->md5) ? atom("loaded") : atom("modified");
}

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
    if (!is_atom(a[0])) return p->error(am::function_clause);
    return make_bool(!p->ns->has_old_code(a[0]) && p->ns->delete_module(a[0]));
}
// code:purge/1: true if a process had to be killed.
Term code_purge_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->error(am::function_clause);
    return make_bool(purge_old_code(p, const_cast<Term*>(a), 1, *p->ns, a[0], PurgeMode::Hard).killed);
}
// code:soft_purge/1: false if a process still uses the old code (which then stays).
Term code_soft_purge_1(Process* p, const Term* a) {
    if (!is_atom(a[0])) return p->error(am::function_clause);
    PurgeResult r = purge_old_code(p, const_cast<Term*>(a), 1, *p->ns, a[0], PurgeMode::Soft);
    return make_bool(!r.had_old || r.purged);
}

Term code_get_path_0(Process* p, const Term*) {
    std::vector<Term> dirs;
    for (const std::string& d : p->vm->code_path()) dirs.push_back(make_string(*p, d));
    return make_list_from(*p, dirs.data(), dirs.size());
}
Term code_add_patha_1(Process* p, const Term* a) {
    auto d = char_list_to_utf8(a[0]);
    if (!d || !std::filesystem::is_directory(*d)) return make_tuple(*p, {am::error, atom("bad_directory")});
    p->vm->add_path_front(*d);
    return am::true_;
}
Term code_add_pathz_1(Process* p, const Term* a) {
    auto d = char_list_to_utf8(a[0]);
    if (!d || !std::filesystem::is_directory(*d)) return make_tuple(*p, {am::error, atom("bad_directory")});
    p->vm->add_path_back(*d);
    return am::true_;
}
// code:del_path/1: a directory, or the name of a library (its .../Name[-Vsn]/ebin entry).
Term code_del_path_1(Process* p, const Term* a) {
    std::string name;
    if (is_atom(a[0])) name = std::string(atom_name(a[0]));
    else if (auto d = char_list_to_utf8(a[0])) name = *d;
    else return make_tuple(*p, {am::error, atom("bad_name")});
    return make_bool(p->vm->del_path(name, is_atom(a[0])));
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

const BifSpec table[] = {
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
    {"code", "del_path", 1, &code_del_path_1},
    {"code", "get_object_code", 1, &code_get_object_code_1},
    {"code", "module_status", 1, &code_module_status_1},
    {"beamvm_internal", "read_beam_file", 1, &internal_read_beam_file_1},
    {"beamvm_internal", "beam_md5", 1, &internal_beam_md5_1},
    {"erts_internal", "beamfile_chunk", 2, &beamfile_chunk_2},
    {"erts_internal", "beamfile_module_md5", 1, &beamfile_module_md5_1},
    {"code", "all_loaded", 0, &code_all_loaded_0},
    {"code", "is_sticky", 1, &code_is_sticky_1},
    {"erlang", "loaded", 0, &loaded_0},
};

}  // namespace

std::span<const BifSpec> code_bifs() { return table; }

}  // namespace beam

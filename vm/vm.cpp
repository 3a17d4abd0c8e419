// Module loading (prepare: parse + transform, then commit) and the code path.
#include "vm/vm.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "loader/transform.hpp"
#include "vm/atom_table.hpp"

namespace beam {

VM::VM() : root_(std::make_unique<Namespace>(this, nullptr, atom("root"))) { procs.set_root(root_.get()); }
VM::~VM() = default;

void VM::add_path_front(const std::string& dir) { code_path_.insert(code_path_.begin(), dir); }
void VM::add_path_back(const std::string& dir) { code_path_.push_back(dir); }

void VM::set_otp_root(const std::string& root) {
    namespace fs = std::filesystem;
    otp_root_ = root;
    std::error_code ec;
    std::vector<std::string> dirs;
    for (const auto& entry : fs::directory_iterator(fs::path(root) / "lib", ec)) {
        fs::path ebin = entry.path() / "ebin";
        if (fs::is_directory(ebin, ec)) dirs.push_back(ebin.string());
    }
    std::sort(dirs.begin(), dirs.end());
    for (auto& d : dirs) code_path_.push_back(d);
}

static Result<std::vector<uint8_t>> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(fmt::format("cannot open {}", path));
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return bytes;
}

// An Erlang string (list of code points) for a UTF-8 file name, in the module's literal area.
static Term string_term(TermAllocator& a, std::string_view utf8) {
    std::vector<uint32_t> cps;
    for (size_t i = 0; i < utf8.size();) {
        unsigned char c = utf8[i];
        uint32_t cp = c;
        size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (len > 1) {
            cp = c & (0xFF >> (len + 1));
            for (size_t k = 1; k < len && i + k < utf8.size(); ++k) cp = (cp << 6) | (utf8[i + k] & 0x3F);
        }
        cps.push_back(cp);
        i += len;
    }
    Term* hp = a.alloc(2 * cps.size());
    Term l = NIL;
    for (size_t i = cps.size(); i-- > 0;) l = cons_at(hp + 2 * i, make_small(cps[i]), l);
    return l;
}

Result<ModuleCode*> VM::load_binary(Namespace& ns, std::span<const uint8_t> bytes, const std::string& origin) {
    std::lock_guard lock(load_mutex_);
    auto mc = std::make_unique<ModuleCode>();
    auto parsed = loader::parse_beam(bytes, mc->literals);
    if (!parsed.ok()) return make_error(fmt::format("{}: {}", origin, parsed.error().message));
    loader::ParsedModule& pm = parsed.value();
    for (const std::string& f : pm.files) mc->files.push_back(string_term(mc->literals, f));
    mc->attributes = pm.attributes;
    mc->compile_info = pm.compile_info;
    std::copy(std::begin(pm.md5), std::end(pm.md5), mc->md5);
    auto t = loader::transform_module(pm, *mc, ns);
    if (!t.ok()) return make_error(fmt::format("{}: module {}: {}", origin, atom_name(pm.name), t.error().message));
    ModuleCode* raw = mc.get();
    raw->path = origin;
    {
        std::unique_lock rl(ranges_mutex_);
        code_ranges_[raw->code.data()] = raw;
    }
    auto c = ns.commit(std::move(mc));
    if (!c.ok()) {
        std::unique_lock rl(ranges_mutex_);
        code_ranges_.erase(raw->code.data());
        return make_error(fmt::format("{}: {}", origin, c.error().message));
    }
    return raw;
}

Result<ModuleCode*> VM::load_file(Namespace& ns, const std::string& path) {
    auto bytes = read_file(path);
    if (!bytes.ok()) return bytes.take_error();
    return load_binary(ns, bytes.value(), path);
}

std::string VM::find_on_path(Term module) {
    std::string file = std::string(atom_name(module)) + ".beam";
    for (const std::string& dir : code_path_) {
        std::filesystem::path path = std::filesystem::path(dir) / file;
        std::error_code ec;
        if (std::filesystem::exists(path, ec)) return path.string();
    }
    return "";
}

Result<ModuleCode*> VM::ensure_loaded(Namespace& ns, Term module) {
    std::lock_guard lock(load_mutex_);
    if (ModuleCode* mc = ns.current(module)) return mc;
    std::string path = find_on_path(module);
    if (path.empty()) return make_error(fmt::format("not found: {}.beam on the code path", atom_name(module)));
    // The code path belongs to the root: every namespace that has no version of its own sees it.
    return load_file(root(), path);
}

ModuleCode* VM::code_at(const Word* pc) {
    std::shared_lock lock(ranges_mutex_);
    auto it = code_ranges_.upper_bound(pc);
    if (it == code_ranges_.begin()) return nullptr;
    --it;
    return it->second->contains(pc) ? it->second : nullptr;
}

}  // namespace beam

// Module loading (prepare: parse + transform, then commit) and the code path.
#include "vm/vm.hpp"

#include "ets/ets_registry.hpp"
#include "vm/gc.hpp"
#include "vm/max_heap_logger.hpp"

#include "bifs/bif.hpp"

#include "scheduler/os_signals.hpp"
#include "scheduler/port_system.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "loader/transform.hpp"
#include "vm/atom_table.hpp"
#include "vm/gc.hpp"

namespace beam {

VM::VM() : ets_tables(std::make_unique<EtsRegistry>()), root_(std::make_unique<Namespace>(this, nullptr, atom("root"))) {
    procs.set_root(root_.get());
    set_gc_hooks({.sysmon_wants = &sysmon_gc_flags,
                  .sysmon_report = &sysmon_after_gc,
                  .trace = &trace_gc,
                  .max_heap_report = &max_heap_report_to_logger});
}
// The namespaces (members declared before root_) leave their parent when freed: they go first.
VM::~VM() {
    // The schedulers stop (halted and joined) before anything they run goes: members are
    // destroyed in reverse order, so root_'s module code would otherwise be freed while a
    // scheduler may still execute it (ThreadSanitizer, tests/unit/runtime_namespaces.cpp).
    // The object stays until the ports' I/O thread, which asks it, has stopped.
    if (scheds) scheds->stop();
    ports.reset();  // stops the I/O thread before the processes it posts to go
    forget_os_signals(this);
    namespaces.clear();
}

void VM::add_path_front(const std::string& dir) {
    std::lock_guard lock(path_mutex_);
    code_path_.insert(code_path_.begin(), dir);
}
void VM::add_path_back(const std::string& dir) {
    std::lock_guard lock(path_mutex_);
    code_path_.push_back(dir);
}
std::vector<std::string> VM::code_path() {
    std::lock_guard lock(path_mutex_);
    return code_path_;
}

void VM::set_boot_dir(const std::string& dir) {
    add_path_back(dir);
    std::lock_guard lock(path_mutex_);
    boot_dir_ = dir;
}

std::vector<std::string> VM::pre_loaded() {
    std::vector<std::string> dirs;
    {
        std::lock_guard lock(path_mutex_);
        dirs.push_back(boot_dir_);
        if (otp_boot) dirs.push_back(erts_ebin_);
    }
    std::vector<std::string> out;
    for (const std::string& dir : dirs) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            if (entry.path().extension() != ".beam") continue;
            std::string m = entry.path().stem().string();
            // beamvm's own init stands in for OTP's only when OTP is not booted.
            if (otp_boot && dir == boot_dir_ && m == "init") continue;
            out.push_back(m);
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// A file of erts' ebin in the OTP installation: one of the modules erl has preloaded.
bool VM::is_otp_preloaded(const std::string& path) const {
    namespace fs = std::filesystem;
    if (otp_root_.empty()) return false;
    fs::path ebin = fs::path(path).parent_path();
    fs::path app = ebin.parent_path();
    return ebin.filename() == "ebin" && app.filename().string().starts_with("erts-") &&
           app.parent_path() == fs::path(otp_root_) / "lib";
}

void VM::set_otp_root(const std::string& root) {
    namespace fs = std::filesystem;
    otp_root_ = root;
    std::error_code ec;
    std::vector<std::string> dirs;
    std::lock_guard lock(path_mutex_);
    // As OTP's code_server: an application's ebin directory, or the application directory
    // itself when it has none (Debian's erlang-dev installs eunit-*/include alone, and
    // -include_lib("eunit/include/eunit.hrl") finds it through code:lib_dir(eunit)).
    for (const auto& entry : fs::directory_iterator(fs::path(root) / "lib", ec)) {
        fs::path ebin = entry.path() / "ebin";
        if (fs::is_directory(ebin, ec)) {
            if (entry.path().filename().string().starts_with("erts-")) erts_ebin_ = ebin.string();
            dirs.push_back(ebin.string());
        } else if (entry.is_directory(ec)) {
            dirs.push_back(entry.path().string());
        }
    }
    std::sort(dirs.begin(), dirs.end());
    if (otp_boot) {
        // Booted OTP: the VM itself loads only the preloaded modules, erts' before beamvm's
        // own (OTP's init, not beamvm's); code_server has the code path.
        code_path_.clear();
        if (!erts_ebin_.empty()) code_path_.push_back(erts_ebin_);
        code_path_.push_back(boot_dir_);
        return;
    }
    for (auto& d : dirs) code_path_.push_back(d);
}

bool VM::del_path(const std::string& name, bool by_name) {
    namespace fs = std::filesystem;
    std::lock_guard lock(path_mutex_);
    for (auto it = code_path_.begin(); it != code_path_.end(); ++it) {
        fs::path dir(*it);
        bool match = false;
        if (by_name) {
            std::string lib = dir.filename() == "ebin" ? dir.parent_path().filename().string()
                                                       : dir.filename().string();
            match = lib == name || lib.starts_with(name + "-");
        } else {
            match = fs::path(*it).lexically_normal() == fs::path(name).lexically_normal();
        }
        if (match) {
            code_path_.erase(it);
            return true;
        }
    }
    return false;
}

// Sized once from the file's length: growing the vector byte by byte (istreambuf_iterator)
// left freed blocks of every power of two behind, resident until the allocator reuses them
// (docs/benchmarks.md, "Issue 11: quick start-up").
static Result<std::vector<uint8_t>> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return make_error(fmt::format("cannot open {}", path));
    std::streamoff size = in.tellg();
    if (size < 0) return make_error(fmt::format("cannot read {}", path));
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) return make_error(fmt::format("cannot read {}", path));
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

Result<std::unique_ptr<ModuleCode>> VM::prepare(Namespace& ns, std::span<const uint8_t> bytes,
                                                const std::string& origin) {
    auto mc = std::make_unique<ModuleCode>();
    auto parsed = loader::parse_beam(bytes, mc->literals, is_otp_preloaded(origin));
    if (!parsed.ok()) return make_error(fmt::format("{}: {}", origin, parsed.error().message));
    loader::ParsedModule& pm = parsed.value();
    for (const std::string& f : pm.files) mc->files.push_back(string_term(mc->literals, f));
    mc->attributes = pm.attributes;
    mc->compile_info = pm.compile_info;
    std::copy(std::begin(pm.md5), std::end(pm.md5), mc->md5);
    auto t = loader::transform_module(pm, *mc, ns);
    if (!t.ok()) return make_error(fmt::format("{}: module {}: {}", origin, atom_name(pm.name), t.error().message));
    mc->path = origin;
    // A NIF module without an on_load function (OTP's preloaded zlib, prim_file, ...: erts
    // calls their on_load/0 at boot) has its natives from the start, so a later
    // erlang:load_nif/2 from it is a reload, as on erl. Booting OTP, erl_init makes those
    // on_load/0 calls itself, as erts.
    mc->nifs_loaded = !otp_boot && !mc->on_load && has_natives(mc->name);
    std::unique_lock rl(ranges_mutex_);
    code_ranges_[mc->code.data()] = mc.get();
    return mc;
}

Result<ModuleCode*> VM::load_binary(Namespace& ns, std::span<const uint8_t> bytes, const std::string& origin) {
    auto prepared = prepare(ns, bytes, origin);
    if (!prepared.ok()) return prepared.take_error();
    std::unique_ptr<ModuleCode> mc = std::move(prepared.value());
    ModuleCode* raw = mc.get();
    Term module = raw->name;
    if (raw->on_load) {
        // Only erlang:finish_loading/1 leaves a version waiting for its on_load function; the
        // caller runs it in a process of its own (vm/erlang/beamvm_code.erl).
        retire_code(std::move(mc), false);
        return make_error(fmt::format("{}: module {}: on_load", origin, atom_name(module)));
    }
    if (ns.commit(mc) == Namespace::Commit::Loaded) return raw;
    retire_code(std::move(mc), false);
    return make_error(fmt::format("{}: module {} has old code that must be purged first", origin, atom_name(module)));
}

Result<ModuleCode*> VM::load_file(Namespace& ns, const std::string& path) {
    auto bytes = read_file(path);
    if (!bytes.ok()) return bytes.take_error();
    return load_binary(ns, bytes.value(), absname(path));
}

std::string VM::absname(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    if (ec) return path;
    // As OTP's filename:absname: "." parts go, ".." parts stay (links make them meaningful).
    fs::path out;
    for (const fs::path& part : abs)
        if (part != ".") out /= part;
    return out.string();
}

std::string VM::find_on_path(Term module) {
    std::string file = std::string(atom_name(module)) + ".beam";
    // A NUL in the name (an atom may hold one) would end the file name the OS sees: '\0ists'
    // named the code path directory itself, which read_file then tried to read (aborted on
    // a size of 2^63; found by tests/dist/hostile_peer.sh through a SPAWN_REQUEST). erl:
    // no such file, undef.
    if (file.find('\0') != std::string::npos) return "";
    for (const std::string& dir : code_path()) {
        std::filesystem::path path = std::filesystem::path(dir) / file;
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) return path.string();
    }
    return "";
}

Result<ModuleCode*> VM::ensure_loaded(Namespace& ns, Term module, bool wait) {
    // The code path belongs to the root: every namespace that has no version of its own sees
    // what is loaded from it, so that is where it goes (and one load serves every namespace).
    std::pair<Namespace*, Term> key{&root(), module};
    {
        std::unique_lock lock(autoload_mutex_);
        for (;;) {
            if (ModuleCode* mc = ns.current(module)) return mc;
            if (std::find(autoloading_.begin(), autoloading_.end(), key) == autoloading_.end()) break;
            if (!wait) return make_error(std::string(AUTOLOAD_BUSY));
            autoload_done_.wait(lock);
        }
        autoloading_.push_back(key);
    }
    std::string path = find_on_path(module);
    auto r = path.empty() ? make_error(fmt::format("not found: {}.beam on the code path", atom_name(module)))
                          : load_file(root(), path);
    {
        std::lock_guard lock(autoload_mutex_);
        autoloading_.erase(std::find(autoloading_.begin(), autoloading_.end(), key));
    }
    autoload_done_.notify_all();
    return r;
}

ModuleCode* VM::code_at(const Word* pc) {
    std::shared_lock lock(ranges_mutex_);
    auto it = code_ranges_.upper_bound(pc);
    if (it == code_ranges_.begin()) return nullptr;
    --it;
    return it->second->contains(pc) ? it->second : nullptr;
}

void VM::retire_code(std::unique_ptr<ModuleCode> code, bool keep) {
    if (!code) return;
    if (keep) {
        std::lock_guard lock(load_mutex_);
        kept_.push_back(std::move(code));
        return;
    }
    std::unique_lock lock(ranges_mutex_);
    code_ranges_.erase(code->code.data());
    lock.unlock();
    code.reset();
}

void VM::detach_funs(ModuleCode& code) {
    std::lock_guard lock(load_mutex_);
    for (auto& fe : code.funs) {
        if (!fe) continue;
        fe->detached = true;
        fe->function = NIL;  // fun_info(F, name) of a fun of purged code, as OTP
        fe->code = nullptr;
        fe->address = nullptr;
        detached_funs_.push_back(std::move(fe));
    }
}

size_t VM::code_versions() {
    std::shared_lock lock(ranges_mutex_);
    return code_ranges_.size();
}

size_t VM::code_words() {
    std::shared_lock lock(ranges_mutex_);
    size_t n = 0;
    for (auto& [start, mc] : code_ranges_) n += mc->code.size() + mc->literals.used_words();
    return n;
}

}  // namespace beam

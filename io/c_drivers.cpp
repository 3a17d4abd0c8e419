// Loadable C port drivers (io/c_drivers.hpp).
#include "io/c_drivers.hpp"

#include <dlfcn.h>
#include <erl_driver.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "scheduler/port_system.hpp"
#include "scheduler/ports.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/heap.hpp"

namespace beam {

namespace {

// Loaded drivers by name. A driver stays loaded for the life of the VM (erl_ddll:try_unload
// finds nothing to unload), so its entry and code never go away under a port.
struct LoadedDriver {
    void* handle = nullptr;
    ErlDrvEntry* entry = nullptr;
};
std::mutex& drivers_mutex() {
    static std::mutex m;
    return m;
}
std::map<std::string, LoadedDriver, std::less<>>& drivers() {
    static auto* d = new std::map<std::string, LoadedDriver, std::less<>>;
    return *d;
}

ErlDrvEntry* entry_named(std::string_view name) {
    std::lock_guard lock(drivers_mutex());
    auto it = drivers().find(name);
    return it == drivers().end() ? nullptr : it->second.entry;
}

// One port of a loaded driver. The ErlDrvPort the driver is given is this object: every call
// into the driver is made with the port's lock held (scheduler/port_driver.hpp), so its
// driver_output calls, made from inside those calls, find `port_` valid.
class CDriverPort final : public PortDriver {
public:
    CDriverPort(ErlDrvEntry* entry, std::string command) : entry_(entry), command_(std::move(command)) {}

    void configure(const PortSettings& s) override { binary_ = s.binary; }

    void attach(const DriverPort& port) override {
        port_ = &port;
        // The command line as the driver's start gets it, writable as in erts.
        std::vector<char> cmd(command_.begin(), command_.end());
        cmd.push_back('\0');
        ErlDrvData d = entry_->start(handle(), cmd.data());
        // A start that fails closes the port at once (erts' open_port raises instead: beamvm's
        // port system has created the port by now).
        if (d == ERL_DRV_ERROR_GENERAL || d == ERL_DRV_ERROR_ERRNO || d == ERL_DRV_ERROR_BADARG) {
            started_ = false;
            port.exit(am::badarg);
            return;
        }
        data_ = d;
        started_ = true;
    }

    std::optional<std::string> control(Term, unsigned op, std::string_view bytes) override {
        if (!started_ || !entry_->control) return std::nullopt;
        std::vector<char> in(bytes.begin(), bytes.end());
        char small[64];
        char* reply = small;
        ErlDrvSSizeT n = entry_->control(data_, op, in.data(), in.size(), &reply, sizeof small);
        if (n < 0) return std::nullopt;
        std::string out(reply, size_t(n));
        // A reply the driver allocated itself (driver_alloc) cannot be freed here: beamvm
        // exports no driver_alloc, so a driver that uses it was refused at load.
        return out;
    }

    void output(Term, std::string_view bytes) override {
        if (!started_) return;
        std::vector<char> buf(bytes.begin(), bytes.end());
        if (entry_->output) entry_->output(data_, buf.data(), buf.size());
    }

    void on_io(IoHandle, uint32_t) override {}

    void stop() override {
        if (started_ && entry_->stop) entry_->stop(data_);
        started_ = false;
    }

    // driver_output: {Port, {data, Bytes}} to the connected process, a binary with the
    // port's `binary` option, else a list.
    void deliver(const char* buf, size_t len) {
        if (!port_) return;
        LiteralArea scratch;
        const auto* bytes = reinterpret_cast<const uint8_t*>(buf);
        Term data = binary_ ? make_binary(scratch, bytes, len) : make_byte_list(scratch, bytes, len);
        port_->send(port_->owner(), make_tuple(scratch, {port_->id(), make_tuple(scratch, {atom("data"), data})}));
    }

    ErlDrvPort handle() { return reinterpret_cast<ErlDrvPort>(this); }
    static CDriverPort* of(ErlDrvPort p) { return reinterpret_cast<CDriverPort*>(p); }

private:
    ErlDrvEntry* entry_;
    std::string command_;
    const DriverPort* port_ = nullptr;
    ErlDrvData data_ = nullptr;
    bool started_ = false;
    bool binary_ = false;  // open_port's `binary` option: data as a binary, else a list
};

std::unique_ptr<PortDriver> make_c_driver(std::string_view command) {
    ErlDrvEntry* e = entry_named(command.substr(0, command.find(' ')));
    if (!e) return nullptr;
    return std::make_unique<CDriverPort>(e, std::string(command));
}

}  // namespace

std::optional<std::string> load_c_driver(const std::string& dir, const std::string& name, bool& already) {
    std::lock_guard lock(drivers_mutex());
    already = drivers().contains(name);
    if (already) return std::nullopt;
    std::string path = dir.empty() ? name + ".so" : dir + "/" + name + ".so";
    // RTLD_NOW: a driver that needs a driver_* function beamvm does not have fails here, with
    // the symbol's name, rather than when it first calls it.
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) return std::string(dlerror());
    using Init = ErlDrvEntry* (*)();
    auto init = reinterpret_cast<Init>(dlsym(h, "driver_init"));
    ErlDrvEntry* e = init ? init() : nullptr;
    std::string err;
    if (!e) err = "no driver_init in " + path;
    else if (e->extended_marker != ERL_DRV_EXTENDED_MARKER || e->major_version != ERL_DRV_EXTENDED_MAJOR_VERSION)
        err = "driver " + name + " is not of the erl_driver API version 3";
    else if (!e->driver_name || name != e->driver_name)
        err = "driver " + name + " names itself " + (e->driver_name ? e->driver_name : "nothing");
    else if (!e->start)
        err = "driver " + name + " has no start callback";
    else if (e->init && e->init() != 0)
        err = "driver " + name + ": its init failed";
    if (!err.empty()) {
        dlclose(h);
        return err;
    }
    drivers()[name] = LoadedDriver{h, e};
    return std::nullopt;
}

PortDriverFactory find_c_driver(std::string_view command) {
    return entry_named(command.substr(0, command.find(' '))) ? &make_c_driver : nullptr;
}

std::vector<std::string> loaded_c_drivers() {
    std::lock_guard lock(drivers_mutex());
    std::vector<std::string> names;
    for (const auto& [name, d] : drivers()) names.push_back(name);
    return names;
}

}  // namespace beam

extern "C" int driver_output(ErlDrvPort port, char* buf, ErlDrvSizeT len) {
    beam::CDriverPort::of(port)->deliver(buf, len);
    return 0;
}

// erl_driver.h's errno name ("enoent", "unknown" for a number without one), which NIF libraries
// call too (Debian's bitcask.so reports file errors with it). The text is an atom's, which
// lives as long as the program.
extern "C" char* erl_errno_id(int error) {
    std::string_view name = beam::atom_name(beam::posix_error_atom(error));
    return const_cast<char*>(name.data());
}

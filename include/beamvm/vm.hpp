// beamvm as a library: a virtual machine for .beam files compiled by OTP 25's erlc, inside a
// host program. docs/embedding.md is the guide; this header is the reference.
//
//     beamvm::VM vm({.schedulers = 2, .code_path = {"ebin"}});
//     beamvm::Value r = vm.call("lists", "seq", {1, 5});   // [1,2,3,4,5]
//
// A VM owns its scheduler threads, processes, code and namespaces; several VMs can live in
// one host process, each with its own. Every member function is safe to call from any host
// thread (not from inside a host function: there, use HostCall). Terms cross as beamvm::Value
// (beamvm/value.hpp), which never points into the VM.
//
// Errors: what Erlang raises reaches the host as beamvm::Exception (class, reason and
// stacktrace as Values); what the host got wrong (a module that is not a .beam file, a
// namespace that does not exist, a VM that has halted) is beamvm::Error.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "beamvm/value.hpp"

namespace beamvm {

// An Erlang exception that reached the host: error:badarg, throw:x, exit:normal, ...
class Exception : public std::runtime_error {
public:
    Exception(Value kind, Value reason, Value stacktrace);
    const Value& kind() const { return kind_; }  // the atom error, exit or throw
    const Value& reason() const { return reason_; }
    const Value& stacktrace() const { return stacktrace_; }

private:
    Value kind_, reason_, stacktrace_;
};

// A misuse or a refusal the host can act on; what() says which and why.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A call that did not finish in time (its process was killed).
class Timeout : public Error {
public:
    using Error::Error;
};

// What a host function gets besides its arguments.
class HostCall {
public:
    virtual ~HostCall() = default;
    // The calling process.
    virtual Value self() const = 0;
    // Charges the calling process `percent` of a time slice (1..100), as erl_nif's
    // enif_consume_timeslice: long host work lets other processes run. Every call is
    // charged one reduction anyway. True when the slice is used up.
    virtual bool consume_timeslice(int percent) = 0;
    // Sends `message` to `to` (a pid or a registered name's atom) from the calling process.
    virtual void send(const Value& to, const Value& message) = 0;
};

// Thrown by a host function: the Erlang caller gets error:reason (a host function raises only
// errors, as a NIF does). Any other C++ exception becomes error:{host_exception, What}.
class HostError : public std::runtime_error {
public:
    explicit HostError(Value reason);
    const Value& reason() const { return reason_; }

private:
    Value reason_;
};

// A native function callable from Erlang as Module:Function/Arity. It runs on the calling
// process's scheduler (or on a dirty scheduler when `dirty`, for work of more than a
// millisecond), may be called from several schedulers at once, and must not call back into
// the VM object; it answers with a Value or throws HostError.
struct HostFunction {
    std::string module;
    std::string function;
    unsigned arity = 0;
    std::function<Value(HostCall&, std::span<const Value>)> fn;
    bool dirty = false;
};

// What a namespace's processes may do (docs/namespaces.md, "Sandbox"). Capabilities: file,
// port, network, os_cmd, code_load, halt. A refused call raises error:{capability_denied, Cap}.
struct Policy {
    std::vector<std::string> allow;  // when non-empty, only these
    std::vector<std::string> deny;   // taken away from what `allow` (or everything) gives
    uint64_t max_processes = 0;      // 0: no limit; spawning beyond raises error:{sandbox_limit, processes}
    uint64_t max_heap_words = 0;     // 0: no limit; a process beyond it is killed, as max_heap_size
    uint64_t max_atoms = 0;          // 0: no limit; new atoms beyond it raise error:{sandbox_limit, atoms}
};

// A namespace of one VM: its own modules (shadowing the root's) and registered names, and a
// policy. Obtained from VM::new_namespace; a default-constructed one is the root.
class Namespace {
public:
    Namespace() = default;
    const std::string& name() const { return name_; }
    bool is_root() const { return term_.kind() == Value::Kind::Nil; }
    const Value& term() const { return term_; }  // {beamvm_namespace, Id, Name}; [] for the root

private:
    std::string name_ = "root";
    Value term_;
    friend class VM;
};

struct CallOptions {
    Namespace ns;  // where the call runs (its code, its policy)
    std::chrono::milliseconds timeout{std::chrono::milliseconds::max()};
};

struct Options {
    int schedulers = 1;
    // Directories searched, in order, for Module.beam when a module is first called; OTP's
    // library (otp_root/lib/*/ebin) comes after them.
    std::vector<std::string> code_path;
    std::string otp_root;  // empty: $BEAMVM_OTP_ROOT, else /usr/lib/erlang
    // Boot OTP as erl does (OTP's init, a boot script, kernel and stdlib running, code_server
    // owning the code path), instead of beamvm's quick start-up, where OTP's modules are loaded
    // on their first call and no application runs. The constructor returns once init reports
    // the boot done. `boot_args` are more of erl's flags for init (-config File,
    // -kernel Key Value, -boot File, ...); -noshell and -noinput are always given. When OTP is
    // booted, kernel's `user` writes to the process's stdout itself: on_stdout sees only
    // erlang:display/1, and crash reports go to OTP's logger.
    bool boot_otp = false;
    std::vector<std::string> boot_args;
    // Where the VM's standard output and standard error go (io:format, erlang:display):
    // the host's stdout/stderr when not set. Called from scheduler threads.
    std::function<void(std::string_view)> on_stdout;
    std::function<void(std::string_view)> on_stderr;
    // The VM's own reports, such as a process's crash report ("=ERROR REPORT====\nError in
    // process <0.90.0> with exit value:..."), with their level ("error"): to on_stderr when
    // not set. Called from scheduler threads.
    std::function<void(std::string_view level, std::string_view text)> on_log;
    std::vector<HostFunction> host_functions;
};

// A host mailbox: a process of the VM whose messages the host takes out.
class Mailbox {
public:
    ~Mailbox();
    Mailbox(const Mailbox&) = delete;
    Mailbox& operator=(const Mailbox&) = delete;
    const Value& pid() const { return pid_; }
    // The oldest message, waiting up to `timeout`; nullopt if none came.
    std::optional<Value> receive(std::chrono::milliseconds timeout = std::chrono::milliseconds::max());

    struct State;  // the library's

private:
    Mailbox(std::shared_ptr<State> state, Value pid);
    std::shared_ptr<State> state_;
    Value pid_;
    friend class VM;
};

class VM {
public:
    // Starts the schedulers. Throws Error when an option is wrong (a host function declared
    // twice, a bad scheduler count, no OTP installation).
    explicit VM(Options options = {});
    ~VM();  // shutdown()
    VM(const VM&) = delete;
    VM& operator=(const VM&) = delete;

    // Stops every process and the schedulers. Afterwards every call throws Error.
    void shutdown();
    // The status erlang:halt/1 was called with, once Erlang code has halted the VM.
    std::optional<int> halted() const;

    // Loads a module (a .beam file's bytes, or its path) into `ns`, as code:load_binary/3:
    // a version already there becomes old code and keeps running in the processes that are
    // in it; an older version still left is purged first (its processes are killed). Returns
    // the module's name. Throws Error with the loader's reason for a malformed file.
    std::string load_module(std::span<const uint8_t> beam, const Namespace& ns = {});
    std::string load_module_file(const std::string& path, const Namespace& ns = {});

    // Calls Module:Function(Args...) in a new process and waits for its result. Throws
    // Exception when the call raises, Timeout when it takes longer than `options.timeout`.
    Value call(std::string_view module, std::string_view function, std::vector<Value> args = {},
               const CallOptions& options = {});

    // Spawns Module:Function(Args...); returns its pid.
    Value spawn(std::string_view module, std::string_view function, std::vector<Value> args = {},
                const Namespace& ns = {});
    // Sends `message` to a pid or to a registered name (an atom, in the root namespace).
    // As in Erlang, sending to a process that is gone is not an error.
    void send(const Value& to, const Value& message);
    // A new host mailbox in the root namespace; processes send to its pid().
    std::unique_ptr<Mailbox> open_mailbox();

    // A new namespace whose processes run with `policy`. Names are for reading only.
    Namespace new_namespace(std::string_view name, const Policy& policy = {});

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace beamvm

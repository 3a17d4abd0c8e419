// beamvm::VM (include/beamvm/vm.hpp): a beam::VM run for a host program.
//
// Everything the host asks for that runs Erlang code (a call, a load, a spawn, a new
// namespace) is one primitive: a process of the root started by the host thread that runs
// beamvm_host:call/6 (vm/erlang/beamvm_host.erl) and hands its result to a host queue
// (embed/host_bridge.hpp). The call itself runs in a second process, in the namespace asked
// for, so its policy applies and a crash or kill of it is reported, not lost.
#include <atomic>
#include <filesystem>
#include <thread>

#include "beamvm/vm.hpp"
#include "embed/boot_modules.hpp"
#include "embed/host_bridge.hpp"
#include "scheduler/signals.hpp"
#include "vm/otp_start.hpp"
#include "vm/runner.hpp"

namespace beamvm {

using beam::Term;

Exception::Exception(Value kind, Value reason, Value stacktrace)
    : std::runtime_error(kind.to_string() + ":" + reason.to_string()),
      kind_(std::move(kind)),
      reason_(std::move(reason)),
      stacktrace_(std::move(stacktrace)) {}

HostError::HostError(Value reason) : std::runtime_error("host error: " + reason.to_string()), reason_(std::move(reason)) {}

namespace {

std::string find_otp_root(const std::string& given) {
    namespace fs = std::filesystem;
    std::string root = given;
    if (root.empty()) {
        const char* env = std::getenv("BEAMVM_OTP_ROOT");
        root = env ? env : "/usr/lib/erlang";
    }
    std::error_code ec;
    if (!fs::is_directory(fs::path(root) / "lib", ec))
        throw Error("beamvm: no OTP installation at " + root + " (Options::otp_root, BEAMVM_OTP_ROOT)");
    return root;
}

Value timeout_value(std::chrono::milliseconds t) {
    if (t == std::chrono::milliseconds::max()) return atom("infinity");
    return Value::integer(std::max<int64_t>(0, t.count()));
}

}  // namespace

struct Mailbox::State {
    std::atomic<VM::Impl*> impl{nullptr};  // null once the VM is shut down
    uint64_t id = 0;
    std::shared_ptr<HostQueue> queue;
};

struct VM::Impl {
    beam::VM vm;
    HostBridge bridge{vm};
    Term user = beam::NIL;
    std::mutex stop_mutex;  // guards stopped and mailboxes
    bool stopped = false;
    std::vector<std::weak_ptr<Mailbox::State>> mailboxes;  // told when the VM shuts down

    explicit Impl(Options& o) {
        if (o.schedulers < 1 || o.schedulers > 1024) throw Error("beamvm: schedulers must be 1..1024");
        bridge.add_functions(o.host_functions);
        bridge.set_output(std::move(o.on_stdout), std::move(o.on_stderr), std::move(o.on_log));
        vm.host = &bridge;
        vm.otp_boot = o.boot_otp;  // before anything is loaded
        std::string otp_root = find_otp_root(o.otp_root);
        if (!o.boot_otp)
            for (const std::string& d : o.code_path) vm.add_path_back(d);
        vm.set_otp_root(otp_root);
        for (size_t i = 0; i < boot_module_count; ++i) {
            const BootModule& m = boot_modules[i];
            if (o.boot_otp && std::string_view(m.name) == "init") continue;  // OTP's own init boots
            auto r = vm.load_binary(vm.root(), std::span(m.bytes, m.size), std::string("beamvm:boot/") + m.name + ".beam");
            if (!r.ok()) throw Error("beamvm: loading the start-up module " + std::string(m.name) + ": " + r.error().message);
        }
        if (o.boot_otp) {
            if (auto r = beam::load_otp_preloaded(vm); !r.ok()) throw Error("beamvm: " + r.error().message);
        }
        vm.dirty_cpu_schedulers = o.schedulers;
        vm.dirty_io_schedulers = 2;
        vm.start(o.schedulers);
        try {
            if (o.boot_otp) {
                boot_otp(o);
                return;
            }
            user = beam::start_io_servers(vm);
            // What beamvm's quick start-up does before the command line's commands: the file
            // server, started on its first request (vm/erlang/init.erl).
            call(Value(), atom("init"), atom("do_boot"), {Value::nil(), atom("noshell"), Value::nil()},
                 std::chrono::milliseconds::max());
        } catch (...) {
            // No destructor runs for a half-made Impl: stop the schedulers before the members go.
            shutdown();
            vm.host = nullptr;
            throw;
        }
    }

    // OTP's init as erl starts it; returns when init:get_status/0 says it has started.
    void boot_otp(const Options& o) {
        std::vector<std::string> user_args = {"-noshell", "-noinput"};
        if (!o.code_path.empty()) {
            user_args.push_back("-pa");
            user_args.insert(user_args.end(), o.code_path.begin(), o.code_path.end());
        }
        user_args.insert(user_args.end(), o.boot_args.begin(), o.boot_args.end());
        std::vector<std::string> args = beam::otp_init_arguments(vm, "erl", user_args);
        beam::Process* init = vm.new_process(vm.root(), 0, beam::NIL);
        beam::setup_otp_init(vm, init);
        beam::LiteralArea scratch;
        vm.setup_call(init, beam::atom("erl_init"), beam::atom("start"), beam::erl_init_start_args(scratch, args));
        vm.start_process(init);
        beam::ProcessTable::release(init);
        user = vm.init_pid;  // the group leader of the host's processes until kernel's user is up
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        for (;;) {
            Value status;
            try {
                status = call(Value(), atom("init"), atom("get_status"), {}, std::chrono::milliseconds::max());
            } catch (const std::exception& e) {
                throw Error(std::string("beamvm: booting OTP failed: ") + e.what());
            }
            if (status.is_tuple() && status.size() == 2 && status[0].is_atom("started")) break;
            if (std::chrono::steady_clock::now() > deadline) {
                throw Error("beamvm: booting OTP took more than 120 s (init:get_status() = " + status.to_string() + ")");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        Term u = vm.procs.whereis(&vm.root(), beam::atom("user"));
        if (beam::is_pid(u)) user = u;
    }

    // The bridge goes before the VM (members in reverse): nothing may reach it after this.
    ~Impl() {
        shutdown();
        vm.host = nullptr;
    }

    void check_running() {
        std::lock_guard lock(stop_mutex);
        if (stopped) throw Error("beamvm: the VM was shut down");
        if (vm.scheds->halting()) throw Error("beamvm: the VM has halted");
    }

    // Starts beamvm_host:Function(Queue, Args...) in the root with a new queue as its own.
    std::pair<uint64_t, std::shared_ptr<HostQueue>> start_host_process(const char* function, std::vector<Value> args) {
        check_running();
        auto [id, queue] = bridge.open_queue();
        args.insert(args.begin(), Value::integer(int64_t(id)));
        beam::LiteralArea scratch;
        Term arg_list;
        try {
            arg_list = from_value(vm, scratch, Value::list(std::move(args)));
        } catch (...) {
            bridge.close_queue(id);
            throw;
        }
        beam::Process* p = vm.new_process(vm.root(), 0, user);
        vm.setup_call(p, beam::atom("beamvm_host"), beam::atom(function), arg_list);
        bridge.set_owner(id, p->pid);
        vm.start_process(p);
        beam::ProcessTable::release(p);
        return {id, queue};
    }

    // One answer from a host process, then its queue is closed.
    Value answer(uint64_t id, HostQueue& q) {
        struct Closer {
            HostBridge& b;
            uint64_t id;
            ~Closer() { b.close_queue(id); }
        } closer{bridge, id};
        auto v = bridge.take(q, std::chrono::steady_clock::time_point::max());
        return *v;
    }

    // M:F(Args) in `ns`, by beamvm_host:call/6; the result, or what it raised as Exception.
    Value call(const Value& ns, const Value& m, const Value& f, std::vector<Value> args, std::chrono::milliseconds timeout) {
        Value where = ns.kind() == Value::Kind::Nil ? atom("root") : ns;
        auto [id, q] = start_host_process("call", {where, m, f, Value::list(std::move(args)), timeout_value(timeout)});
        Value r = answer(id, *q);
        if (r.is_atom("timeout")) throw Timeout("beamvm: " + m.to_string() + ":" + f.to_string() + " did not return in time");
        if (r.is_tuple() && r.size() == 2 && r[0].is_atom("ok")) return r[1];
        if (r.is_tuple() && r.size() == 3) throw Exception(r[0], r[1], r[2]);
        throw Error("beamvm: unexpected answer " + r.to_string());
    }

    void shutdown() {
        {
            std::lock_guard lock(stop_mutex);
            if (stopped) return;
            stopped = true;
            for (auto& w : mailboxes)
                if (auto m = w.lock()) m->impl = nullptr;
        }
        bridge.close_all();
        vm.scheds->halt(0);
        vm.scheds->run_until_done();
        vm.timers.stop();
    }
};

// ---- Mailbox ----

Mailbox::Mailbox(std::shared_ptr<State> state, Value pid) : state_(std::move(state)), pid_(std::move(pid)) {}

Mailbox::~Mailbox() {
    VM::Impl* impl = state_->impl;
    if (!impl) return;
    std::lock_guard lock(impl->stop_mutex);
    if (impl->stopped) return;
    impl->bridge.close_queue(state_->id);
    beam::LiteralArea scratch;
    Term pid = from_value(impl->vm, scratch, pid_);
    beam::send_exit_signal(impl->vm, pid, pid, beam::atom("kill"), false);  // as exit(self(), kill)
}

std::optional<Value> Mailbox::receive(std::chrono::milliseconds timeout) {
    VM::Impl* impl = state_->impl;
    if (!impl) throw Error("beamvm: the VM was shut down");
    auto deadline = timeout == std::chrono::milliseconds::max() ? std::chrono::steady_clock::time_point::max()
                                                                : std::chrono::steady_clock::now() + timeout;
    return impl->bridge.take(*state_->queue, deadline);
}

// ---- VM ----

VM::VM(Options options) : impl_(std::make_unique<Impl>(options)) {}

VM::~VM() { shutdown(); }

void VM::shutdown() {
    if (impl_) impl_->shutdown();
}

std::optional<int> VM::halted() const {
    if (!impl_->vm.scheds->halting()) return std::nullopt;
    std::lock_guard lock(impl_->stop_mutex);
    if (impl_->stopped) return std::nullopt;
    return impl_->vm.scheds->halt_status();
}

std::string VM::load_module(std::span<const uint8_t> beam, const Namespace& ns) {
    impl_->check_running();
    // The loader's own reasons for a malformed file are better than badfile: check it here
    // first, in a version nothing can reach (thrown away at once).
    auto prepared = impl_->vm.prepare(impl_->vm.root(), beam, "host");
    if (!prepared.ok()) throw Error("beamvm: cannot load: " + prepared.error().message);
    std::string name(beam::atom_name(prepared.value()->name));
    impl_->vm.retire_code(std::move(prepared.value()), false);
    Value target = ns.is_root() ? atom("root") : ns.term();
    Value r = impl_->call(Value(), atom("beamvm_host"), atom("load"),
                          {target, Value::string(name + ".beam"), Value::binary(beam)}, std::chrono::milliseconds::max());
    if (r.is_tuple() && r.size() == 2 && r[0].is_atom("ok")) return r[1].atom_name();
    throw Error("beamvm: cannot load " + name + ": " + r.to_string());
}

std::string VM::load_module_file(const std::string& path, const Namespace& ns) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw Error("beamvm: cannot read " + path);
    std::vector<uint8_t> bytes;
    uint8_t buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.insert(bytes.end(), buf, buf + n);
    std::fclose(f);
    return load_module(bytes, ns);
}

Value VM::call(std::string_view module, std::string_view function, std::vector<Value> args, const CallOptions& options) {
    return impl_->call(options.ns.term(), atom(module), atom(function), std::move(args), options.timeout);
}

Value VM::spawn(std::string_view module, std::string_view function, std::vector<Value> args, const Namespace& ns) {
    if (ns.is_root())
        return impl_->call(Value(), atom("erlang"), atom("spawn"), {atom(module), atom(function), Value::list(std::move(args))},
                           std::chrono::milliseconds::max());
    return impl_->call(Value(), atom("beamvm"), atom("namespace_spawn"),
                       {ns.term(), atom(module), atom(function), Value::list(std::move(args))}, std::chrono::milliseconds::max());
}

void VM::send(const Value& to, const Value& message) {
    impl_->check_running();
    beam::LiteralArea scratch;
    Term dest = from_value(impl_->vm, scratch, to);
    if (beam::is_atom(dest)) {
        dest = impl_->vm.procs.whereis(&impl_->vm.root(), dest);
        if (!beam::is_pid(dest)) throw Error("beamvm: send to " + to.to_string() + ": no process has that name");
    } else if (!beam::is_pid(dest)) {
        throw Error("beamvm: send to " + to.to_string() + ": not a pid or a name");
    }
    beam::post_message(impl_->vm, dest, from_value(impl_->vm, scratch, message));
}

std::unique_ptr<Mailbox> VM::open_mailbox() {
    auto [id, queue] = impl_->start_host_process("mailbox", {});
    Value pid = to_value(impl_->vm, queue->owner);
    auto state = std::make_shared<Mailbox::State>();
    state->impl = impl_.get();
    state->id = id;
    state->queue = queue;
    {
        std::lock_guard lock(impl_->stop_mutex);
        impl_->mailboxes.push_back(state);
    }
    return std::unique_ptr<Mailbox>(new Mailbox(std::move(state), std::move(pid)));
}

Namespace VM::new_namespace(std::string_view name, const Policy& policy) {
    std::vector<Value> opts;
    auto caps = [](const std::vector<std::string>& names) {
        std::vector<Value> v;
        for (const std::string& n : names) v.push_back(atom(n));
        return Value::list(std::move(v));
    };
    if (!policy.allow.empty()) opts.push_back(tuple({atom("allow"), caps(policy.allow)}));
    if (!policy.deny.empty()) opts.push_back(tuple({atom("deny"), caps(policy.deny)}));
    if (policy.max_processes) opts.push_back(tuple({atom("max_processes"), Value::integer(int64_t(policy.max_processes))}));
    if (policy.max_heap_words) opts.push_back(tuple({atom("max_heap_size"), Value::integer(int64_t(policy.max_heap_words))}));
    if (policy.max_atoms) opts.push_back(tuple({atom("max_atoms"), Value::integer(int64_t(policy.max_atoms))}));
    Value term;
    try {
        term = impl_->call(Value(), atom("beamvm"), atom("namespace_new"), {atom(name), Value::list(std::move(opts))},
                           std::chrono::milliseconds::max());
    } catch (const Exception& e) {
        throw Error("beamvm: new_namespace(" + std::string(name) + "): " + e.reason().to_string());
    }
    Namespace ns;
    ns.name_ = name;
    ns.term_ = term;
    return ns;
}

}  // namespace beamvm

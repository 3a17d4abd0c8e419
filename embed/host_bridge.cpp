#include "embed/host_bridge.hpp"

#include <algorithm>
#include <cstdio>

#include "bifs/bif.hpp"
#include "nif/nif_env.hpp"
#include "scheduler/signals.hpp"
#include "vm/ext_term.hpp"
#include "vm/interp.hpp"

namespace beamvm {

using beam::Term;

Value to_value(beam::VM& vm, Term t) {
    std::vector<uint8_t> bytes;
    beam::EncodeOptions opts;
    opts.node = &vm.node;
    auto r = beam::encode_external(t, bytes, opts);
    if (!r.ok()) throw Error("beamvm: a term the VM cannot encode: " + r.error().message);
    return Value::from_external(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Term from_value(beam::VM& vm, beam::TermAllocator& a, const Value& v) {
    std::string bytes = v.to_external();
    beam::DecodeOptions opts;
    opts.node = &vm.node;
    auto r = beam::decode_external(a, std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), nullptr, opts);
    if (!r.ok()) throw Error("beamvm: the VM refuses the term " + v.to_string() + ": " + r.error().message);
    return r.value();
}

namespace {

// What a host function gets: the calling process, through its NIF environment.
class NifHostCall final : public HostCall {
public:
    explicit NifHostCall(ErlNifEnv* env) : env_(env) {}
    Value self() const override { return to_value(*env_->vm, env_->proc->pid); }
    bool consume_timeslice(int percent) override {
        if (env_->dirty || !env_->proc) return false;
        percent = std::clamp(percent, 1, 100);
        constexpr int64_t per_percent = (beam::REDUCTION_BUDGET + 99) / 100;
        beam::Process* p = env_->proc;
        p->slice_reds_used = std::min(p->slice_reds_used + per_percent * percent, beam::REDUCTION_BUDGET);
        return p->slice_reds_used >= beam::REDUCTION_BUDGET;
    }
    void send(const Value& to, const Value& message) override {
        beam::LiteralArea scratch;
        Term dest = from_value(*env_->vm, scratch, to);
        if (beam::is_atom(dest)) dest = env_->vm->procs.whereis(env_->proc->ns, dest);
        if (!beam::is_pid(dest)) throw HostError(tuple({atom("badarg"), to}));
        beam::post_message(*env_->vm, dest, from_value(*env_->vm, scratch, message));
    }

private:
    ErlNifEnv* env_;
};

// Every host function's NIF: the Bound it runs is the priv_data of its NifModule.
ERL_NIF_TERM host_trampoline(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    const auto* spec = static_cast<const HostFunction*>(env->module->priv_data);
    beam::VM& vm = *env->vm;
    auto raise = [&](const Value& reason) {
        try {
            env->exception = from_value(vm, *env->heap, reason);
        } catch (const std::exception&) {
            env->exception = beam::atom("host_exception");
        }
        return beam::nif::N(beam::atom("error"));
    };
    try {
        std::vector<Value> args;
        args.reserve(size_t(argc));
        for (int i = 0; i < argc; ++i) args.push_back(to_value(vm, beam::nif::T(argv[i])));
        NifHostCall call(env);
        call.consume_timeslice(1);
        Value r = spec->fn(call, args);
        return beam::nif::N(from_value(vm, *env->heap, r));
    } catch (const HostError& e) {
        return raise(e.reason());
    } catch (const std::exception& e) {
        return raise(tuple({atom("host_exception"), Value::binary(std::string_view(e.what()))}));
    } catch (...) {
        return raise(atom("host_exception"));
    }
}

}  // namespace

HostBridge::~HostBridge() { close_all(); }

void HostBridge::add_functions(const std::vector<HostFunction>& fns) {
    for (const HostFunction& f : fns) {
        auto m = beam::AtomTable::instance().intern(f.module);
        auto n = beam::AtomTable::instance().intern(f.function);
        if (!m || !n || !f.fn || f.arity > 255)
            throw Error("beamvm: host function " + f.module + ":" + f.function + "/" + std::to_string(f.arity) +
                        ": bad name, arity or no function");
        if (beam::find_bif(*m, *n, f.arity))
            throw Error("beamvm: host function " + f.module + ":" + f.function + "/" + std::to_string(f.arity) +
                        " would replace a built-in function");
        auto key = std::make_tuple(m->raw, n->raw, f.arity);
        if (functions_.count(key))
            throw Error("beamvm: host function " + f.module + ":" + f.function + "/" + std::to_string(f.arity) +
                        " given twice");
        auto b = std::make_unique<Bound>();
        b->spec = f;
        b->owner = std::make_unique<beam::NifModule>();
        b->owner->vm = &vm_;
        b->owner->priv_data = &b->spec;
        b->fn = std::make_unique<beam::NifFunction>();
        b->fn->module = *m;
        b->fn->name = *n;
        b->fn->arity = f.arity;
        b->fn->flags = f.dirty ? ERL_NIF_DIRTY_JOB_CPU_BOUND : 0;
        b->fn->fptr = &host_trampoline;
        b->fn->owner = b->owner.get();
        functions_.emplace(key, std::move(b));
    }
}

void HostBridge::set_output(std::function<void(std::string_view)> out, std::function<void(std::string_view)> err,
                            std::function<void(std::string_view, std::string_view)> log) {
    out_ = std::move(out);
    err_ = std::move(err);
    log_ = std::move(log);
}

std::pair<uint64_t, std::shared_ptr<HostQueue>> HostBridge::open_queue() {
    std::lock_guard lock(mutex_);
    uint64_t id = next_queue_++;
    auto q = std::make_shared<HostQueue>();
    queues_.emplace(id, q);
    return {id, q};
}

void HostBridge::set_owner(uint64_t id, Term pid) {
    std::lock_guard lock(mutex_);
    auto it = queues_.find(id);
    if (it == queues_.end()) return;
    std::lock_guard qlock(it->second->mutex);
    it->second->owner = pid;
}

void HostBridge::close_queue(uint64_t id) {
    std::shared_ptr<HostQueue> q;
    {
        std::lock_guard lock(mutex_);
        auto it = queues_.find(id);
        if (it == queues_.end()) return;
        q = it->second;
        queues_.erase(it);
    }
    std::lock_guard qlock(q->mutex);
    q->closed = true;
    q->ready.notify_all();
}

void HostBridge::close_all() {
    std::unordered_map<uint64_t, std::shared_ptr<HostQueue>> all;
    {
        std::lock_guard lock(mutex_);
        all.swap(queues_);
    }
    for (auto& [id, q] : all) {
        std::lock_guard qlock(q->mutex);
        q->closed = true;
        q->ready.notify_all();
    }
}

std::optional<Value> HostBridge::take(HostQueue& q, std::chrono::steady_clock::time_point deadline) {
    // Woken by deliveries; every 50 ms it also looks whether the VM halted or the queue's
    // process died without answering (killed, or out of its max_heap_size).
    constexpr auto poll = std::chrono::milliseconds(50);
    std::unique_lock lock(q.mutex);
    for (;;) {
        if (!q.items.empty()) {
            std::string bytes = std::move(q.items.front());
            q.items.pop_front();
            return Value::from_external(bytes);
        }
        if (q.closed) throw Error("beamvm: the VM was shut down");
        if (vm_.scheds && vm_.scheds->halting()) throw Error("beamvm: the VM has halted");
        if (beam::is_pid(q.owner)) {
            beam::Process* p = vm_.procs.lookup(q.owner);
            if (!p) throw Error("beamvm: the process serving the host was killed");
            beam::ProcessTable::release(p);
        }
        auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return std::nullopt;
        q.ready.wait_until(lock, std::min(deadline, now + poll));
    }
}

bool HostBridge::deliver(beam::Process* p, uint64_t queue, Term message) {
    std::shared_ptr<HostQueue> q;
    {
        std::lock_guard lock(mutex_);
        auto it = queues_.find(queue);
        if (it == queues_.end()) return false;
        q = it->second;
    }
    std::vector<uint8_t> bytes;
    beam::EncodeOptions opts;
    opts.node = &vm_.node;
    if (!beam::encode_external(message, bytes, opts).ok()) return false;
    std::lock_guard lock(q->mutex);
    if (q->owner != p->pid || q->closed) return false;
    q->items.emplace_back(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    q->ready.notify_all();
    return true;
}

const beam::NifFunction* HostBridge::host_function(Term module, Term function, unsigned arity) {
    // Fixed before the VM runs: no lock.
    auto it = functions_.find(std::make_tuple(module.raw, function.raw, arity));
    return it == functions_.end() ? nullptr : it->second->fn.get();
}

bool HostBridge::write_output(int fd, std::string_view text) {
    const auto& hook = fd == 2 ? err_ : out_;
    if (!hook) return false;
    hook(text);
    return true;
}

bool HostBridge::log(std::string_view level, std::string_view text) {
    if (log_) {
        log_(level, text);
        return true;
    }
    return write_output(2, text);  // without a log hook: where standard error goes
}

}  // namespace beamvm

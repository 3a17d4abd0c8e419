// Process monitors held by NIF resources (nif/resource_monitors.hpp).
#include "nif/resource_monitors.hpp"

#include <cstring>

#include "nif/nif_env.hpp"
#include "nif/resources.hpp"
#include "vm/term_refs.hpp"

namespace beam::nif {

MonitorBytes monitor_bytes(const ErlNifMonitor& m) {
    MonitorBytes b;
    std::memcpy(&b, &m, sizeof b);
    return b;
}

int ResourceMonitors::monitor(Term pid, ErlNifMonitor* out) {
    if (!is_local_pid(pid)) return 1;
    VM* vm = obj_->vm() ? obj_->vm() : current_vm();
    if (!vm) return 1;
    if (ref_number_.load(std::memory_order_relaxed) == 0) {
        // The resource's term has a number once one was made; make one if none was yet.
        LiteralArea scratch;
        make_magic_ref(scratch, obj_);
        ref_number_.store(obj_->ref_number(), std::memory_order_release);
    }
    uint64_t ref = next_ref_number();
    // Under mu_: a target that exits at once finds the entry when its on_exit runs.
    std::lock_guard lock(mu_);
    uint64_t id = native_monitor(*vm, pid, shared_from_this());
    if (id == 0) return 1;
    entries_.push_back({ref, id, pid});
    if (out) {
        std::memset(out, 0, sizeof *out);
        MonitorBytes b{ref, id};
        std::memcpy(out, &b, sizeof b);
    }
    return 0;
}

int ResourceMonitors::demonitor(const ErlNifMonitor& m) {
    MonitorBytes b = monitor_bytes(m);
    Term pid = NIL;
    {
        std::lock_guard lock(mu_);
        for (size_t i = 0; i < entries_.size(); ++i) {
            if (entries_[i].ref_number != b.ref_number || entries_[i].native_id != b.native_id) continue;
            pid = entries_[i].pid;
            entries_[i] = entries_.back();
            entries_.pop_back();
            break;
        }
    }
    if (pid == NIL) return 1;
    if (VM* vm = obj_->vm() ? obj_->vm() : current_vm()) native_demonitor(*vm, pid, b.native_id);
    return 0;
}

void ResourceMonitors::resource_dying() {
    std::vector<Entry> ended;
    VM* vm;
    {
        std::lock_guard lock(mu_);
        vm = obj_->vm() ? obj_->vm() : current_vm();
        obj_ = nullptr;
        ended.swap(entries_);
    }
    if (!vm) return;
    for (const Entry& e : ended) native_demonitor(*vm, e.pid, e.native_id);
}

Term ResourceMonitors::monitored_by_term(TermAllocator& a) const {
    uint64_t n = ref_number_.load(std::memory_order_acquire);
    return n ? revive_magic_ref(a, n) : NON_VALUE;
}

// On the exiting process's scheduler thread. The resource is kept alive for the call, unless
// its last reference is already gone (erts' erts_refc_inc_unless(refc, 0) in
// erts_fire_nif_monitor): then it is being freed and `down` is not called.
void ResourceMonitors::on_exit(Term pid, uint64_t id) {
    ResourceObject* obj = nullptr;
    ErlNifMonitor mon{};
    {
        std::lock_guard lock(mu_);
        if (!obj_) return;
        for (size_t i = 0; i < entries_.size(); ++i) {
            if (entries_[i].native_id != id) continue;
            MonitorBytes b{entries_[i].ref_number, id};
            std::memcpy(&mon, &b, sizeof b);
            entries_[i] = entries_.back();
            entries_.pop_back();
            if (obj_->try_retain()) obj = obj_;
            break;
        }
    }
    if (!obj) return;
    ErlNifResourceDown* down = obj->type()->init.down;
    if (down) {
        CallbackEnv cb(obj->vm() ? obj->vm() : current_vm());
        ErlNifPid p{N(pid)};
        down(&cb.env, obj->data(), &p, &mon);
    }
    obj->release();  // may be the last reference: the destructor runs here
}

}  // namespace beam::nif

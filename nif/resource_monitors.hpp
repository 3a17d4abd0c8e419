// Process monitors held by a NIF resource (enif_monitor_process): when a monitored process
// exits, the resource type's `down` callback runs with the pid and the monitor. They are
// beamvm's native monitors (scheduler/native_monitors.hpp) with the resource as the watcher.
//
// As in erts (erl_nif.c, ErtsResourceMonitors):
//   - only a resource whose type has a `down` callback can monitor (others get -1);
//   - a monitor does not keep the resource alive: when its last reference goes, its monitors
//     are removed without calling `down` (run_resource_dtor's dtor_demonitor), before `dtor`;
//   - a process that exits while the resource is being freed calls no `down` either.
// The monitor a NIF library holds (ErlNifMonitor, 32 bytes it may copy and compare with
// memcmp) carries the number of a reference made for the monitor, which is the term
// enif_make_monitor_term gives, and the native monitor's id.
#pragma once

#include <erl_nif.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "scheduler/native_monitors.hpp"
#include "vm/term.hpp"

namespace beam::nif {

class ResourceObject;

// What beamvm writes into an ErlNifMonitor (its 32 bytes; the rest stays zero).
struct MonitorBytes {
    uint64_t ref_number;  // of the monitor's reference (vm/term_refs.hpp)
    uint64_t native_id;   // native_monitor's id
};
static_assert(sizeof(MonitorBytes) <= sizeof(ErlNifMonitor));
MonitorBytes monitor_bytes(const ErlNifMonitor& m);

class ResourceMonitors final : public ExitWatcher, public std::enable_shared_from_this<ResourceMonitors> {
public:
    explicit ResourceMonitors(ResourceObject* obj) : obj_(obj) {}

    // enif_monitor_process: 0 and the monitor, or 1 when `pid` is not a live local process.
    int monitor(Term pid, ErlNifMonitor* out);
    // enif_demonitor_process: 0 if the monitor was active, else 1.
    int demonitor(const ErlNifMonitor& m);
    // The resource is being freed: its monitors end without a `down` call.
    void resource_dying();

    void on_exit(Term pid, uint64_t id) override;
    // The resource's term while it lives (process_info(P, monitored_by) shows it, as erl).
    Term monitored_by_term(TermAllocator& a) const override;

private:
    struct Entry {
        uint64_t ref_number;
        uint64_t native_id;
        Term pid;
    };
    std::mutex mu_;  // taken before a target's info_mutex (native_monitor), never after
    ResourceObject* obj_;  // null once the resource is dying
    // Its reference's number, read without mu_ (process_info holds the target's info_mutex).
    std::atomic<uint64_t> ref_number_{0};
    std::vector<Entry> entries_;
};

}  // namespace beam::nif

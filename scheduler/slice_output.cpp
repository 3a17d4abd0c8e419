#include "scheduler/slice_output.hpp"

#include <mutex>
#include <vector>

#include "scheduler/port_driver.hpp"
#include "scheduler/port_system.hpp"

namespace beam {

namespace {
thread_local bool tls_in_slice = false;
thread_local std::vector<std::shared_ptr<Port>> tls_to_flush;
}  // namespace

bool in_time_slice() { return tls_in_slice; }

void flush_at_slice_end(std::shared_ptr<Port> port) { tls_to_flush.push_back(std::move(port)); }

TimeSlice::TimeSlice() { tls_in_slice = true; }

TimeSlice::~TimeSlice() {
    tls_in_slice = false;
    // A flush writes to a socket and takes no other port's lock; a flush cannot register more.
    for (std::shared_ptr<Port>& p : tls_to_flush) {
        std::lock_guard lock(p->lock);
        if (p->dist) p->dist->flush_output();
    }
    tls_to_flush.clear();
}

}  // namespace beam

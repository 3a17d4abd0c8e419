// Output held until the end of a process's time slice. A process that sends many small
// messages to another node in one slice would otherwise make one socket write (and the other
// node's kernel one segment to take in, and this node's one ACK to handle) per message: 68% of
// a sending node's time went to writev. Output held here is written when the slice ends (the
// process waits, yields or exits), one write per connection, so a process that sends and then
// waits for a reply is not delayed, and one that keeps running delays its output by at most
// one time slice. Per thread: only the thread running the slice adds and flushes.
#pragma once

#include <memory>

namespace beam {

struct Port;

// True on a scheduler thread while it runs a process's time slice: output may wait for its end.
bool in_time_slice();

// `port` holds output (its DistChannel's) to be flushed when this thread's slice ends. The
// caller holds the port's lock and registers a port once until it has been flushed.
void flush_at_slice_end(std::shared_ptr<Port> port);

// Marks a process's time slice on this thread (Schedulers::run_one); at its end, every port
// registered during the slice is flushed (each under its lock, if still open).
class TimeSlice {
public:
    TimeSlice();
    ~TimeSlice();
    TimeSlice(const TimeSlice&) = delete;
    TimeSlice& operator=(const TimeSlice&) = delete;
};

}  // namespace beam

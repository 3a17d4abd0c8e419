// The VM's one I/O poller (design notes §12): every descriptor the VM waits on (socket ports,
// prim_socket sockets, port pipes, enif_select, later tty_sl) is watched by one thread per VM
// in one epoll set. A descriptor that is not ready costs nothing: the thread sleeps in
// epoll_wait. Sockets and spawned ports' output pipes (scheduler/ports.cpp) sit in a second set
// inside the first, the scheduler pollset, which awake schedulers poll without blocking
// between processes; the thread watches it only while every scheduler sleeps
// (scheduler/scheduler.hpp), so a busy VM's packets wake no thread.
//
// Interest is one-shot, as enif_select's: io_arm(h, EPOLLIN) asks for one event; when it has
// fired (on_io), the descriptor is disarmed until it is armed again. A watcher that wants
// both directions arms both and re-arms what it still wants after each event.
//
// The loop is the port system's I/O thread (scheduler/port_io.cpp), which also carries the
// pipes of OS-process ports and their children's pidfds.
#pragma once

#include <cstdint>
#include <memory>

namespace beam {

class VM;

class IoWatcher {
public:
    virtual ~IoWatcher() = default;
    // On the poller thread (or a scheduler, see io_register), with no lock held: the epoll events that fired (EPOLLIN,
    // EPOLLOUT, EPOLLERR, EPOLLHUP, EPOLLRDHUP). May be called once more after io_forget
    // (an event already taken from epoll): a watcher checks its own closed state.
    virtual void on_io(uint32_t events) = 0;
};

using IoHandle = uint64_t;  // never 0

// Adds `fd` (non-blocking; the caller keeps owning it) to the poller, not armed. With
// `scheduler_polled`, it goes in the scheduler pollset (scheduler/scheduler.hpp): its events
// are then taken by whichever scheduler polls (or the poller thread while all sleep), so
// on_io runs on any of those threads.
IoHandle io_register(VM& vm, int fd, std::shared_ptr<IoWatcher> w, bool scheduler_polled = false);
// Arms the one-shot interest `events` (EPOLLIN | EPOLLOUT ...); 0 disarms.
void io_arm(VM& vm, IoHandle h, uint32_t events);
// Removes the descriptor; call before closing it. The poller drops its reference to the
// watcher (a call already under way finishes).
void io_forget(VM& vm, IoHandle h);

}  // namespace beam

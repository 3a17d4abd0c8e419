// Port drivers linked into beamvm: the native side of a port opened with
// {spawn_driver, Name} (tcp_inet, udp_inet, ... in io/). The port system owns the port (id,
// owner, links, monitors, close); the driver answers port_control/3 and port_command/2,3 and
// acts on its descriptors' events.
//
// Every call into a driver is made with its port's lock held (Port::lock): from the calling
// process's BIF (control, output) or from the poller thread (a DriverPort's watcher, a timer).
// A driver therefore never races itself, while other ports' drivers run at the same time; it
// must not block (descriptors are non-blocking).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "io/poller.hpp"
#include "vm/term.hpp"

namespace beam {

class VM;
class PortSystem;
struct Port;

class PortDriver;
struct PortSettings;

// A port that carries a connection to another node (erlang:setnode/3; dist/carrier.hpp):
// what the driver reads is the distribution layer's, not the owner's. Called with the port's
// lock held.
class DistChannel {
public:
    virtual ~DistChannel() = default;
    // One whole packet, its framing removed (an empty one is a tick). False if it is
    // malformed: the driver then ends the port, which ends the connection.
    virtual bool received(const uint8_t* data, size_t size) = 0;
    // The port is closing: the connection is lost.
    virtual void port_closed(Term reason) = 0;
    // Writes what it held until the end of a time slice (scheduler/slice_output.hpp).
    virtual void flush_output() {}
};

// What a driver may do to its port. Valid while the port's lock is held; a driver
// keeps the DriverPort it was given at attach() for its whole life (the port owns the driver).
class DriverPort {
public:
    DriverPort(PortSystem& ps, Port& p) : ps_(ps), port_(p) {}
    VM& vm() const;
    Term id() const;
    Term owner() const;  // the connected process
    // A message from the port to `to`, ordered with the port's other signals.
    void send(Term to, Term msg) const;
    // The port exits with `reason` (driver_exit): the owner is unlinked first, then links and
    // monitors are told, stop() is called. The driver must not touch its port afterwards.
    void exit(Term reason) const;
    // Opens another port of this driver, owned and linked by `owner` (an accepted
    // connection: driver_create_port). Returns its id.
    Term open_sibling(Term owner, std::unique_ptr<PortDriver> d, std::string name) const;
    // driver_set_timer / driver_cancel_timer: on_timeout() once, after `ms`.
    void set_timer(int64_t ms) const;
    void cancel_timer() const;
    // Watches `fd` in the VM's poller for this port: on_io(events) is called with the lock
    // held while the port is open. Unlike io/poller.hpp's one-shot interest, what arm() set
    // stays armed after an event (level-triggered): a socket that stays active costs no
    // epoll_ctl per packet (a TLS echo made one per record). arm(h, 0) parks it.
    IoHandle watch(int fd) const;
    void arm(IoHandle h, uint32_t events) const;
    void forget(IoHandle h) const;
    // The busy state (high/low watermark): while busy, port_command with nosuspend answers
    // false and other senders wait until the driver clears it.
    void set_busy(bool busy) const;
    Port& port() const { return port_; }
    // The connection this port carries (erlang:setnode/3), or null for an ordinary port.
    DistChannel* dist() const;

private:
    PortSystem& ps_;
    Port& port_;
};

class PortDriver {
public:
    virtual ~PortDriver() = default;
    // open_port/2's options, before attach() (io/c_drivers.hpp follows `binary`).
    virtual void configure(const PortSettings&) {}
    // Called once, when the port exists; `port` stays valid until stop().
    virtual void attach(const DriverPort& port) = 0;
    // erlang:port_control/3 from `caller`: the reply bytes (a list for the caller), or
    // nullopt for badarg.
    virtual std::optional<std::string> control(Term caller, unsigned op, std::string_view data) = 0;
    // port_command/2,3 and Port ! {Owner, {command, Data}} from `caller`.
    virtual void output(Term caller, std::string_view data) = 0;
    // Output from the runtime itself (a distribution connection's packets): the pieces
    // in order, `size` bytes in all, as one unit of the port's framing; nobody is answered.
    // By default they are joined and handed to output().
    virtual void output_gather(std::span<const std::span<const uint8_t>> pieces, size_t size);
    // Output from the runtime that is already framed as packets with 4-byte big-endian lengths
    // (several packets at once). False, with nothing written, when the port's framing is not
    // that; by default it never is.
    virtual bool output_framed(std::span<const uint8_t>) { return false; }
    // An event on a descriptor the driver watches.
    virtual void on_io(IoHandle h, uint32_t events) = 0;
    virtual void on_timeout() {}
    // The port is gone (closed, its owner died, exit/2, exit()): release every descriptor.
    virtual void stop() = 0;
    // Bytes queued for output in the driver (port_info(P, queue_size), driver_sizeq).
    virtual size_t queue_size() const { return 0; }
};

// The drivers a VM can open by name ({spawn_driver, Name} and {Name, ...}); the table is
// filled by io/drivers.cpp.
using PortDriverFactory = std::unique_ptr<PortDriver> (*)(std::string_view command);
struct PortDriverSpec {
    const char* name;
    PortDriverFactory make;
};

}  // namespace beam

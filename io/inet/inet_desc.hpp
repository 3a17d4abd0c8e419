// The part of OTP's inet drivers that tcp_inet and udp_inet share (OTP: inet_drv.c's
// inet_descriptor): a socket, its family and type, its state flags, the options kept in the
// driver (active, mode, packet, header, deliver, ...), its counters, and the control requests
// every inet port answers (open, bind, names, options, statistics, interfaces, host name).
//
// prim_inet (erts/preloaded/src/prim_inet.erl) is the other side: it opens the port with
// {spawn_driver, "tcp_inet"}, sends requests through erlang:port_control/3 and reads the
// replies [?INET_REP_OK | Data] / [?INET_REP_ERROR | ErrnoName]; asynchronous results (accept,
// connect, recv) come as {inet_async, Port, Ref, Result}, send results as
// {inet_reply, Port, Status}. The codes are inet_int.hrl's (io/inet/inet_codes.hpp).
//
// Threading: every method runs with the port system's lock held (scheduler/port_driver.hpp):
// from the caller's BIF or from the poller thread. Descriptors are non-blocking.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "bifs/packet.hpp"
#include "io/inet/inet_codes.hpp"
#include "scheduler/port_driver.hpp"

namespace beam::inet {

// The driver-level options (INET_LOPT_*) and the ones the driver must remember itself.
struct DriverOptions {
    bool binary = false;            // mode: binary or list (prim_inet sets it at open)
    uint32_t header = 0;            // header: how many leading bytes of a binary are a list
    bool deliver_term = true;       // deliver: term ({tcp, S, Data}) or port ({S, {data, D}})
    uint8_t active = INET_PASSIVE;  // INET_PASSIVE, INET_ACTIVE, INET_ONCE, INET_MULTI
    int32_t active_n = 0;           // INET_MULTI: messages left before {tcp_passive, S}
    uint8_t packet = TCP_PB_RAW;    // TCP_PB_*: the framing of received data
    uint32_t packet_size = 0;       // largest packet accepted; 0: no limit
    uint8_t line_delimiter = '\n';
    uint32_t buffer = 1460;         // user-level receive buffer size (INET_DEF_BUFFER)
    bool buffer_set = false;        // set explicitly: recbuf no longer raises it
    bool exit_on_close = true;
    bool delay_send = false;
    bool show_econnreset = false;
    int64_t send_timeout = -1;      // ms; -1: infinity
    bool send_timeout_close = false;
    uint32_t high_watermark = 8192, low_watermark = 4096;        // output queue (busy port)
    uint32_t msgq_high = 8192, msgq_low = 4096;                  // msgq watermarks (udp)
    uint32_t read_packets = 5;      // udp: datagrams read per readiness event
    std::optional<std::string> netns;  // the network namespace new sockets are made in
    bool linger_zero = false;       // {linger, {true, 0}}: close resets the connection
    bool debug = false;
    uint8_t recv_cmsg = 0;          // RECV_TOS | RECV_TCLASS | RECV_TTL: ancillary data wanted
    static constexpr uint8_t RECV_TOS = 1, RECV_TCLASS = 2, RECV_TTL = 4;
};

// I/O statistics for getstat (INET_STAT_*).
struct Stats {
    uint64_t recv_cnt = 0, recv_max = 0, recv_oct = 0;
    double recv_avg = 0, recv_dvi = 0;
    uint64_t send_cnt = 0, send_max = 0, send_oct = 0;
    double send_avg = 0;
    void received(size_t n);
    void sent(size_t n);
};

class InetDesc : public PortDriver {
public:
    explicit InetDesc(int type) : type(type) {}
    ~InetDesc() override;

    // PortDriver: the common requests here, the rest to the protocol's control_proto().
    void attach(const DriverPort& p) override { port = &p; }
    std::optional<std::string> control(Term caller, unsigned op, std::string_view data) override;
    void stop() override;

    // A protocol's own requests (TCP_REQ_*, PACKET_REQ_RECV, INET_REQ_CONNECT, ...); nullopt
    // is badarg, as for an unknown request in OTP.
    virtual std::optional<std::string> control_proto(Term caller, unsigned op, std::string_view data) = 0;
    // After setopts changed something the protocol must act on (active from passive: deliver
    // what is buffered and read on; a new packet type: reparse).
    virtual void options_changed(uint8_t old_active, bool active_changed, bool packet_changed) {}
    // {active, N} ran out (N reached 0, or setopts brought it there): {tcp_passive, S} /
    // {udp_passive, S} to the owner.
    virtual void passive_reached() = 0;
    // The socket exists (open, fdopen): a protocol that reads at once arms its interest.
    virtual void opened() {}
    // Before the state is reported (GETSTATUS): a protocol drops what no longer holds.
    virtual void refresh_state() {}
    // Bytes queued in the driver for output (getstat send_pend, subscribe empty_out_q).
    virtual size_t output_queued() const { return 0; }
    size_t queue_size() const override { return output_queued(); }

    // Socket creation (INET_REQ_OPEN / FDOPEN): fd set, registered with the poller.
    std::optional<std::string> open_socket(uint8_t family_code, uint8_t type_code);
    std::optional<std::string> fdopen_socket(uint8_t family_code, uint8_t type_code, int fd, bool bound);
    // Takes over an accepted descriptor (tcp_inet's accept: a new port's desc).
    void adopt(int fd, int family, uint32_t state_flags);

    // The poller: arms the one-shot interest `events` (EPOLLIN/EPOLLOUT) for fd.
    void want(uint32_t events);

    // Messages from the port: {inet_async, S, Ref, Result}, {inet_reply, S, Status} (none to
    // NIL), and a tuple of `elems` to the owner.
    void reply_async(uint16_t ref, Term to, Term result);
    void reply_async_error(uint16_t ref, Term to, Term reason);
    void inet_reply(Term to, Term status);
    void inet_reply_error(Term to, Term reason);
    void send_to_owner(std::initializer_list<Term> elems);
    // An active-mode message went out: once turns passive, N counts down to passive_reached().
    void count_active_delivery();

    const DriverPort* port = nullptr;
    int fd = -1;
    int family = AF_UNSPEC;  // AF_INET, AF_INET6, AF_UNIX
    int type;                // SOCK_STREAM, SOCK_DGRAM
    uint32_t state = 0;      // INET_F_* (INET_STATE_* combinations)
    IoHandle io = 0;
    uint32_t armed = 0;      // the events the driver wants (want())
    // The events the poller watches (level-triggered, DriverPort::watch): `armed`, or more
    // while an interest dropped outside an event waits for the next event.
    uint32_t polled_ = 0;
    bool in_event_ = false;
    // Around a driver's on_io: want() is exact inside, and what the poller watches is `armed`
    // again when it ends (an unwanted level event would otherwise fire at every wait).
    struct EventScope {
        InetDesc& d;
        explicit EventScope(InetDesc& desc) : d(desc) { d.in_event_ = true; }
        ~EventScope();
    };
    bool prebound = false;   // fdopen'ed: the descriptor is not ours to close
    DriverOptions opt;
    Stats stats;
    uint16_t next_ref = 0;   // references of asynchronous operations
    // A peer/name set by INET_REQ_SETPEER / SETNAME (fake addresses some callers use).
    std::optional<std::string> fake_peer, fake_name;
    Term empty_out_q_subscriber = NIL;
};

// Replies ([INET_REP_OK | Data], [INET_REP_ERROR | ErrnoName]).
std::string reply_ok(std::string_view data = {});
std::string reply_error(int err);                 // the errno's name as erl spells it
std::string reply_error_atom(std::string_view name);  // an error that is no errno (exbadport)

// Big-endian integers as prim_inet writes and reads them.
void put_u16(std::string& out, uint16_t v);
void put_u32(std::string& out, uint32_t v);
void put_u64(std::string& out, uint64_t v);
bool get_u16(std::string_view& in, uint16_t& v);
bool get_u32(std::string_view& in, uint32_t& v);

// Addresses in the drivers' encoding: INET_AF_INET, Port:16, IP:4 bytes; INET_AF_INET6,
// Port:16, IP:16 bytes; INET_AF_LOCAL, Len:8, Path; INET_AF_ANY / INET_AF_LOOPBACK, Port:16
// (the family's wildcard or loopback). decode reads one from `in` for a socket of `family`;
// false: einval.
bool decode_address(std::string_view& in, int family, sockaddr_storage& sa, socklen_t& len);
void encode_address(std::string& out, const sockaddr* sa, socklen_t len);

// Options (inet_options.cpp): INET_REQ_SETOPTS / GETOPTS over the descriptor and its socket.
std::string set_options(InetDesc& d, std::string_view data);
std::string get_options(InetDesc& d, std::string_view data);

// Interfaces and names (inet_ifaces.cpp): INET_REQ_GETHOSTNAME, GETIFLIST, IFGET, IFSET,
// GETIFADDRS, GETSERVBYNAME, GETSERVBYPORT. nullopt: not one of these requests.
std::optional<std::string> interface_request(InetDesc& d, unsigned op, std::string_view data);

// getstat (INET_REQ_GETSTAT).
std::string get_statistics(InetDesc& d, std::string_view data);

}  // namespace beam::inet

namespace beam {
std::unique_ptr<PortDriver> make_tcp_inet(std::string_view command);
std::unique_ptr<PortDriver> make_udp_inet(std::string_view command);
}  // namespace beam

// OTP's tcp_inet driver (io/inet/tcp_inet.cpp): gen_tcp's sockets under prim_inet.
#pragma once

#include <deque>
#include <initializer_list>
#include <string>

#include "io/inet/byte_buffer.hpp"
#include "io/inet/inet_desc.hpp"
#include "vm/heap.hpp"

namespace beam::inet {

class TcpInet final : public InetDesc {
public:
    TcpInet();
    ~TcpInet() override;
    std::optional<std::string> control_proto(Term caller, unsigned op, std::string_view data) override;
    void output(Term caller, std::string_view data) override;
    void output_gather(std::span<const std::span<const uint8_t>> pieces, size_t size) override;
    bool output_framed(std::span<const uint8_t> bytes) override;
    void on_io(IoHandle h, uint32_t events) override;
    void on_timeout() override;
    void stop() override;
    void options_changed(uint8_t old_active, bool active_changed, bool packet_changed) override;
    void passive_reached() override;
    size_t output_queued() const override;
    void refresh_state() override;

private:
    // An operation answered later with {inet_async, S, Ref, Result}: accept (several may
    // wait), connect, recv (one at a time). deadline: steady-clock ms, -1 for none.
    struct Op {
        enum Kind { Accept, Connect, Recv } kind;
        uint16_t ref;
        Term caller;
        int64_t deadline;
        uint32_t length;  // recv: bytes asked for (raw mode), 0 for what is there
    };

    std::optional<std::string> request_connect(Term who, std::string_view data);
    std::optional<std::string> request_accept(Term who, std::string_view data);
    std::optional<std::string> request_recv(Term who, std::string_view data);
    size_t accepting() const;
    void try_accept();
    void drop_dead_acceptors();
    void inherit_from(const TcpInet& listener);
    bool has_recv() const;
    Op take_recv();
    int64_t first_packet(size_t* need);
    bool deliver();
    void deliver_packet(size_t len);
    bool read_socket();
    bool start_large_packet();
    bool read_large_packet();
    void emit(Term payload, bool http);
    void recv_closed();
    void read_error(int err);
    void fail_all(Term reason);
    void close_read();
    void close_socket();
    void write_queued();
    void end_busy(Term reason);
    void send_error(Term caller, int err);
    // framed: the pieces already carry their packet headers (output_framed); none is added.
    void send_pieces(Term caller, std::span<const std::span<const uint8_t>> pieces, size_t n, bool framed = false);
    void finish_connect();
    void rearm();
    void schedule_timer();

    Term data_term(TermAllocator& a, const uint8_t* p, size_t n) const;

    std::deque<Op> ops_;
    ByteBuffer in_;       // received bytes not yet delivered
    // A large packet (binary mode, packet 1/2/4) is read straight into the binary that is
    // delivered, as inet_drv does: no copy out of a buffer.
    BinaryBlob* large_ = nullptr;
    size_t large_have_ = 0;
    std::string out_;     // output the socket has not taken; from out_at_
    size_t out_at_ = 0;
    bool short_read_ = false;   // the last read got less than it asked for: the socket is drained
    bool http_header_ = false;  // http packets: header lines expected next
    bool busy_ = false;
    Term busy_caller_ = NIL;     // the send waiting for the queue to drain
    int64_t send_deadline_ = -1;  // send_timeout of that send (steady ms), -1 none
    int pending_shutdown_ = -1;  // shutdown(how) waiting for the queue to empty
    bool read_closed_ = false;   // the peer closed and exit_on_close is false
    // inet_drv's delayed errors: after a failure the next send/recv says closed (or
    // econnreset with show_econnreset) rather than enotconn.
    bool delayed_close_send_ = false;
    bool delayed_close_recv_ = false;
    bool delayed_econnreset_ = false;
};

}  // namespace beam::inet

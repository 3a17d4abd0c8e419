// OTP's tcp_inet driver, as prim_inet uses it for gen_tcp (inet_backend inet): listen and
// accept (several acceptors may wait on one listener), connect with a timeout, sending with
// the {packet, 1|2|4} length header and {inet_reply, S, Status}, passive receives
// ({inet_async, S, Ref, Result}), the active modes (true, once, N with {tcp_passive, S}), the
// packet types of decode_packet, half-close, peer resets and exit_on_close.
//
// Received bytes gather in `in_`; packet_length() (bifs/packet.hpp, shared with
// erlang:decode_packet/3) says when the first packet is whole. Output that the socket does not
// take at once waits in `out_` and goes when the poller says the socket is writable; the port is
// busy above the high watermark. Every method runs with the port system's lock held.
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>

#include "io/inet/inet_atoms.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "io/inet/tcp_inet.hpp"
#include "scheduler/process_table.hpp"
#include "vm/binary.hpp"
#include "vm/heap.hpp"
#include "vm/vm.hpp"

namespace beam::inet {

namespace {

constexpr uint32_t INFINITE_TIME = 0xffffffffu;
// inet_drv's TCP_MAX_PACKET_SIZE: the largest recv(S, N) length accepted.
constexpr uint32_t MAX_PACKET_SIZE = 0x4000000;
// The most read in one go when no packet length asks for more.
constexpr size_t READ_CHUNK_MAX = 1 << 20;

PacketType packet_type_of(uint8_t code) {
    switch (code) {
    case TCP_PB_1: return PacketType::One;
    case TCP_PB_2: return PacketType::Two;
    case TCP_PB_4: return PacketType::Four;
    case TCP_PB_ASN1: return PacketType::Asn1;
    case TCP_PB_RM: return PacketType::SunRm;
    case TCP_PB_CDR: return PacketType::Cdr;
    case TCP_PB_FCGI: return PacketType::Fcgi;
    case TCP_PB_LINE_LF: return PacketType::Line;
    case TCP_PB_TPKT: return PacketType::Tpkt;
    case TCP_PB_HTTP: return PacketType::Http;
    case TCP_PB_HTTPH: return PacketType::HttpH;
    case TCP_PB_SSL_TLS: return PacketType::SslTls;
    case TCP_PB_HTTP_BIN: return PacketType::HttpBin;
    case TCP_PB_HTTPH_BIN: return PacketType::HttpHBin;
    default: return PacketType::Raw;
    }
}

bool is_http(PacketType t) {
    return t == PacketType::Http || t == PacketType::HttpH || t == PacketType::HttpBin || t == PacketType::HttpHBin;
}

int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

TcpInet::TcpInet() : InetDesc(SOCK_STREAM) {}

size_t TcpInet::output_queued() const { return out_.size() - out_at_; }

Term TcpInet::data_term(TermAllocator& a, const uint8_t* p, size_t n) const {
    if (!opt.binary) return make_byte_list(a, p, n);
    size_t h = opt.header;
    if (h == 0) return make_binary(a, p, n);
    if (h >= n) return make_byte_list(a, p, n);
    return make_byte_list(a, p, h, make_binary(a, p + h, n - h));
}

void TcpInet::passive_reached() { send_to_owner({atom("tcp_passive"), port->id()}); }

// ---------------------------------------------------------------------------------------
// Control requests

std::optional<std::string> TcpInet::control_proto(Term who, unsigned op, std::string_view data) {
    switch (op) {
    case INET_REQ_LISTEN: {
        if (!(state & INET_F_OPEN)) return reply_error_atom("exbadport");
        uint16_t backlog;
        if (data.size() != 2 || !get_u16(data, backlog)) return reply_error(EINVAL);
        if (::listen(fd, static_cast<int16_t>(backlog)) != 0) return reply_error(errno);
        state = INET_STATE_LISTENING;  // as inet_drv: the bound flag goes
        return reply_ok();
    }
    case INET_REQ_CONNECT: return request_connect(who, data);
    case INET_REQ_ACCEPT: return request_accept(who, data);
    case TCP_REQ_RECV: return request_recv(who, data);
    case TCP_REQ_UNRECV:
        if (!(state & INET_F_ACTIVE)) return reply_error(ENOTCONN);
        in_.prepend(data);
        if (opt.active != INET_PASSIVE) deliver();
        return reply_ok();
    case TCP_REQ_SHUTDOWN: {
        if (!(state & INET_F_ACTIVE)) return reply_error(ENOTCONN);
        if (data.size() != 1) return reply_error(EINVAL);
        int how = static_cast<uint8_t>(data[0]);
        if (how != SHUT_RD && output_queued() > 0) {  // after the queued output has gone
            pending_shutdown_ = how;
            return reply_ok();
        }
        if (::shutdown(fd, how) != 0) return reply_error(errno);
        return reply_ok();
    }
    case TCP_REQ_SENDFILE: return reply_error(ENOTSUP);
    default: return std::nullopt;
    }
}

std::optional<std::string> TcpInet::request_connect(Term who, std::string_view data) {
    if (!(state & INET_F_OPEN)) return reply_error_atom("exbadport");
    if ((state & INET_STATE_CONNECTED) == INET_STATE_CONNECTED) return reply_error(EISCONN);
    if ((state & INET_STATE_CONNECTING) == INET_STATE_CONNECTING) return reply_error(EINVAL);
    uint32_t timeout;
    if (data.size() < 6 || !get_u32(data, timeout)) return reply_error(EINVAL);
    sockaddr_storage sa;
    socklen_t len;
    if (!decode_address(data, family, sa, len)) return reply_error(EINVAL);
    uint16_t ref = next_ref++;
    int rc = ::connect(fd, reinterpret_cast<sockaddr*>(&sa), len);
    std::string r;
    put_u16(r, ref);
    if (rc == 0) {
        state = INET_STATE_CONNECTED;
        reply_async(ref, who, am::ok);
        if (opt.active != INET_PASSIVE) want(EPOLLIN);
        return reply_ok(r);
    }
    if (errno != EINPROGRESS) return reply_error(errno);
    state = INET_STATE_CONNECTING;
    ops_.push_back(Op{Op::Connect, ref, who, timeout == INFINITE_TIME ? -1 : now_ms() + timeout, 0});
    want(EPOLLOUT);
    schedule_timer();
    return reply_ok(r);
}

std::optional<std::string> TcpInet::request_accept(Term who, std::string_view data) {
    if (!(state & INET_F_LISTEN) || data.size() != 4) return reply_error(EINVAL);
    uint32_t timeout;
    get_u32(data, timeout);
    uint16_t ref = next_ref++;
    std::string r;
    put_u16(r, ref);
    ops_.push_back(Op{Op::Accept, ref, who, timeout == INFINITE_TIME ? -1 : now_ms() + timeout, 0});
    state |= INET_F_ACC;
    if (accepting() > 1) state |= INET_F_MULTI_CLIENT;
    try_accept();
    if (!ops_.empty()) schedule_timer();
    return reply_ok(r);
}

std::optional<std::string> TcpInet::request_recv(Term who, std::string_view data) {
    if ((state & INET_STATE_CONNECTED) != INET_STATE_CONNECTED) {
        if (delayed_close_recv_) {
            delayed_close_recv_ = false;
            delayed_close_send_ = false;
            if (delayed_econnreset_) {
                delayed_econnreset_ = false;
                return reply_error_atom("econnreset");
            }
            return reply_error_atom("closed");
        }
        return reply_error(ENOTCONN);
    }
    uint32_t timeout, length;
    if (opt.active != INET_PASSIVE || data.size() != 8) return reply_error(EINVAL);
    get_u32(data, timeout);
    get_u32(data, length);
    if (opt.packet != TCP_PB_RAW && length != 0) return reply_error(EINVAL);
    if (length > MAX_PACKET_SIZE) return reply_error(ENOMEM);
    for (const Op& o : ops_)
        if (o.kind == Op::Recv) return reply_error(EALREADY);
    uint16_t ref = next_ref++;
    std::string r;
    put_u16(r, ref);
    ops_.push_back(Op{Op::Recv, ref, who, timeout == INFINITE_TIME ? -1 : now_ms() + timeout, length});
    deliver();                            // from what is buffered
    if (has_recv()) read_socket();        // then what the socket has now
    if (has_recv()) {                     // nothing whole yet: wait for the socket
        if (timeout == 0) {
            take_recv();
            reply_async_error(ref, who, atom("timeout"));
        } else {
            rearm();
            schedule_timer();
        }
    }
    return reply_ok(r);
}

// ---------------------------------------------------------------------------------------
// Accepting

size_t TcpInet::accepting() const {
    return static_cast<size_t>(std::count_if(ops_.begin(), ops_.end(), [](const Op& o) { return o.kind == Op::Accept; }));
}

// A waiting acceptor that died no longer waits (OTP monitors it; here it is looked for when a
// connection arrives and when the state is asked for).
void TcpInet::drop_dead_acceptors() {
    for (auto it = ops_.begin(); it != ops_.end();) {
        if (it->kind != Op::Accept) {
            ++it;
            continue;
        }
        Process* p = port->vm().procs.lookup(it->caller);
        if (p) {
            ProcessTable::release(p);
            ++it;
        } else {
            it = ops_.erase(it);
        }
    }
    size_t n = accepting();
    if (n == 0) state &= ~(INET_F_ACC | INET_F_MULTI_CLIENT);
    else if (n == 1) state &= ~INET_F_MULTI_CLIENT;
}

void TcpInet::refresh_state() {
    if (state & INET_F_LISTEN) drop_dead_acceptors();
}

void TcpInet::try_accept() {
    drop_dead_acceptors();
    while (true) {
        auto it = std::find_if(ops_.begin(), ops_.end(), [](const Op& o) { return o.kind == Op::Accept; });
        if (it == ops_.end()) break;
        sockaddr_storage sa;
        socklen_t len = sizeof sa;
        int s = ::accept4(fd, reinterpret_cast<sockaddr*>(&sa), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (s < 0) {
            if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED) {
                want(EPOLLIN);
                break;
            }
            Op op = *it;
            ops_.erase(it);
            reply_async_error(op.ref, op.caller, posix_error_atom(errno));
            continue;
        }
        Op op = *it;
        ops_.erase(it);
        auto conn = std::make_unique<TcpInet>();
        TcpInet* c = conn.get();
        c->inherit_from(*this);
        Term id = port->open_sibling(op.caller, std::move(conn), "tcp_inet");
        c->adopt(s, family, INET_STATE_CONNECTED);
        LiteralArea scratch;
        reply_async(op.ref, op.caller, make_tuple(scratch, {am::ok, id}));
    }
    if (accepting() == 0) {
        state &= ~(INET_F_ACC | INET_F_MULTI_CLIENT);
        want(0);
    } else if (accepting() == 1) {
        state &= ~INET_F_MULTI_CLIENT;
    }
    schedule_timer();
}

// An accepted socket starts with the listener's driver options (inet_drv's tcp_inet_copy);
// prim_inet then copies the socket-level ones it cares about with getopts/setopts.
void TcpInet::inherit_from(const TcpInet& l) {
    opt = l.opt;
    opt.active = INET_PASSIVE;
    opt.active_n = 0;
}

// ---------------------------------------------------------------------------------------
// Receiving

bool TcpInet::has_recv() const {
    return std::any_of(ops_.begin(), ops_.end(), [](const Op& o) { return o.kind == Op::Recv; });
}

TcpInet::Op TcpInet::take_recv() {
    auto it = std::find_if(ops_.begin(), ops_.end(), [](const Op& o) { return o.kind == Op::Recv; });
    Op op = *it;
    ops_.erase(it);
    return op;
}

// The length of the first whole packet in the buffer: > 0 whole, 0 more needed, < 0 invalid.
// *need: how much must be read for it, when known.
int64_t TcpInet::first_packet(size_t* need) {
    size_t avail = in_.size();
    *need = 0;
    if (opt.packet == TCP_PB_RAW) {
        uint32_t want_len = 0;
        for (const Op& o : ops_)
            if (o.kind == Op::Recv) want_len = o.length;
        if (want_len == 0) return avail > 0 ? static_cast<int64_t>(avail) : 0;
        if (avail >= want_len) return want_len;
        *need = want_len - avail;
        return 0;
    }
    PacketType t = packet_type_of(opt.packet);
    PacketOptions po;
    po.max_size = opt.packet_size;
    po.delimiter = opt.line_delimiter;
    if (t == PacketType::Line || is_http(t)) po.line_length = opt.buffer;
    if (t == PacketType::HttpH || t == PacketType::HttpHBin) http_header_ = true;
    bool hs = http_header_;
    int len = packet_length(t, reinterpret_cast<const uint8_t*>(in_.data()), avail, po, hs);
    if (len < 0) return -1;
    if (len == 0) return 0;
    if (static_cast<size_t>(len) > avail) {
        *need = static_cast<size_t>(len) - avail;
        return 0;
    }
    return len;
}

// Delivers whole packets: to the waiting recv in passive mode, as messages in active mode.
// True if something was delivered. A packet error ends the connection as a read error would.
bool TcpInet::deliver() {
    bool delivered = false;
    while (fd >= 0 && (state & INET_F_ACTIVE)) {
        bool passive = opt.active == INET_PASSIVE;
        if (passive && !has_recv()) break;
        size_t need;
        int64_t len = first_packet(&need);
        if (len < 0) {
            read_error(EMSGSIZE);
            return true;
        }
        if (len == 0) break;
        deliver_packet(static_cast<size_t>(len));
        delivered = true;
        if (passive) break;  // one packet per recv
    }
    return delivered;
}

void TcpInet::deliver_packet(size_t len) {
    const auto* p = reinterpret_cast<const uint8_t*>(in_.data());
    PacketType t = packet_type_of(opt.packet);
    stats.received(len);
    if (DistChannel* d = port->dist(); d && opt.active != INET_PASSIVE && !is_http(t)) {
        // A distribution connection's packet: the distribution layer's, not the owner's.
        size_t off, body;
        packet_body(t, p, len, off, body);
        bool ok = d->received(p + off, body);
        in_.consume(len);
        if (!ok) port->exit(atom("dist_bad_packet"));
        return;
    }
    LiteralArea scratch;
    Term payload;
    bool http = is_http(t);
    if (http) {
        bool as_binary = t == PacketType::HttpBin || t == PacketType::HttpHBin;
        Term bin = make_binary(scratch, p, len);
        const uint8_t* base = binary_data_base(bin);
        HttpStrings out{scratch, as_binary, bin, base, len};
        payload = parse_http_packet(out, base, len, http_header_);
    } else {
        size_t off, body;
        packet_body(t, p, len, off, body);
        payload = data_term(scratch, p + off, body);
    }
    in_.consume(len);
    emit(payload, http);
}

// A whole packet to its receiver: the waiting recv in passive mode, a message in active mode.
void TcpInet::emit(Term payload, bool http) {
    LiteralArea scratch;
    if (opt.active == INET_PASSIVE) {
        Op op = take_recv();
        reply_async(op.ref, op.caller, make_tuple(scratch, {am::ok, payload}));
        if (!has_recv() && (armed & EPOLLIN)) want(armed & ~EPOLLIN);
        schedule_timer();
        return;
    }
    if (!opt.deliver_term) send_to_owner({port->id(), make_tuple(scratch, {atoms::data(), payload})});
    else if (http) send_to_owner({atoms::http(), port->id(), payload});
    else send_to_owner({atoms::tcp(), port->id(), payload});
    count_active_delivery();
}

// The length header of a large packet is in the buffer: its body is read into a blob of its
// own from here on (what is buffered already is copied in).
bool TcpInet::start_large_packet() {
    constexpr size_t LARGE = 4096;
    size_t h = opt.packet == TCP_PB_1 ? 1 : opt.packet == TCP_PB_2 ? 2 : opt.packet == TCP_PB_4 ? 4 : 0;
    if (!h || !opt.binary || opt.header || in_.size() < h) return false;
    size_t len = 0;
    for (size_t i = 0; i < h; ++i) len = (len << 8) | static_cast<uint8_t>(in_.data()[i]);
    if (len < LARGE || in_.size() - h >= len) return false;
    if (opt.packet_size && len > opt.packet_size) return false;  // the framing reports emsgsize
    large_ = BinaryBlob::create(len);
    large_->size = len;
    large_have_ = in_.size() - h;
    std::memcpy(large_->data, in_.data() + h, large_have_);
    in_.clear();
    stats.received(len);
    return true;
}

bool TcpInet::read_large_packet() {
    ssize_t n = ::recv(fd, large_->data + large_have_, large_->size - large_have_, 0);
    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) return false;
        large_->release();
        large_ = nullptr;
        if (n == 0 || (errno == ECONNRESET && !opt.show_econnreset)) recv_closed();
        else read_error(errno);
        return true;
    }
    large_have_ += static_cast<size_t>(n);
    if (large_have_ < large_->size) {
        short_read_ = true;  // the socket had less than the packet needs: drained
        return true;
    }
    if (DistChannel* d = port->dist(); d && opt.active != INET_PASSIVE) {
        BinaryBlob* blob = std::exchange(large_, nullptr);
        bool ok = d->received(reinterpret_cast<const uint8_t*>(blob->data), blob->size);
        blob->release();
        if (!ok) {
            port->exit(atom("dist_bad_packet"));
            return true;
        }
        deliver();
        return true;
    }
    LiteralArea scratch;
    Term payload = make_binary_from_blob(scratch, large_);  // the term's reference now
    large_ = nullptr;
    emit(payload, false);
    deliver();  // what came after it, if the mode still takes it
    return true;
}

// Reads what the socket has (one read of up to the buffer size, or what the packet needs),
// then delivers what is whole. False when the socket had nothing to read.
bool TcpInet::read_socket() {
    if (fd < 0 || !(state & INET_F_ACTIVE)) return false;
    if (large_ || start_large_packet()) return read_large_packet();
    size_t need;
    int64_t whole = first_packet(&need);
    if (whole < 0) {
        read_error(EMSGSIZE);
        return true;
    }
    size_t chunk = std::max<size_t>(need, opt.buffer);
    chunk = std::min(chunk, std::max<size_t>(need, READ_CHUNK_MAX));
    ssize_t n = ::recv(fd, in_.tail(chunk), chunk, 0);
    short_read_ = n >= 0 && static_cast<size_t>(n) < chunk;
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) return false;
        if (errno == ECONNRESET && !opt.show_econnreset) recv_closed();
        else read_error(errno);
        return true;
    }
    if (n == 0) {
        recv_closed();
        return true;
    }
    in_.commit(static_cast<size_t>(n));
    deliver();
    return true;
}

// The peer closed (inet_drv's tcp_recv_closed).
void TcpInet::recv_closed() {
    in_.clear();
    if (busy_) end_busy(atom("closed"));
    delayed_close_send_ = true;
    if (opt.active == INET_PASSIVE) {
        fail_all(atom("closed"));
        if (opt.exit_on_close) close_socket();
        else close_read();
        return;
    }
    send_to_owner({atom("tcp_closed"), port->id()});
    if (opt.exit_on_close) port->exit(am::normal);
    else close_read();
}

// A read error (inet_drv's tcp_recv_error).
void TcpInet::read_error(int err) {
    in_.clear();
    if (busy_) end_busy(atom("closed"));
    Term reason = posix_error_atom(err);
    if (opt.active == INET_PASSIVE) {
        fail_all(reason);
        if (opt.exit_on_close) close_socket();
        else close_read();
        return;
    }
    send_to_owner({atom("tcp_error"), port->id(), reason});
    send_to_owner({atom("tcp_closed"), port->id()});
    if (opt.exit_on_close) port->exit(reason);
    else close_read();
}

void TcpInet::fail_all(Term reason) {
    std::deque<Op> ops;
    ops.swap(ops_);
    for (const Op& o : ops) reply_async_error(o.ref, o.caller, reason);
    schedule_timer();
}

// exit_on_close false: the socket stays connected for sending; reading stops (a later recv
// finds the end of input again).
void TcpInet::close_read() {
    read_closed_ = true;
    want(armed & ~EPOLLIN);
}

void TcpInet::close_socket() {
    out_.clear();
    out_at_ = 0;
    InetDesc::stop();
}

// ---------------------------------------------------------------------------------------
// Sending

void TcpInet::output(Term caller, std::string_view data) {
    std::span<const uint8_t> one(reinterpret_cast<const uint8_t*>(data.data()), data.size());
    send_pieces(caller, std::span(&one, 1), data.size());
}

// A distribution connection's packet, written without joining its pieces first.
void TcpInet::output_gather(std::span<const std::span<const uint8_t>> pieces, size_t size) {
    send_pieces(NIL, pieces, size);
}

// One unit of output (a packet of the socket's framing): straight to the socket when nothing
// is queued, the rest queued.
bool TcpInet::output_framed(std::span<const uint8_t> bytes) {
    if (opt.packet != TCP_PB_4) return false;
    send_pieces(NIL, std::span(&bytes, 1), bytes.size(), true);
    return true;
}

void TcpInet::send_pieces(Term caller, std::span<const std::span<const uint8_t>> pieces, size_t n, bool framed) {
    if ((state & INET_STATE_CONNECTED) != INET_STATE_CONNECTED) {
        if (delayed_close_send_) {
            delayed_close_send_ = false;
            if (delayed_econnreset_) inet_reply_error(caller, atom("econnreset"));
            else inet_reply_error(caller, atom("closed"));
        } else {
            inet_reply_error(caller, posix_error_atom(ENOTCONN));
        }
        return;
    }
    if (pending_shutdown_ >= 0) {  // a send after shutdown(write) fails as the socket's would
        send_error(caller, EPIPE);
        return;
    }
    char hdr[4];
    size_t hlen = 0;
    switch (opt.packet) {
    case TCP_PB_1: hlen = 1; break;
    case TCP_PB_2: hlen = 2; break;
    case TCP_PB_4: hlen = 4; break;
    default: break;
    }
    if (framed) hlen = 0;
    // A length that does not fit the header is cut to its low bytes, as inet_drv writes it.
    for (size_t i = 0; i < hlen; ++i) hdr[i] = static_cast<char>(n >> (8 * (hlen - 1 - i)));
    stats.sent(n);
    size_t queued_before = output_queued();
    if (queued_before == 0 && !opt.delay_send) {
        // Straight to the socket; what it does not take is queued.
        iovec iov[8];
        size_t cnt = 0;
        iov[cnt++] = {hdr, hlen};
        for (auto piece : pieces) {
            if (cnt == 8) break;  // more pieces than that are written by the queue
            iov[cnt++] = {const_cast<uint8_t*>(piece.data()), piece.size()};
        }
        ssize_t w = ::writev(fd, iov, int(cnt));
        if (w < 0 && errno != EAGAIN && errno != EINTR) {
            send_error(caller, errno);
            return;
        }
        size_t done = w > 0 ? static_cast<size_t>(w) : 0;
        if (done < hlen) out_.append(hdr + done, hlen - done);
        size_t skip = done > hlen ? done - hlen : 0;
        for (auto piece : pieces) {
            size_t k = std::min(skip, piece.size());
            skip -= k;
            out_.append(reinterpret_cast<const char*>(piece.data()) + k, piece.size() - k);
        }
    } else {
        out_.append(hdr, hlen);
        for (auto piece : pieces) out_.append(reinterpret_cast<const char*>(piece.data()), piece.size());
    }
    if (output_queued() > 0) {
        want(armed | EPOLLOUT);
        // Only a send that finds output already queued can make the port busy (inet_drv
        // writes the first straight away and queues what the socket left).
        if (queued_before > 0 && opt.send_timeout == 0 && output_queued() >= opt.high_watermark) {
            inet_reply_error(caller, atom("timeout"));  // send_timeout 0: polling the watermark
            return;
        }
        if (queued_before > 0 && output_queued() >= opt.high_watermark && !busy_) {
            // As inet_drv: the send that fills the queue past the high watermark is answered
            // when the queue is down to the low one (or send_timeout passes); meanwhile the
            // port is busy and other senders wait in the port system.
            busy_ = true;
            busy_caller_ = caller;
            state |= INET_F_BUSY;
            port->set_busy(true);
            send_deadline_ = opt.send_timeout >= 0 ? now_ms() + opt.send_timeout : -1;
            schedule_timer();
            return;
        }
    }
    inet_reply(caller, am::ok);
}

void TcpInet::write_queued() {
    while (output_queued() > 0) {
        ssize_t w = ::send(fd, out_.data() + out_at_, output_queued(), MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EAGAIN || errno == EINTR) break;
            send_error(NIL, errno);
            return;
        }
        out_at_ += static_cast<size_t>(w);
    }
    if (out_at_ == out_.size()) {
        out_.clear();
        out_at_ = 0;
    } else if (out_at_ > (1 << 20)) {  // keep the queue's dead prefix small
        out_.erase(0, out_at_);
        out_at_ = 0;
    }
    if (busy_ && output_queued() <= opt.low_watermark) end_busy(NIL);
    if (output_queued() > 0) {
        want(armed | EPOLLOUT);
        return;
    }
    want(armed & ~EPOLLOUT);
    if (empty_out_q_subscriber != NIL) {
        LiteralArea scratch;
        port->send(empty_out_q_subscriber, make_tuple(scratch, {atom("empty_out_q"), port->id()}));
        empty_out_q_subscriber = NIL;
    }
    if (pending_shutdown_ >= 0) {
        ::shutdown(fd, pending_shutdown_);
        pending_shutdown_ = -1;
    }
}

// The busy state ends: the waiting sender gets ok (the queue drained) or the error.
void TcpInet::end_busy(Term reason) {
    busy_ = false;
    state &= ~INET_F_BUSY;
    send_deadline_ = -1;
    port->set_busy(false);
    Term caller = busy_caller_;
    busy_caller_ = NIL;
    if (reason == NIL) inet_reply(caller, am::ok);
    else inet_reply_error(caller, reason);
    schedule_timer();
}

// A send failed (inet_drv's tcp_send_or_shutdown_error): the connection is over.
void TcpInet::send_error(Term caller, int err) {
    bool show = err == ECONNRESET && opt.show_econnreset;
    Term reason = show ? posix_error_atom(err) : atom("closed");
    if (busy_) {
        if (caller == NIL) caller = busy_caller_;  // the waiting sender hears of it
        busy_caller_ = NIL;
        end_busy(reason);
    }
    if (opt.active != INET_PASSIVE) {
        if (show) send_to_owner({atom("tcp_error"), port->id(), reason});
        send_to_owner({atom("tcp_closed"), port->id()});
        if (caller != NIL) inet_reply_error(caller, reason);
        if (opt.exit_on_close) port->exit(am::normal);
        else close_socket();
        return;
    }
    if (caller != NIL) inet_reply_error(caller, reason);
    else delayed_close_send_ = true;
    fail_all(reason);
    close_socket();
    delayed_close_recv_ = true;
    if (show) delayed_econnreset_ = true;
}

// ---------------------------------------------------------------------------------------
// Events, timers, options

void TcpInet::on_io(IoHandle, uint32_t events) {
    EventScope scope(*this);
    if (fd < 0) return;
    if ((state & INET_STATE_CONNECTING) == INET_STATE_CONNECTING && !(state & INET_F_ACTIVE)) {
        finish_connect();
        return;
    }
    if (state & INET_F_LISTEN) {
        try_accept();
        return;
    }
    if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) {
        if (output_queued() > 0) write_queued();
        if (fd < 0) return;
    }
    if (events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
        // After the peer closed (exit_on_close false) only a recv reads again.
        if ((opt.active != INET_PASSIVE && !read_closed_) || has_recv()) {
            // Active sockets read until the socket is drained or the mode turns passive;
            // bounded so one busy socket shares the poller thread with the others. A read
            // that got less than it asked for drained the socket, as inet_drv assumes: asking
            // again only to hear EAGAIN was half of a TLS echo's recv calls. (Data that comes
            // after it raises the event again once the socket is re-armed.)
            for (int i = 0; i < 16 && fd >= 0 && ((opt.active != INET_PASSIVE && !read_closed_) || has_recv()); ++i) {
                short_read_ = false;
                bool got = read_socket();
                if (fd < 0 || !(state & INET_F_ACTIVE)) return;
                if (!got || short_read_) break;  // drained
            }
        }
    }
    rearm();
}

void TcpInet::rearm() {
    if (fd < 0) return;
    uint32_t ev = 0;
    if (output_queued() > 0) ev |= EPOLLOUT;
    if ((state & INET_F_ACTIVE) && (opt.active != INET_PASSIVE || has_recv()) && !(read_closed_ && !has_recv()))
        ev |= EPOLLIN;
    want(ev);
}

void TcpInet::finish_connect() {
    auto it = std::find_if(ops_.begin(), ops_.end(), [](const Op& o) { return o.kind == Op::Connect; });
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
    if (it == ops_.end()) return;
    Op op = *it;
    ops_.erase(it);
    schedule_timer();
    if (err != 0) {
        // As inet_drv: the socket is not usable after a failed connect.
        state = INET_STATE_OPEN;
        reply_async_error(op.ref, op.caller, posix_error_atom(err));
        return;
    }
    state = INET_STATE_CONNECTED;
    reply_async(op.ref, op.caller, am::ok);
    rearm();
    if (opt.active != INET_PASSIVE) {
        want(EPOLLIN);
    }
}

void TcpInet::schedule_timer() {
    int64_t first = send_deadline_;
    for (const Op& o : ops_)
        if (o.deadline >= 0 && (first < 0 || o.deadline < first)) first = o.deadline;
    if (first < 0) {
        port->cancel_timer();
        return;
    }
    port->set_timer(std::max<int64_t>(first - now_ms(), 0));
}

void TcpInet::on_timeout() {
    int64_t t = now_ms();
    if (busy_ && send_deadline_ >= 0 && send_deadline_ <= t) {
        end_busy(atom("timeout"));
        if (opt.send_timeout_close) {
            close_socket();
            return;
        }
    }
    std::deque<Op> due;
    for (auto it = ops_.begin(); it != ops_.end();) {
        if (it->deadline >= 0 && it->deadline <= t) {
            due.push_back(*it);
            it = ops_.erase(it);
        } else {
            ++it;
        }
    }
    for (const Op& o : due) {
        if (o.kind == Op::Connect) {
            close_socket();  // as inet_drv: a timed-out connect leaves the socket unusable
        }
        reply_async_error(o.ref, o.caller, atom("timeout"));
    }
    if (state & INET_F_LISTEN) {
        if (accepting() == 0) {
            state &= ~(INET_F_ACC | INET_F_MULTI_CLIENT);
            want(0);
        }
    } else {
        rearm();
    }
    schedule_timer();
}

void TcpInet::options_changed(uint8_t old_active, bool active_changed, bool packet_changed) {
    if (fd < 0) {
        // Made active after the connection failed (inet_drv does the same): the reset if it
        // is to be shown, then tcp_closed.
        if (active_changed && opt.active != INET_PASSIVE && delayed_close_recv_) {
            if (delayed_econnreset_) {
                delayed_econnreset_ = false;
                send_to_owner({atom("tcp_error"), port->id(), atom("econnreset")});
            }
            send_to_owner({atom("tcp_closed"), port->id()});
            if (opt.exit_on_close) port->exit(am::normal);
        }
        return;
    }
    if (packet_changed) http_header_ = false;
    if (!(state & INET_F_ACTIVE)) return;
    if (opt.active != INET_PASSIVE && (active_changed || packet_changed)) {
        deliver();
        if (fd >= 0 && opt.active != INET_PASSIVE && old_active == INET_PASSIVE) read_socket();
    }
    rearm();
}

// The port closes (inet_drv's tcp_close_check): whoever waits on an accept, connect or recv
// gets {error, closed}; so does a send waiting for the queue to drain.
TcpInet::~TcpInet() {
    if (large_) large_->release();
}

void TcpInet::stop() {
    std::deque<Op> ops;
    ops.swap(ops_);
    for (const Op& o : ops) reply_async_error(o.ref, o.caller, atom("closed"));
    if (busy_caller_ != NIL) inet_reply_error(busy_caller_, atom("closed"));
    busy_caller_ = NIL;
    busy_ = false;
    out_.clear();
    out_at_ = 0;
    InetDesc::stop();
}

}  // namespace beam::inet

namespace beam {

std::unique_ptr<PortDriver> make_tcp_inet(std::string_view) { return std::make_unique<inet::TcpInet>(); }

}  // namespace beam

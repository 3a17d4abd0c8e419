// OTP's udp_inet driver, as prim_inet uses it for gen_udp: datagrams sent with
// port_command ([Address, AncLen:32, AncData, Data], answered {inet_reply, S, Status}),
// received passively (PACKET_REQ_RECV: {inet_async, S, Ref, {ok, [AddrBytes | Data]}}) or
// actively ({udp, S, IP, Port, Data}, up to read_packets datagrams per readiness, active once
// and N with {udp_passive, S}), UDP connect, ancillary data (tos, tclass, ttl). Every method
// runs with the port system's lock held.
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "io/inet/inet_atoms.hpp"
#include "bifs/bif_util.hpp"
#include "bifs/posix_errors.hpp"
#include "io/inet/inet_desc.hpp"
#include "vm/binary.hpp"
#include "vm/heap.hpp"

namespace beam::inet {

namespace {

constexpr uint32_t INFINITE_TIME = 0xffffffffu;

// The IP (a tuple) and port of an address in the drivers' encoding, as inet_drv's
// load_address builds them: {A,B,C,D} / {A,...,H} and the port; {local, Path} and 0.
std::pair<Term, Term> address_terms(TermAllocator& a, const std::string& enc) {
    const auto* b = reinterpret_cast<const uint8_t*>(enc.data());
    switch (enc.empty() ? 0u : b[0]) {
    case INET_AF_INET: {
        Term port = make_small((b[1] << 8) | b[2]);
        return {make_tuple(a, {make_small(b[3]), make_small(b[4]), make_small(b[5]), make_small(b[6])}), port};
    }
    case INET_AF_INET6: {
        Term port = make_small((b[1] << 8) | b[2]);
        Term w[8];
        for (int i = 0; i < 8; ++i) w[i] = make_small((b[3 + 2 * i] << 8) | b[4 + 2 * i]);
        return {make_tuple_from(a, w, 8), port};
    }
    case INET_AF_LOCAL:
        return {make_tuple(a, {atom("local"), make_binary(a, b + 2, b[1])}), make_small(0)};
    case INET_AF_UNSPEC: return {make_tuple(a, {atom("unspec"), make_binary(a, b, 0)}), make_small(0)};
    default: return {make_tuple(a, {am::undefined, make_binary(a, b, 0)}), make_small(0)};
    }
}

int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class UdpInet final : public InetDesc {
public:
    UdpInet() : InetDesc(SOCK_DGRAM) {}


    std::optional<std::string> control_proto(Term who, unsigned op, std::string_view data) override {
        switch (op) {
        case INET_REQ_CONNECT: return request_connect(who, data);
        case PACKET_REQ_RECV: return request_recv(who, data);
        case INET_REQ_LISTEN: return reply_error_atom("exbadport");  // SCTP only
        default: return std::nullopt;
        }
    }

    void output(Term caller, std::string_view data) override {
        if (!(state & INET_F_OPEN)) return inet_reply_error(caller, posix_error_atom(EINVAL));
        sockaddr_storage to;
        socklen_t to_len;
        std::string_view in = data;
        if (!decode_address(in, family, to, to_len)) return inet_reply_error(caller, posix_error_atom(EINVAL));
        uint32_t anc_len;
        if (!get_u32(in, anc_len) || in.size() < anc_len) return inet_reply_error(caller, posix_error_atom(EINVAL));
        std::string_view anc = in.substr(0, anc_len);
        std::string_view payload = in.substr(anc_len);
        stats.sent(payload.size());
        msghdr m{};
        iovec iov{const_cast<char*>(payload.data()), payload.size()};
        m.msg_iov = &iov;
        m.msg_iovlen = 1;
        if (!(state & INET_F_ACTIVE)) {  // connected sockets ignore the address
            m.msg_name = &to;
            m.msg_namelen = to_len;
        }
        alignas(cmsghdr) char control[2 * CMSG_SPACE(sizeof(int))] = {};
        if (!anc.empty()) {
            m.msg_control = control;
            m.msg_controllen = sizeof control;
            if (!compile_ancillary(m, anc)) return inet_reply_error(caller, posix_error_atom(EINVAL));
        }
        if (::sendmsg(fd, &m, MSG_NOSIGNAL) < 0) return inet_reply_error(caller, posix_error_atom(errno));
        inet_reply(caller, am::ok);
    }

    void on_io(IoHandle, uint32_t) override {
        EventScope scope(*this);
        if (fd < 0) return;
        read_datagrams();
        rearm();
    }

    void on_timeout() override {
        if (recv_ && recv_->deadline >= 0 && recv_->deadline <= now_ms()) {
            Recv r = *recv_;
            recv_.reset();
            reply_async_error(r.ref, r.caller, atom("timeout"));
            rearm();
        }
    }

    void options_changed(uint8_t, bool active_changed, bool) override {
        if (fd >= 0 && active_changed) rearm();
    }

    void passive_reached() override { send_to_owner({atom("udp_passive"), port->id()}); }
    void opened() override { rearm(); }

    void stop() override {
        if (recv_) reply_async_error(recv_->ref, recv_->caller, atom("closed"));
        recv_.reset();
        InetDesc::stop();
    }

private:
    struct Recv {
        uint16_t ref;
        Term caller;
        int64_t deadline;
    };

    std::optional<std::string> request_connect(Term who, std::string_view data) {
        if (!(state & INET_F_OPEN)) return reply_error_atom("exbadport");
        uint16_t ref = next_ref++;
        std::string r;
        put_u16(r, ref);
        sockaddr unspec{};
        unspec.sa_family = AF_UNSPEC;
        if (data.empty()) {  // dissolve the association
            ::connect(fd, &unspec, sizeof unspec);
            state &= ~INET_F_ACTIVE;
            reply_async(ref, who, am::ok);
            return reply_ok(r);
        }
        if (data.size() < 6) return reply_error(EINVAL);
        data.remove_prefix(4);  // the timeout: a UDP connect never waits
        sockaddr_storage sa;
        socklen_t len;
        if (!decode_address(data, family, sa, len)) return reply_error(EINVAL);
        // Linux keeps the old source address when a connected socket connects elsewhere.
        if (state & INET_F_ACTIVE) ::connect(fd, &unspec, sizeof unspec);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), len) != 0) {
            int err = errno;
            ::connect(fd, &unspec, sizeof unspec);
            state &= ~INET_F_ACTIVE;
            return reply_error(err);
        }
        state |= INET_F_ACTIVE;
        reply_async(ref, who, am::ok);
        return reply_ok(r);
    }

    std::optional<std::string> request_recv(Term who, std::string_view data) {
        if (!(state & INET_F_OPEN)) return reply_error_atom("exbadport");
        if (opt.active != INET_PASSIVE || data.size() != 8) return reply_error(EINVAL);
        if (recv_) return reply_error(EALREADY);
        uint32_t timeout;
        get_u32(data, timeout);  // the length that follows is ignored: one datagram is one packet
        uint16_t ref = next_ref++;
        std::string r;
        put_u16(r, ref);
        recv_ = Recv{ref, who, timeout == INFINITE_TIME ? -1 : now_ms() + timeout};
        read_datagrams();
        if (recv_) {
            if (recv_->deadline >= 0) port->set_timer(timeout);
            rearm();
        }
        return reply_ok(r);
    }

    void rearm() {
        if (fd < 0) return;
        want(opt.active != INET_PASSIVE || recv_ ? uint32_t{EPOLLIN} : 0u);
    }

    // Reads up to read_packets datagrams (one for a passive recv) and delivers each.
    void read_datagrams() {
        for (uint32_t i = 0; i < opt.read_packets && fd >= 0; ++i) {
            if (opt.active == INET_PASSIVE && !recv_) return;
            if (rbuf_size_ != opt.buffer) {  // one buffer, kept: no allocation or zero fill per datagram
                rbuf_ = std::make_unique_for_overwrite<char[]>(opt.buffer);
                rbuf_size_ = opt.buffer;
            }
            char* buf = rbuf_.get();
            sockaddr_storage from{};
            iovec iov{buf, rbuf_size_};
            alignas(cmsghdr) char control[256];
            msghdr m{};
            m.msg_name = &from;
            m.msg_namelen = sizeof from;
            m.msg_iov = &iov;
            m.msg_iovlen = 1;
            if (opt.recv_cmsg) {
                m.msg_control = control;
                m.msg_controllen = sizeof control;
            }
            ssize_t n = ::recvmsg(fd, &m, 0);
            if (n < 0) {
                if (errno == EAGAIN || errno == EINTR) return;
                read_error(errno);
                return;
            }
            stats.received(static_cast<size_t>(n));
            std::string addr;
            if ((state & INET_F_ACTIVE) && m.msg_namelen == 0) {
                sockaddr_storage peer;
                socklen_t plen = sizeof peer;
                ::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &plen);
                encode_address(addr, reinterpret_cast<sockaddr*>(&peer), plen);
            } else {
                encode_address(addr, reinterpret_cast<sockaddr*>(&from), m.msg_namelen);
            }
            deliver(addr, buf, static_cast<size_t>(n), opt.recv_cmsg ? &m : nullptr);
        }
    }

    // [H1..Hh | Data] over prefix ++ data, h = the header option plus `list_prefix` bytes:
    // list mode, or a header longer than the data, makes it all a list. A passive recv's
    // address comes as list bytes; deliver port keeps it inside the binary (as inet_drv).
    Term data_with_header(TermAllocator& a, const std::string& prefix, const char* p, size_t n, bool list_prefix = true) {
        std::string all = prefix;
        all.append(p, n);
        const auto* b = reinterpret_cast<const uint8_t*>(all.data());
        size_t h = (list_prefix ? prefix.size() : 0) + opt.header;
        if (!opt.binary || h > all.size()) return make_byte_list(a, b, all.size());
        return make_byte_list(a, b, h, make_binary(a, b + h, all.size() - h));
    }

    Term ancillary_terms(TermAllocator& a, msghdr* m) {
        std::vector<Term> items;
        for (cmsghdr* c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
            const char* name = nullptr;
            if (c->cmsg_level == IPPROTO_IP && (c->cmsg_type == IP_TOS || c->cmsg_type == IP_RECVTOS)) name = "tos";
            else if (c->cmsg_level == IPPROTO_IPV6 && (c->cmsg_type == IPV6_TCLASS || c->cmsg_type == IPV6_RECVTCLASS))
                name = "tclass";
            else if (c->cmsg_level == IPPROTO_IP && (c->cmsg_type == IP_TTL || c->cmsg_type == IP_RECVTTL)) name = "ttl";
            if (!name) continue;
            size_t len = c->cmsg_len - CMSG_LEN(0);
            int64_t v = 0;
            const unsigned char* d = CMSG_DATA(c);
            if (len == 1) v = d[0];
            else if (len == 2) { uint16_t x; std::memcpy(&x, d, 2); v = x; }
            else if (len >= 4) { uint32_t x; std::memcpy(&x, d, 4); v = x; }
            items.push_back(make_tuple(a, {atom(name), make_small(v)}));
        }
        return make_list_from(a, items.data(), items.size());
    }

    void deliver(const std::string& addr, const char* p, size_t n, msghdr* m) {
        LiteralArea scratch;
        if (opt.active == INET_PASSIVE) {
            Recv r = *recv_;
            recv_.reset();
            port->cancel_timer();
            Term data = data_with_header(scratch, addr, p, n);
            if (m) data = make_tuple(scratch, {data, ancillary_terms(scratch, m)});
            reply_async(r.ref, r.caller, make_tuple(scratch, {am::ok, data}));
            return;
        }
        if (!opt.deliver_term) {
            send_to_owner({port->id(), make_tuple(scratch, {atoms::data(), data_with_header(scratch, addr, p, n, false)})});
        } else {
            auto [ip, prt] = address_terms(scratch, addr);
            Term data = data_with_header(scratch, std::string(), p, n);
            if (m) send_to_owner({atoms::udp(), port->id(), ip, prt, ancillary_terms(scratch, m), data});
            else send_to_owner({atoms::udp(), port->id(), ip, prt, data});
        }
        count_active_delivery();
    }

    void read_error(int err) {
        if (opt.active == INET_PASSIVE) {
            if (recv_) {
                Recv r = *recv_;
                recv_.reset();
                port->cancel_timer();
                reply_async_error(r.ref, r.caller, posix_error_atom(err));
            }
            return;
        }
        send_to_owner({atom("udp_error"), port->id(), posix_error_atom(err)});
    }

    // tos, ttl and tclass as sendmsg ancillary data: Opt:8, Value:32 each.
    bool compile_ancillary(msghdr& m, std::string_view anc) {
        size_t used = 0;
        cmsghdr* c = CMSG_FIRSTHDR(&m);
        while (!anc.empty()) {
            if (!c) return false;
            unsigned o = static_cast<uint8_t>(anc[0]);
            anc.remove_prefix(1);
            uint32_t v;
            if (!get_u32(anc, v)) return false;
            int level, type;
            if (o == INET_OPT_TOS) level = IPPROTO_IP, type = IP_TOS;
            else if (o == INET_OPT_TTL) level = IPPROTO_IP, type = IP_TTL;
            else if (o == INET_OPT_TCLASS) level = IPPROTO_IPV6, type = IPV6_TCLASS;
            else return false;
            c->cmsg_level = level;
            c->cmsg_type = type;
            c->cmsg_len = CMSG_LEN(sizeof(int));
            int iv = static_cast<int>(v);
            std::memcpy(CMSG_DATA(c), &iv, sizeof iv);
            used += CMSG_SPACE(sizeof(int));
            c = CMSG_NXTHDR(&m, c);  // with the whole buffer's length: the next slot
        }
        m.msg_controllen = used;
        return true;
    }

    std::optional<Recv> recv_;
    std::unique_ptr<char[]> rbuf_;
    size_t rbuf_size_ = 0;
};

}  // namespace

}  // namespace beam::inet

namespace beam {

std::unique_ptr<PortDriver> make_udp_inet(std::string_view) { return std::make_unique<inet::UdpInet>(); }

}  // namespace beam

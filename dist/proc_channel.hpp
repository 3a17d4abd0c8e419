// A connection carried by an Erlang process instead of a port (erts' process carriers: OTP's
// gen_tcp_dist example, inet_tls_dist, erl_uds_dist). The controlling process moves bytes
// itself: it takes each outgoing packet (without its length: it frames them) with
// erlang:dist_ctrl_get_data/1, asks to be told by a `dist_data` message when some wait
// (dist_ctrl_get_data_notification/1), and hands each incoming packet to the same receive
// path as port carriers (dist/carrier.hpp) with dist_ctrl_put_data/2. Its exit ends the
// connection, with its exit reason as the nodedown reason.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <atomic>
#include <mutex>
#include <span>
#include <vector>

#include "dist/dist_entry.hpp"
#include "dist/wire_frame.hpp"
#include "vm/binary.hpp"
#include "scheduler/native_monitors.hpp"

namespace beam {
class VM;
namespace dist {

class Carrier;
class DistSystem;

class ProcChannel final : public ExitWatcher, public std::enable_shared_from_this<ProcChannel> {
public:
    ProcChannel(DistSystem& d, std::shared_ptr<DistEntry> e, uint32_t conn_id, Term controller, uint64_t flags);
    ~ProcChannel() override;

    const Term controller;
    const uint32_t conn_id;
    const uint64_t flags;

    // Frames an encoded message into packets and queues them for the controller; `atoms`:
    // what its ATOM_CACHE_REFs stand for. Sends `dist_data` if the controller asked to be told.
    void queue(const Queued& q, std::span<const Term> atoms);
    // A packet waiting for the controller: one over HEAP_BIN_LIMIT bytes is written straight
    // into a blob that dist_ctrl_get_data/1 hands out as its binary (no second copy).
    struct Packet {
        struct Release {
            void operator()(BinaryBlob* b) const { b->release(); }
        };
        std::unique_ptr<BinaryBlob, Release> blob;
        std::vector<uint8_t> small;
        size_t size() const { return blob ? blob->size : small.size(); }
    };
    // The next packet, false when none waits.
    bool take(Packet& out);
    // dist_ctrl_get_data_notification/1: true if data waits now (the caller then sends
    // dist_data itself); else the next queued packet sends it once.
    bool request_notification();
    // One incoming packet (empty: a tick). False when malformed: the caller ends the connection.
    bool put(const uint8_t* data, size_t size);

    std::atomic<bool> get_size{false};
    std::atomic<Word> input_handler{NIL.raw};
    uint64_t received() const { return in_.load(std::memory_order_relaxed); }
    uint64_t sent() const { return out_.load(std::memory_order_relaxed); }
    // Bytes queued for the controller (dist_get_stat/1's PendingSend, as erts' queue size).
    uint64_t pending_bytes();

    // ExitWatcher: the controller has exited.
    void on_exit(Term pid, uint64_t id) override;

private:
    DistSystem& dist_;
    std::shared_ptr<DistEntry> entry_;
    std::shared_ptr<Carrier> rx_;   // the receive side and the send atom cache
    std::mutex send_mu_;            // queue_, notify_, and the carrier's send atom cache
    std::deque<Packet> queue_;
    uint64_t queued_bytes_ = 0;
    bool notify_ = false;
    std::mutex recv_mu_;            // one packet at a time through the receive state
    std::atomic<uint64_t> in_{0}, out_{0};
};

}  // namespace dist
}  // namespace beam

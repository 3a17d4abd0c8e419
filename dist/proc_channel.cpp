// A connection carried by a process: see dist/proc_channel.hpp.
#include "dist/proc_channel.hpp"

#include <algorithm>

#include "dist/carrier.hpp"
#include "dist/dist_system.hpp"
#include "scheduler/signals.hpp"
#include "vm/vm.hpp"

namespace beam::dist {

ProcChannel::ProcChannel(DistSystem& d, std::shared_ptr<DistEntry> e, uint32_t id, Term ctrl, uint64_t f)
    : controller(ctrl), conn_id(id), flags(f), dist_(d), entry_(e),
      rx_(std::make_shared<Carrier>(d, e, id, nullptr, f, ctrl)) {
    input_handler.store(ctrl.raw);  // the controller until dist_ctrl_input_handler/2 names another
}

ProcChannel::~ProcChannel() = default;

void ProcChannel::queue(const Queued& q, std::span<const Term> atoms) {
    FrameOptions fo;
    fo.header_mode = (flags & (flag::DIST_HDR_ATOM_CACHE | flag::FRAGMENTS)) != 0;
    fo.fragments = (flags & flag::FRAGMENTS) != 0;
    // All of one message's packets are queued under send_mu_, so no two messages' fragments
    // interleave (as under a port's lock) and the atom cache header goes out in queue order.
    fo.sequence_id = 1;
    bool tell = false;
    {
        std::lock_guard lock(send_mu_);
        if (!atoms.empty()) rx_->send_cache_header(atoms, fo.cache_header);
        (void)for_each_packet(q.control, q.payload, fo, [&](const PacketPieces& pk) {
            Packet packet;
            if (pk.size > HEAP_BIN_LIMIT) {
                packet.blob.reset(BinaryBlob::create(pk.size));
                uint8_t* at = packet.blob->data;
                for (auto piece : pk.view()) at = std::copy(piece.begin(), piece.end(), at);
                packet.blob->size = pk.size;
            } else {
                packet.small.reserve(pk.size);
                for (auto piece : pk.view()) packet.small.insert(packet.small.end(), piece.begin(), piece.end());
            }
            queued_bytes_ += pk.size;
            queue_.push_back(std::move(packet));
        });
        tell = notify_ && !queue_.empty();
        if (tell) notify_ = false;
    }
    if (tell) post_message(dist_.vm, controller, atom("dist_data"));
}

bool ProcChannel::take(Packet& out) {
    std::lock_guard lock(send_mu_);
    if (queue_.empty()) return false;
    out = std::move(queue_.front());
    queued_bytes_ -= out.size();
    queue_.pop_front();
    out_.fetch_add(1, std::memory_order_relaxed);
    return true;
}

bool ProcChannel::request_notification() {
    std::lock_guard lock(send_mu_);
    if (!queue_.empty()) return true;
    notify_ = true;
    return false;
}

uint64_t ProcChannel::pending_bytes() {
    std::lock_guard lock(send_mu_);
    return queued_bytes_;
}

bool ProcChannel::put(const uint8_t* data, size_t size) {
    std::lock_guard lock(recv_mu_);
    in_.fetch_add(1, std::memory_order_relaxed);  // ticks count too: dist_util's tick check reads it
    return rx_->received(data, size);
}

void ProcChannel::on_exit(Term, uint64_t) {
    Term reason = native_exit_reason();
    dist_.connection_lost(*entry_, conn_id, reason == NIL ? am::normal : reason);
}

}  // namespace beam::dist

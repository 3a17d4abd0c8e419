// The receiving end of a connection: the port that carries it hands each packet here (with
// the port's lock held), or, for a connection carried by a process (dist/proc_channel.hpp,
// `port` null), dist_ctrl_put_data/2 does (under the channel's receive lock); each control
// message becomes a signal to a local process, exactly as if a local process had sent it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "dist/dist_entry.hpp"
#include "dist/wire_frame.hpp"
#include "vm/heap.hpp"
#include "scheduler/port_driver.hpp"

namespace beam {
namespace dist {

class DistSystem;

class Carrier final : public DistChannel {
public:
    // `carrier_id`: the port or controlling process, named in the log of a malformed packet.
    Carrier(DistSystem& d, std::shared_ptr<DistEntry> e, uint32_t conn_id, Port* port, uint64_t flags,
            Term carrier_id);
    bool received(const uint8_t* data, size_t size) override;
    void port_closed(Term reason) override;
    void flush_output() override;

    // Adds a packet to the output held until the current time slice ends; false when the
    // packet is to be written at once instead (too large: only small ones wait). `port` is
    // this carrier's, locked by the caller.
    bool hold(const std::shared_ptr<Port>& port, const PacketPieces& pk);

    // The carrier port whose reader runs on this thread, if any: a reply written while a
    // packet is being handled goes out on that port without taking its lock again.
    static Port* port_held();

    // The atom cache part of the header of the next message written on this connection, whose
    // ATOM_CACHE_REFs stand for `atoms`; `out` stays valid until the next call. Called with
    // the port's lock held (or by the carrier's reader).
    void send_cache_header(std::span<const Term> atoms, std::span<const uint8_t>& out) {
        tx_.header(atoms, tx_header_);
        out = tx_header_;
    }

private:
    bool decode(const uint8_t* data, size_t size, std::string& why);
    // One control message (and its payload, NON_VALUE for none), decoded.
    bool dispatch(LiteralArea& area, Term control, Term payload);
    bool handle_spawn_request(LiteralArea& area, Term control, Term args);
    bool handle_spawn_reply(Term control);

    DistSystem& dist_;
    std::shared_ptr<DistEntry> entry_;
    uint32_t conn_id_;
    Port* port_;  // null for a process carrier
    Term carrier_id_;
    ReceiveState rx_;       // the atom cache and fragments being reassembled
    ReceivedMessage msg_;   // reused for each packet
    LiteralArea scratch_;   // the decoded terms of the packet being handled
    SendAtomCache tx_;      // what the other node's receive cache holds
    std::vector<uint8_t> tx_header_;
    std::vector<uint8_t> held_;  // packets with their 4-byte lengths, for flush_output
};

}  // namespace dist
}  // namespace beam

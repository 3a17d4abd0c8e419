// Framing of distribution packets after the handshake (OTP 25's erl_dist_protocol, "Protocol
// between Connected Nodes", and erl_ext_dist, "Distribution Header"): what one packet-4 frame of
// a distribution connection holds, on both sides. The control message and payload terms
// themselves are encoded and decoded by vm/ext_term.hpp; this layer only frames them, keeps the
// connection's receive atom cache and reassembles fragmented messages.
//
// A packet (its 4-byte length already removed by the socket driver) is one of:
//   empty                                   a tick
//   112 Ctl Payload?                        pass-through: each term whole, with its 131 byte
//                                           (neither DIST_HDR_ATOM_CACHE nor FRAGMENTS agreed)
//   131 68 Hdr Ctl Payload?                 normal header: Hdr updates the atom cache and lists
//                                           the atoms ATOM_CACHE_REF (tag 82) refers to; the
//                                           terms have no 131 byte
//   131 69 Seq:8 Frag:8 Hdr Data            first fragment of message Seq, Frag = fragment count
//   131 70 Seq:8 Frag:8 Data                next fragments, Frag counting down to 1 (the last)
// Hdr is NumberOfAtomCacheRefs, then (when it is not 0) N/2+1 bytes of half-byte flags and the
// references: new entries carry the atom text, old ones a slot of the 2048-entry cache.
// Fragments of different sequences may interleave; OTP's sender uses the sending process's pid
// as Seq, so one process never has two sequences in flight.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "vm/result.hpp"
#include "vm/term.hpp"

namespace beam::dist {

namespace wire {
inline constexpr uint8_t VERSION = 131;
inline constexpr uint8_t PASS_THROUGH = 112;
inline constexpr uint8_t DIST_HEADER = 68;
inline constexpr uint8_t DIST_FRAG_HEADER = 69;
inline constexpr uint8_t DIST_FRAG_CONT = 70;
inline constexpr size_t FRAG_HEADER_BYTES = 1 + 1 + 8 + 8;  // 131, 69|70, SequenceId, FragmentId
// 8 segments of 256 entries (erts' ERTS_ATOM_CACHE_SIZE).
inline constexpr size_t ATOM_CACHE_SIZE = 2048;
// OTP's sender splits a message into fragments of this many bytes of term data (dist.h,
// ERTS_DIST_FRAGMENT_SIZE of a non-debug emulator); headers come on top.
inline constexpr size_t DEFAULT_FRAGMENT_SIZE = 64 * 1024;
// What a connection may hold in partly received fragmented messages unless told otherwise.
// OTP has no limit of its own (any message erl can build is sent); 1 GiB lets every message a
// test or a real cluster sends through while keeping a corrupt or hostile peer from making the
// node allocate without bound.
inline constexpr size_t DEFAULT_MAX_BUFFERED = size_t(1) << 30;
}  // namespace wire

// One connection's receive side: the atom cache the other node's headers update and the
// fragmented messages it has begun but not finished. Only the connection's reader uses it.
class ReceiveState {
public:
    // header_mode: DIST_HDR_ATOM_CACHE or FRAGMENTS was agreed in the handshake (OTP then sends
    // every message with a 131 68/69/70 header, never 112). fragments: FRAGMENTS was agreed
    // (131 69/70 accepted; it implies header mode, as in erts). max_buffered: bound on the bytes of partial messages (their data and
    // their atom lists) held at once; a packet that would exceed it is an Error.
    explicit ReceiveState(bool header_mode, bool fragments, size_t max_buffered = wire::DEFAULT_MAX_BUFFERED);

    bool header_mode() const { return header_mode_; }
    bool fragments() const { return fragments_; }
    // The atom in cache slot `ix` (segment * 256 + index), NON_VALUE while the slot is empty.
    Term cached_atom(size_t ix) const { return ix < cache_.size() ? cache_[ix] : NON_VALUE; }
    size_t buffered_bytes() const { return buffered_; }
    size_t sequences_in_progress() const { return sequences_.size(); }

private:
    friend struct ReceiveAccess;
    struct Sequence {
        std::vector<uint8_t> data;  // control and payload bytes received so far
        std::vector<Term> atoms;    // the first fragment's header (the cache may change meanwhile)
        uint64_t next_fragment;     // the FragmentId the next 131 70 of this sequence must carry
        size_t accounted;           // what this sequence counts in buffered_
    };
    bool header_mode_, fragments_;
    size_t max_buffered_;
    size_t buffered_ = 0;
    std::array<Term, wire::ATOM_CACHE_SIZE> cache_;
    std::unordered_map<uint64_t, Sequence> sequences_;
};

// One whole control message with its payload.
//
// Lifetime: a message that came in one packet refers into that packet's bytes (`data()` is valid
// while the caller keeps the packet); a reassembled one owns its bytes (`data()` is valid while
// the ReceivedMessage lives and is not reused; moving it keeps them valid, copying does not
// re-point them). parse_packet reuses `out`'s buffers, so decode a message before parsing the
// next packet into the same object.
struct ReceivedMessage {
    // The control term followed by the payload term, if any.
    std::span<const uint8_t> data() const { return reassembled ? std::span<const uint8_t>(owned) : borrowed; }
    // true (header mode): the terms have no 131 byte and may hold ATOM_CACHE_REF, an index into
    // `atoms`. false (pass-through): each term starts with 131 and `atoms` is empty.
    bool versionless = false;
    std::vector<Term> atoms;

    bool reassembled = false;
    std::span<const uint8_t> borrowed;  // into the packet, when !reassembled
    std::vector<uint8_t> owned;         // the fragments' data joined, when reassembled
};

enum class PacketKind : uint8_t {
    Tick,        // an empty packet (net_kernel's tick): nothing to deliver
    Incomplete,  // a fragment of a message that has more to come
    Complete,    // `out` holds a whole message
};

// Reads one packet of a connection. Malformed input (bad lengths, cache slots never filled, atoms
// that are not UTF-8 or longer than 255 characters, a header the agreed flags do not allow,
// fragments out of order or of an unknown sequence, more buffered than the state allows) is an
// Error with the reason; after an Error the connection is to be closed (the state stays safe to
// use and destroy, but may hold cache entries of the bad packet).
Result<PacketKind> parse_packet(std::span<const uint8_t> packet, ReceiveState& state, ReceivedMessage& out);

// ---- Sending ----

// How frame_message cuts a message, from the flags the handshake agreed.
struct FrameOptions {
    bool header_mode = false;  // DIST_HDR_ATOM_CACHE or FRAGMENTS agreed: 131 68 0, terms without 131
    bool fragments = false;    // FRAGMENTS agreed (needs header_mode): split larger messages
    // Distinguishes this message's fragments from other messages' on the connection; must not
    // be 0 when fragmenting (OTP's receiver takes a first fragment of sequence 0 for a whole
    // message) and must not be in use by another unfinished message on the connection.
    uint64_t sequence_id = 0;
    size_t fragment_size = wire::DEFAULT_FRAGMENT_SIZE;  // term bytes per fragment (>= 1)
    // Header mode: the header's atom cache part, from NumberOfAtomCacheRefs on
    // (SendAtomCache::header); empty for a message without references (a single 0).
    std::span<const uint8_t> cache_header;
};

// One connection's send side of the atom cache: the atom each of the 2048 slots holds at the
// receiving end, as the headers sent so far have set them. Only the connection's writer (under
// its lock) uses it, in the order the messages go out.
class SendAtomCache {
public:
    // Writes to `out` (replacing its contents) the header part for a message whose
    // ATOM_CACHE_REF i stands for atoms[i] (at most 255): NumberOfAtomCacheRefs, the flags,
    // then each reference, with the text for atoms the receiver's slot does not hold yet.
    // The slot of an atom is its atom table index modulo 2048.
    void header(std::span<const Term> atoms, std::vector<uint8_t>& out);

private:
    std::array<Term, wire::ATOM_CACHE_SIZE> slots_;  // NON_VALUE while never sent
};

// One packet as a list of byte ranges to be written one after the other (an iovec): its header
// (in `header`, owned here), then slices of the control and payload encodings. At most 4 pieces.
struct PacketPieces {
    std::array<uint8_t, wire::FRAG_HEADER_BYTES + 1> header{};
    std::array<std::span<const uint8_t>, 4> pieces{};
    size_t count = 0;
    size_t size = 0;  // total bytes
    std::span<const std::span<const uint8_t>> view() const { return {pieces.data(), count}; }
};

// The packets a message needs, as OTP frames it: without header mode 112 followed by both terms
// as they are; in header mode 131 68 0 (no atom cache references, which the protocol allows)
// followed by both terms without their 131 byte; in header mode with fragments and more than
// fragment_size bytes of terms, 131 69 Seq N 0 with the first fragment_size bytes, then
// 131 70 Seq N-1 ... 1, each with the next fragment_size bytes.
// control_ext and payload_ext are encode_external's output (each starts with 131); payload_ext
// is empty for control messages without payload. The first fragment always holds the whole
// control term (OTP's receiver decodes it from the first fragment alone): if the control term is
// longer than fragment_size, the first fragment is that long.
//
// `emit(const PacketPieces&)` is called once per packet, in order; the pieces point into the
// arguments and are valid only during the call, so it can copy them straight into the socket's
// output queue. Returns the number of packets, or an Error for arguments that are not encodings.
template <class Emit>
Result<size_t> for_each_packet(std::span<const uint8_t> control_ext, std::span<const uint8_t> payload_ext,
                               const FrameOptions& opts, Emit&& emit);

// The same, each packet copied into its own vector (appended to `packets`).
Result<void> frame_message(std::span<const uint8_t> control_ext, std::span<const uint8_t> payload_ext,
                           bool header_mode, bool fragments_allowed, uint64_t sequence_id, size_t fragment_size,
                           std::vector<std::vector<uint8_t>>& packets);

// ---- for_each_packet's body ----

namespace detail {
Result<void> check_frame_args(std::span<const uint8_t> control_ext, std::span<const uint8_t> payload_ext,
                              const FrameOptions& opts);
inline void put_u64(uint8_t* p, uint64_t v) {
    for (int i = 7; i >= 0; --i, v >>= 8) p[i] = uint8_t(v);
}
// Replaces the header's last byte (NumberOfAtomCacheRefs 0) by the message's cache header.
inline void add_cache_header(PacketPieces& pk, std::span<const uint8_t> cache_header) {
    if (cache_header.empty()) return;
    pk.pieces[0] = pk.pieces[0].first(pk.pieces[0].size() - 1);
    pk.pieces[pk.count++] = cache_header;
    pk.size += cache_header.size() - 1;
}
// Appends data[from, from+n) of the two terms (control then payload, without 131) as pieces.
inline void add_data(PacketPieces& pk, std::span<const uint8_t> ctl, std::span<const uint8_t> pay, size_t from,
                     size_t n) {
    auto add = [&](std::span<const uint8_t> s) {
        if (s.empty()) return;
        pk.pieces[pk.count++] = s;
        pk.size += s.size();
    };
    if (from < ctl.size()) {
        size_t k = std::min(n, ctl.size() - from);
        add(ctl.subspan(from, k));
        from += k;
        n -= k;
    }
    if (n > 0) add(pay.subspan(from - ctl.size(), n));
}
}  // namespace detail

template <class Emit>
Result<size_t> for_each_packet(std::span<const uint8_t> control_ext, std::span<const uint8_t> payload_ext,
                               const FrameOptions& opts, Emit&& emit) {
    BEAM_TRY_VOID(detail::check_frame_args(control_ext, payload_ext, opts));
    PacketPieces pk;
    if (!opts.header_mode) {
        pk.header[0] = wire::PASS_THROUGH;
        pk.pieces[0] = {pk.header.data(), 1};
        pk.pieces[1] = control_ext;
        pk.count = 2;
        if (!payload_ext.empty()) pk.pieces[pk.count++] = payload_ext;
        pk.size = 1 + control_ext.size() + payload_ext.size();
        emit(static_cast<const PacketPieces&>(pk));
        return size_t(1);
    }
    std::span<const uint8_t> ctl = control_ext.subspan(1);
    std::span<const uint8_t> pay = payload_ext.empty() ? payload_ext : payload_ext.subspan(1);
    const size_t total = ctl.size() + pay.size();
    const size_t first = std::max(opts.fragment_size, ctl.size());
    if (!opts.fragments || total <= first) {
        pk.header = {wire::VERSION, wire::DIST_HEADER, 0};
        pk.pieces[0] = {pk.header.data(), 3};
        pk.count = 1;
        pk.size = 3;
        detail::add_cache_header(pk, opts.cache_header);
        detail::add_data(pk, ctl, pay, 0, total);
        emit(static_cast<const PacketPieces&>(pk));
        return size_t(1);
    }
    const size_t rest = total - first;
    const uint64_t count = 1 + (rest + opts.fragment_size - 1) / opts.fragment_size;
    size_t at = 0;
    for (uint64_t frag = count; frag >= 1; --frag) {
        pk = PacketPieces{};
        pk.header[0] = wire::VERSION;
        pk.header[1] = frag == count ? wire::DIST_FRAG_HEADER : wire::DIST_FRAG_CONT;
        detail::put_u64(&pk.header[2], opts.sequence_id);
        detail::put_u64(&pk.header[10], frag);
        size_t hdr = wire::FRAG_HEADER_BYTES;
        if (frag == count) pk.header[hdr++] = 0;  // NumberOfAtomCacheRefs
        pk.pieces[0] = {pk.header.data(), hdr};
        pk.count = 1;
        pk.size = hdr;
        if (frag == count) detail::add_cache_header(pk, opts.cache_header);
        size_t n = std::min(frag == count ? first : opts.fragment_size, total - at);
        detail::add_data(pk, ctl, pay, at, n);
        at += n;
        emit(static_cast<const PacketPieces&>(pk));
    }
    return size_t(count);
}

}  // namespace beam::dist

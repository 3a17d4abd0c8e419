// libFuzzer target: the receive side of a distribution connection (dist/wire_frame.cpp's
// parse_packet: pass-through and header packets, the atom cache, fragment reassembly) and the
// decoding of what completes, as dist/carrier.cpp decodes it (decode_external, versionless, with
// the header's atoms).
//
// Input: Flags:8, then packets as Len:16 (big-endian) Bytes, fed in order to one connection.
// Flags bit 0: header mode agreed, bit 1: fragments agreed, bit 2: a small bound (4 KiB) on
// what partial messages may hold. A connection is closed at its first Error, as the carrier does.
// Checks beyond memory safety: the bytes held for partial messages never exceed the bound, and a
// decoded control message encodes again.
#include <cstdlib>
#include <vector>

#include "dist/wire_frame.hpp"
#include "vm/ext_term.hpp"
#include "vm/heap.hpp"

using namespace beam;

namespace {

// The terms of a complete message: the control message and, if bytes remain, the payload.
void decode_message(const dist::ReceivedMessage& msg) {
    DecodeOptions opts;
    opts.versionless = msg.versionless;
    opts.atom_cache = msg.atoms;
    LiteralArea area;
    std::span<const uint8_t> rest = msg.data();
    for (int term = 0; term < 2 && !rest.empty(); ++term) {
        size_t used = 0;
        auto t = decode_external(area, rest, &used, opts);
        if (!t.ok()) return;
        if (used == 0 || used > rest.size()) std::abort();  // must consume what it decoded
        std::vector<uint8_t> again;
        if (!encode_external(t.value(), again).ok()) std::abort();
        rest = rest.subspan(used);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    bool header_mode = data[0] & 1, fragments = data[0] & 2;
    size_t bound = data[0] & 4 ? 4096 : dist::wire::DEFAULT_MAX_BUFFERED;
    dist::ReceiveState state(header_mode || fragments, fragments, bound);
    dist::ReceivedMessage msg;
    for (size_t at = 1; at + 2 <= size;) {
        size_t len = size_t(data[at]) << 8 | data[at + 1];
        at += 2;
        len = std::min(len, size - at);
        auto kind = dist::parse_packet(std::span(data + at, len), state, msg);
        at += len;
        if (state.buffered_bytes() > bound) std::abort();
        if (!kind.ok()) return 0;
        if (kind.value() == dist::PacketKind::Complete) decode_message(msg);
    }
    return 0;
}

// Helpers of the distribution framing tests: encodings, feeding packets, splitting the data of a
// received message back into its terms.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <zlib.h>
#include <optional>
#include <span>
#include <vector>

#include "dist/wire_frame.hpp"
#include "vm/ext_term.hpp"
#include "vm/term_order.hpp"

namespace beam::test {

using Bytes = std::vector<uint8_t>;

inline Bytes encode(Term t) {
    Bytes out;
    REQUIRE(encode_external(t, out).ok());
    return out;
}

// Decodes the terms of a message that holds no ATOM_CACHE_REF (what frame_message sends); each
// must decode.
inline std::vector<Term> decode_plain_terms(TermAllocator& a, std::span<const uint8_t> data, bool versionless,
                                            std::span<const Term> atom_cache = {}) {
    std::vector<Term> terms;
    DecodeOptions opts;
    opts.versionless = versionless;
    opts.atom_cache = atom_cache;
    for (std::span<const uint8_t> rest = data; !rest.empty();) {
        size_t used = 0;
        auto t = decode_external(a, rest, &used, opts);
        INFO((t.ok() ? std::string() : t.error().message));
        REQUIRE(t.ok());
        terms.push_back(*t);
        rest = rest.subspan(used);
    }
    return terms;
}

// Feeds packets in order; returns the messages completed, with their data copied out.
struct Delivered {
    Bytes data;
    bool versionless;
    std::vector<Term> atoms;
};
inline std::vector<Delivered> feed_all(dist::ReceiveState& st, const std::vector<Bytes>& packets, size_t* ticks = nullptr) {
    std::vector<Delivered> got;
    dist::ReceivedMessage m;
    for (const Bytes& p : packets) {
        auto r = dist::parse_packet(p, st, m);
        INFO((r.ok() ? std::string() : r.error().message));
        REQUIRE(r.ok());
        if (*r == dist::PacketKind::Tick && ticks) ++*ticks;
        if (*r == dist::PacketKind::Complete) {
            auto d = m.data();
            got.push_back({Bytes(d.begin(), d.end()), m.versionless, m.atoms});
        }
    }
    return got;
}

// Captures of tests/dist/capture/capture.sh, in DIST_CAPTURE_DIR.
inline Bytes read_file(const std::string& name) {
    std::ifstream in(std::string(DIST_CAPTURE_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in.good());
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

inline Bytes gunzip(const Bytes& gz) {
    z_stream z{};
    REQUIRE(inflateInit2(&z, 16 + MAX_WBITS) == Z_OK);
    Bytes out;
    uint8_t buf[1 << 16];
    z.next_in = const_cast<Bytef*>(gz.data());
    z.avail_in = uInt(gz.size());
    int rc;
    do {
        z.next_out = buf;
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        REQUIRE((rc == Z_OK || rc == Z_STREAM_END));
        out.insert(out.end(), buf, buf + (sizeof buf - z.avail_out));
    } while (rc != Z_STREAM_END);
    inflateEnd(&z);
    return out;
}

// The packets of a capture: 4-byte length, packet, as on the wire.
inline std::vector<Bytes> captured_packets(const std::string& name) {
    Bytes stream = gunzip(read_file(name));
    std::vector<Bytes> packets;
    for (size_t at = 0; at < stream.size();) {
        REQUIRE(stream.size() - at >= 4);
        size_t len = size_t(stream[at]) << 24 | size_t(stream[at + 1]) << 16 | size_t(stream[at + 2]) << 8 | stream[at + 3];
        at += 4;
        REQUIRE(stream.size() - at >= len);
        packets.emplace_back(stream.begin() + at, stream.begin() + at + len);
        at += len;
    }
    return packets;
}

// The control and payload terms of a message, through decode_external with the message's atom
// list. Each element is the decoded term, or nullopt where decode_external refused the rest.
inline std::vector<std::optional<Term>> decode_terms(TermAllocator& a, std::span<const uint8_t> data, bool versionless,
                                                     std::span<const Term> atoms) {
    std::vector<std::optional<Term>> terms;
    DecodeOptions opts;
    opts.atom_cache = atoms;
    opts.versionless = versionless;
    for (std::span<const uint8_t> rest = data; !rest.empty();) {
        size_t used = 0;
        auto t = decode_external(a, rest, &used, opts);
        if (!t.ok()) {
            terms.push_back(std::nullopt);
            break;
        }
        terms.push_back(*t);
        rest = rest.subspan(used);
    }
    return terms;
}
inline std::vector<std::optional<Term>> decode_terms(TermAllocator& a, const Delivered& m) {
    return decode_terms(a, m.data, m.versionless, m.atoms);
}

}  // namespace beam::test

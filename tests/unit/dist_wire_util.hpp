// Helpers of the distribution framing tests: encodings, feeding packets, splitting the data of a
// received message back into its terms.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
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

// Decodes the terms of a message that holds no ATOM_CACHE_REF (what frame_message sends):
// versionless terms are given their 131 back one at a time.
inline std::vector<Term> decode_plain_terms(TermAllocator& a, std::span<const uint8_t> data, bool versionless) {
    std::vector<Term> terms;
    std::span<const uint8_t> rest = data;
    while (!rest.empty()) {
        Bytes one;
        if (versionless) one.push_back(131);
        one.insert(one.end(), rest.begin(), rest.end());
        size_t used = 0;
        auto t = decode_external(a, one, &used);
        REQUIRE(t.ok());
        terms.push_back(*t);
        rest = rest.subspan(used - (versionless ? 1 : 0));
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

}  // namespace beam::test

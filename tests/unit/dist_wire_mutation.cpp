// The receive path on hostile input: mutated packets (bit flips, truncation, inserted and deleted
// bytes, corrupted atom counts, flags, lengths, cache slots, sequence and fragment ids) from
// erl's captured streams and from frame_message's output, fed in order through parse_packet and
// what completes through decode_external. Each must be a packet kind or an Error, never a crash,
// and the bytes held for partial messages must stay under the state's bound.
//
// 5,000 mutated packets by default; DIST_WIRE_MUTATIONS=100000 (issue 25's count) for the full
// run, e.g.  DIST_WIRE_MUTATIONS=100000 build/tests/test_dist "[mutation]"
// The seed is fixed (DIST_WIRE_SEED changes it), so a failure reproduces.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <random>

#include "tests/unit/dist_wire_util.hpp"
#include "tests/unit/terms_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

using namespace beam;
using namespace beam::test;

namespace {

size_t env_or(const char* name, size_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? size_t(std::strtoull(v, nullptr, 10)) : fallback;
}

// A stream of generated packets: messages of varied sizes, fragmented at 700 bytes, their
// fragments interleaved, ticks between, and headers with atom cache entries.
std::vector<Bytes> generated_stream(TermAllocator& a) {
    std::vector<std::vector<Bytes>> framed;
    for (int i = 0; i < 6; ++i) {
        Bytes ctl = encode(tuple(a, {make_small(6), atom(""), atom("mut_sink")}));
        std::string body(300 + 900 * i, char('a' + i));
        Bytes pay = encode(tuple(a, {atom("mut_payload"), make_binary(a, body), str(a, "text")}));
        std::vector<Bytes> packets;
        REQUIRE(dist::frame_message(ctl, pay, true, true, 1000 + i, 700, packets).ok());
        framed.push_back(std::move(packets));
    }
    std::vector<Bytes> stream;
    // A header that fills cache slots, then one that references them (ATOM_CACHE_REF 0 and 1).
    stream.push_back({131, 68, 2, 0x88, 0x00, 1, 8, 'm', 'u', 't', '_', 'a', 't', 'o', 'm', 2, 4, 'm', 'u', 't', '2',
                      104, 2, 82, 0, 82, 1});
    stream.push_back({131, 68, 3, 0x00, 0x01, 1, 2, 1, 104, 3, 82, 0, 82, 1, 82, 2});
    for (size_t k = 0;; ++k) {
        bool any = false;
        for (auto& f : framed)
            if (k < f.size()) {
                stream.push_back(f[k]);
                any = true;
            }
        if (!any) break;
        stream.push_back({});
    }
    return stream;
}

class Mutator {
public:
    explicit Mutator(uint64_t seed) : rng_(seed) {}
    size_t pick(size_t n) { return n ? size_t(rng_() % n) : 0; }
    bool chance(unsigned percent) { return pick(100) < percent; }

    Bytes mutate(const Bytes& seed) {
        Bytes b = seed;
        int edits = 1 + int(pick(3));
        for (int e = 0; e < edits; ++e) edit(b);
        return b;
    }

private:
    void edit(Bytes& b) {
        switch (pick(9)) {
        case 0:  // bit flip
            if (!b.empty()) b[pick(b.size())] ^= uint8_t(1 << pick(8));
            break;
        case 1:  // truncation
            b.resize(pick(b.size() + 1));
            break;
        case 2:  // a byte set to an edge value or at random
            if (!b.empty()) b[pick(b.size())] = std::array<uint8_t, 5>{0, 1, 0x7F, 0xFF, uint8_t(rng_())}[pick(5)];
            break;
        case 3:  // NumberOfAtomCacheRefs of a 68/69 header
            if (b.size() > 2 && b[1] == 68) b[2] = uint8_t(rng_());
            if (b.size() > 18 && b[1] == 69) b[18] = uint8_t(rng_());
            break;
        case 4: {  // a byte of the flags, references, lengths and atom text near the header's start
            size_t base = b.size() > 1 && b[1] == 69 ? 19 : 3;
            if (b.size() > base) b[base + pick(std::min<size_t>(b.size() - base, 24))] = uint8_t(rng_());
            break;
        }
        case 5:  // SequenceId or FragmentId of a fragment: random, off by one, or huge
            if (b.size() >= 18 && (b[1] == 69 || b[1] == 70)) {
                size_t at = 2 + 8 * pick(2);
                switch (pick(3)) {
                case 0: b[at + 7] = uint8_t(b[at + 7] + (chance(50) ? 1 : -1)); break;
                case 1: b[at + pick(8)] = uint8_t(rng_()); break;
                default: for (size_t i = 0; i < 8; ++i) b[at + i] = 0xFF;
                }
            }
            break;
        case 6: {  // inserted bytes
            size_t at = pick(b.size() + 1), n = 1 + pick(16);
            Bytes ins(n);
            for (auto& x : ins) x = uint8_t(rng_());
            b.insert(b.begin() + at, ins.begin(), ins.end());
            break;
        }
        case 7:  // deleted bytes
            if (!b.empty()) {
                size_t at = pick(b.size()), n = 1 + pick(std::min<size_t>(b.size() - at, 16));
                b.erase(b.begin() + at, b.begin() + at + n);
            }
            break;
        default:  // the header byte itself: another header kind or pass-through
            if (b.size() >= 2) b[chance(50) ? 0 : 1] = std::array<uint8_t, 6>{131, 112, 68, 69, 70, 71}[pick(6)];
            break;
        }
    }
    std::mt19937_64 rng_;
};

}  // namespace

TEST_CASE("dist wire: mutated packets never crash parse_packet or grow without bound", "[dist][mutation]") {
    const size_t total = env_or("DIST_WIRE_MUTATIONS", 5000);
    const uint64_t seed = env_or("DIST_WIRE_SEED", 25);
    auto area = std::make_unique<LiteralArea>();
    std::vector<std::vector<Bytes>> streams = {captured_packets("a_to_b.dist.gz"), captured_packets("b_to_a.dist.gz"),
                                               generated_stream(*area)};
    size_t first_fragment = 0;
    while (first_fragment < streams[0].size() && !(streams[0][first_fragment].size() > 1 && streams[0][first_fragment][1] == 69))
        ++first_fragment;
    REQUIRE(first_fragment < streams[0].size());
    Mutator mut(seed);
    size_t mutated = 0, errors = 0, completes = 0, decoded = 0, episodes = 0;
    size_t peak_buffered = 0, bound_errors = 0;
    while (mutated < total) {
        // An episode: a window of one stream, in order, some packets mutated, into one state (a
        // connection), as a reader would get them. After an Error a real connection closes; half
        // the episodes go on with the same state anyway, which must stay safe.
        ++episodes;
        const size_t which = mut.pick(streams.size());
        const std::vector<Bytes>& s = streams[which];
        size_t from = mut.pick(s.size()), len = 1 + mut.pick(40);
        // A quarter of erl's episodes run from its start through its 2 MiB message (whose first
        // fragment refers to atoms cached before it) and on into the interleaved ones, so whole
        // fragmented messages are corrupted too; half the states hold less than that message,
        // so the bound on buffered bytes is reached.
        if (which == 0 && mut.chance(25)) {
            from = 0;
            len = first_fragment + 33 + mut.pick(s.size() - first_fragment);
        }
        // Few mutations let long runs of fragments through; many test the header checks.
        const unsigned rate = std::array<unsigned, 3>{1, 5, 30}[mut.pick(3)];
        const size_t max_buffered = mut.chance(50) ? size_t(1) << 20 : size_t(8) << 20;
        bool keep_after_error = mut.chance(50);
        auto st = std::make_unique<dist::ReceiveState>(true, true, max_buffered);
        dist::ReceivedMessage m;
        for (size_t i = from; i < std::min(s.size(), from + len); ++i) {
            bool mutate = mut.chance(rate);
            Bytes p = mutate ? mut.mutate(s[i]) : s[i];
            mutated += mutate;
            auto r = dist::parse_packet(p, *st, m);
            peak_buffered = std::max(peak_buffered, st->buffered_bytes());
            REQUIRE(st->buffered_bytes() <= max_buffered);
            if (!r.ok()) {
                ++errors;
                CHECK_FALSE(r.error().message.empty());
                bound_errors += r.error().message.find("buffered") != std::string::npos;
                if (!keep_after_error) break;
                continue;
            }
            if (*r != dist::PacketKind::Complete) continue;
            ++completes;
            REQUIRE(m.data().size() <= p.size() + max_buffered);
            REQUIRE(m.atoms.size() <= 255);
            auto terms = decode_terms(*area, m.data(), m.versionless, m.atoms);
            for (auto& t : terms) decoded += t.has_value();
            if (completes % 256 == 0) area = std::make_unique<LiteralArea>();  // bounded decoding memory
        }
    }
    INFO("episodes " << episodes << ", errors " << errors << ", completes " << completes << ", terms decoded "
                     << decoded << ", peak buffered " << peak_buffered);
    CHECK(errors > mutated / 10);   // the mutations do reach the checks
    CHECK(completes > 0);
    CHECK(bound_errors > 0);
    WARN("dist wire mutation: " << mutated << " mutated packets in " << episodes << " episodes: " << errors
                                << " errors, " << completes << " complete messages, " << decoded
                                << " terms decoded, " << bound_errors << " refused for the byte bound, peak buffered "
                                << peak_buffered << " bytes");
}

// Distribution packet framing (dist/wire_frame.hpp): frame_message and parse_packet round trips
// in each mode, fragmentation at its edges, interleaved sequences, the atom cache header, and
// every kind of malformed packet the receive side must refuse.
#include <catch2/catch.hpp>
#include <string>

#include "tests/unit/dist_wire_util.hpp"
#include "tests/unit/terms_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"

using namespace beam;
using namespace beam::test;
using dist::PacketKind;
using dist::ReceivedMessage;
using dist::ReceiveState;

namespace {

// A control message and payload like a REG_SEND's (pids aside): {6, '', Name} and a payload of
// `payload_bytes` bytes of binary.
struct Message {
    Bytes control, payload;
};
Message make_message(TermAllocator& a, size_t payload_bytes, const char* name = "receiver") {
    Term ctl = tuple(a, {make_small(6), atom(""), atom(name)});
    Bytes pay;
    if (payload_bytes) {
        std::string body(payload_bytes, 'x');
        for (size_t i = 0; i < body.size(); ++i) body[i] = char('a' + i % 26);
        pay = encode(tuple(a, {atom("data"), make_binary(a, body)}));
    }
    return {encode(ctl), pay};
}

std::vector<Bytes> frame(const Message& m, bool header, bool frags, uint64_t seq = 1,
                         size_t fragment_size = dist::wire::DEFAULT_FRAGMENT_SIZE) {
    std::vector<Bytes> packets;
    auto r = dist::frame_message(m.control, m.payload, header, frags, seq, fragment_size, packets);
    INFO((r.ok() ? std::string() : r.error().message));
    REQUIRE(r.ok());
    return packets;
}

// The bytes a message's terms take after framing: both encodings, without 131 in header mode.
Bytes joined(const Message& m, bool versionless) {
    Bytes out(m.control.begin() + (versionless ? 1 : 0), m.control.end());
    if (!m.payload.empty()) out.insert(out.end(), m.payload.begin() + (versionless ? 1 : 0), m.payload.end());
    return out;
}

uint64_t u64_at(const Bytes& p, size_t at) {
    uint64_t v = 0;
    for (size_t i = 0; i < 8; ++i) v = v << 8 | p[at + i];
    return v;
}

// An atom cache header (NumberOfAtomCacheRefs onwards), written from erl_ext_dist's description.
struct Ref {
    unsigned slot;
    std::string text;  // empty: a reference to an entry already cached
};
Bytes cache_header(const std::vector<Ref>& refs, bool long_atoms = false) {
    Bytes out{uint8_t(refs.size())};
    const size_t n = refs.size();
    if (n == 0) return out;
    Bytes flags(n / 2 + 1, 0);
    for (size_t i = 0; i < n; ++i)
        flags[i / 2] |= uint8_t(((refs[i].text.empty() ? 0 : 8) | refs[i].slot >> 8) << (4 * (i & 1)));
    if (long_atoms) flags[n / 2] |= uint8_t(1 << (4 * (n & 1)));
    out.insert(out.end(), flags.begin(), flags.end());
    for (const Ref& r : refs) {
        out.push_back(uint8_t(r.slot & 0xFF));
        if (r.text.empty()) continue;
        if (long_atoms) out.push_back(uint8_t(r.text.size() >> 8));
        out.push_back(uint8_t(r.text.size()));
        out.insert(out.end(), r.text.begin(), r.text.end());
    }
    return out;
}
// 131 68 Hdr followed by a small control term body (an atom cache reference to entry 0).
Bytes header_packet(const std::vector<Ref>& refs, bool long_atoms = false) {
    Bytes p{131, 68};
    Bytes h = cache_header(refs, long_atoms);
    p.insert(p.end(), h.begin(), h.end());
    p.insert(p.end(), {104, 1, 82, 0});
    return p;
}

Result<PacketKind> parse(ReceiveState& st, const Bytes& p) {
    ReceivedMessage m;
    return dist::parse_packet(p, st, m);
}
std::string parse_error(ReceiveState& st, const Bytes& p) {
    auto r = parse(st, p);
    REQUIRE_FALSE(r.ok());
    return r.error().message;
}

}  // namespace

TEST_CASE("dist wire: an empty packet is a tick in every mode", "[dist]") {
    for (bool header : {false, true}) {
        ReceiveState st(header, header);
        auto r = parse(st, {});
        REQUIRE(r.ok());
        CHECK(*r == PacketKind::Tick);
    }
}

TEST_CASE("dist wire: pass-through round trip", "[dist]") {
    LiteralArea a;
    for (size_t payload : {size_t(0), size_t(10), size_t(200000)}) {
        Message m = make_message(a, payload);
        std::vector<Bytes> packets = frame(m, false, false);
        REQUIRE(packets.size() == 1);
        CHECK(packets[0][0] == 112);
        ReceiveState st(false, false);
        auto got = feed_all(st, packets);
        REQUIRE(got.size() == 1);
        CHECK_FALSE(got[0].versionless);
        CHECK(got[0].atoms.empty());
        CHECK(got[0].data == joined(m, false));
        std::vector<Term> terms = decode_plain_terms(a, got[0].data, false);
        REQUIRE(terms.size() == (payload ? 2 : 1));
        CHECK(encode(terms[0]) == m.control);
        if (payload) CHECK(encode(terms[1]) == m.payload);
    }
}

TEST_CASE("dist wire: header mode round trip without fragments", "[dist]") {
    LiteralArea a;
    Message m = make_message(a, 300000);
    for (bool frags_agreed : {false, true}) {
        // Without FRAGMENTS any size goes in one packet; with it, a large fragment size does too.
        std::vector<Bytes> packets = frame(m, true, frags_agreed, 7, 1 << 20);
        REQUIRE(packets.size() == 1);
        CHECK(Bytes(packets[0].begin(), packets[0].begin() + 3) == Bytes{131, 68, 0});
        ReceiveState st(true, frags_agreed);
        ReceivedMessage out;
        auto r = dist::parse_packet(packets[0], st, out);
        REQUIRE(r.ok());
        REQUIRE(*r == PacketKind::Complete);
        CHECK(out.versionless);
        CHECK_FALSE(out.reassembled);
        // Not reassembled: the data is the packet's own bytes, after the 3-byte header.
        CHECK(out.data().data() == packets[0].data() + 3);
        CHECK(Bytes(out.data().begin(), out.data().end()) == joined(m, true));
        std::vector<Term> terms = decode_plain_terms(a, out.data(), true);
        REQUIRE(terms.size() == 2);
        CHECK(encode(terms[1]) == m.payload);
    }
}

TEST_CASE("dist wire: fragments at the edges of the fragment size", "[dist]") {
    LiteralArea a;
    const size_t fsize = 1000;
    Message base = make_message(a, 1);
    const size_t overhead = joined(base, true).size() - 1;  // bytes besides the binary's body
    for (size_t extra : {size_t(0), size_t(1)}) {
        Message m = make_message(a, fsize - overhead + extra);
        REQUIRE(joined(m, true).size() == fsize + extra);
        std::vector<Bytes> packets = frame(m, true, true, 0x1234567890ULL, fsize);
        if (extra == 0) {
            REQUIRE(packets.size() == 1);
            CHECK(packets[0][1] == 68);
            continue;
        }
        // One byte over: a full first fragment and a second with one byte of data.
        REQUIRE(packets.size() == 2);
        CHECK(packets[0][1] == 69);
        CHECK(u64_at(packets[0], 2) == 0x1234567890ULL);
        CHECK(u64_at(packets[0], 10) == 2);
        CHECK(packets[0][18] == 0);  // no atom cache references
        CHECK(packets[0].size() == 19 + fsize);
        CHECK(packets[1][1] == 70);
        CHECK(u64_at(packets[1], 2) == 0x1234567890ULL);
        CHECK(u64_at(packets[1], 10) == 1);
        CHECK(packets[1].size() == 18 + 1);
        ReceiveState st(true, true);
        ReceivedMessage out;
        auto r1 = dist::parse_packet(packets[0], st, out);
        REQUIRE(r1.ok());
        CHECK(*r1 == PacketKind::Incomplete);
        CHECK(st.sequences_in_progress() == 1);
        CHECK(st.buffered_bytes() >= fsize);
        auto r2 = dist::parse_packet(packets[1], st, out);
        REQUIRE(r2.ok());
        CHECK(*r2 == PacketKind::Complete);
        CHECK(out.reassembled);
        CHECK(Bytes(out.data().begin(), out.data().end()) == joined(m, true));
        CHECK(st.sequences_in_progress() == 0);
        CHECK(st.buffered_bytes() == 0);
    }
}

TEST_CASE("dist wire: a 3 MiB message in OTP's 64 KiB fragments", "[dist]") {
    LiteralArea a;
    Message m = make_message(a, 3 << 20);
    const Bytes data = joined(m, true);
    std::vector<Bytes> packets = frame(m, true, true, 42);
    const size_t expect = (data.size() + dist::wire::DEFAULT_FRAGMENT_SIZE - 1) / dist::wire::DEFAULT_FRAGMENT_SIZE;
    REQUIRE(packets.size() == expect);
    for (size_t i = 0; i < packets.size(); ++i) {
        CHECK(packets[i][1] == (i == 0 ? 69 : 70));
        CHECK(u64_at(packets[i], 2) == 42);
        CHECK(u64_at(packets[i], 10) == expect - i);
        const size_t hdr = i == 0 ? 19 : 18;
        if (i + 1 < packets.size()) CHECK(packets[i].size() - hdr == dist::wire::DEFAULT_FRAGMENT_SIZE);
    }
    ReceiveState st(true, true);
    auto got = feed_all(st, packets);
    REQUIRE(got.size() == 1);
    CHECK(got[0].data == data);
    std::vector<Term> terms = decode_plain_terms(a, got[0].data, true);
    REQUIRE(terms.size() == 2);
    CHECK(encode(terms[1]) == m.payload);
}

TEST_CASE("dist wire: the packet iovec of for_each_packet points into the encodings", "[dist]") {
    LiteralArea a;
    Message m = make_message(a, 5000);
    dist::FrameOptions opts{true, true, 9, 1000};
    std::vector<Bytes> copied;
    size_t pieces_into_args = 0;
    auto n = dist::for_each_packet(m.control, m.payload, opts, [&](const dist::PacketPieces& pk) {
        Bytes p;
        for (auto piece : pk.view()) {
            p.insert(p.end(), piece.begin(), piece.end());
            bool in_ctl = piece.data() >= m.control.data() && piece.data() < m.control.data() + m.control.size();
            bool in_pay = piece.data() >= m.payload.data() && piece.data() < m.payload.data() + m.payload.size();
            pieces_into_args += in_ctl || in_pay;
        }
        CHECK(p.size() == pk.size);
        copied.push_back(p);
    });
    REQUIRE(n.ok());
    CHECK(*n == copied.size());
    CHECK(copied == frame(m, true, true, 9, 1000));
    CHECK(pieces_into_args >= copied.size());  // no term byte was copied before the emit
}

TEST_CASE("dist wire: a control term longer than the fragment size stays in the first fragment", "[dist]") {
    LiteralArea a;
    Message m = make_message(a, 3000, "a_registered_name_longer_than_the_tiny_fragment_size");
    const size_t ctl = m.control.size() - 1;
    REQUIRE(ctl > 40);
    std::vector<Bytes> packets = frame(m, true, true, 5, 40);
    REQUIRE(packets[0].size() == 19 + ctl);
    ReceiveState st(true, true);
    auto got = feed_all(st, packets);
    REQUIRE(got.size() == 1);
    CHECK(got[0].data == joined(m, true));
}

TEST_CASE("dist wire: interleaved sequences reassemble separately", "[dist]") {
    LiteralArea a;
    std::vector<Message> msgs;
    std::vector<std::vector<Bytes>> framed;
    for (int i = 0; i < 4; ++i) {
        msgs.push_back(make_message(a, 3000 + 1500 * i));
        framed.push_back(frame(msgs.back(), true, true, 100 + i, 512));
    }
    Message small = make_message(a, 10);
    std::vector<Bytes> stream;
    for (size_t k = 0;; ++k) {
        bool any = false;
        for (auto& f : framed)
            if (k < f.size()) {
                stream.push_back(f[k]);
                any = true;
            }
        if (!any) break;
        stream.push_back({});  // a tick between
        for (Bytes& p : frame(small, true, true, 999, 512)) stream.push_back(p);
    }
    ReceiveState st(true, true);
    size_t ticks = 0;
    auto got = feed_all(st, stream, &ticks);
    CHECK(st.sequences_in_progress() == 0);
    CHECK(st.buffered_bytes() == 0);
    CHECK(ticks > 0);
    // Each sequence completes when its fragment 1 arrives: the shortest first.
    std::vector<Bytes> whole;
    for (auto& d : got)
        if (d.data != joined(small, true)) whole.push_back(d.data);
    REQUIRE(whole.size() == 4);
    for (int i = 0; i < 4; ++i) CHECK(whole[i] == joined(msgs[i], true));
}

TEST_CASE("dist wire: frame_message refuses arguments that are not encodings", "[dist]") {
    LiteralArea a;
    Message m = make_message(a, 5000);
    std::vector<Bytes> packets;
    CHECK_FALSE(dist::frame_message(Bytes{}, m.payload, true, true, 1, 100, packets).ok());
    CHECK_FALSE(dist::frame_message(Bytes{104, 0}, m.payload, true, true, 1, 100, packets).ok());
    CHECK_FALSE(dist::frame_message(m.control, Bytes{7, 7}, true, true, 1, 100, packets).ok());
    CHECK_FALSE(dist::frame_message(m.control, m.payload, false, true, 1, 100, packets).ok());
    CHECK_FALSE(dist::frame_message(m.control, m.payload, true, true, 1, 0, packets).ok());
    // Sequence 0 would make OTP take the first fragment for a whole message.
    CHECK_FALSE(dist::frame_message(m.control, m.payload, true, true, 0, 100, packets).ok());
    CHECK(dist::frame_message(m.control, m.payload, true, true, 0, 1 << 20, packets).ok());
    CHECK(packets.size() == 1);
}

TEST_CASE("dist wire: the atom cache header creates and references entries", "[dist]") {
    ReceiveState st(true, false);
    ReceivedMessage out;
    const std::string utf8 = "\xc3\xa5ngstr\xc3\xb6m_\xe2\x82\xac";  // ångström_€
    // Slots across segments (slot >> 8 is the segment), odd count: the LongAtoms half byte
    // shares the last flag byte.
    Bytes p1 = header_packet({{0, "wire_a"}, {0x3FF, "wire_b"}, {2047, utf8}});
    auto r = dist::parse_packet(p1, st, out);
    REQUIRE(r.ok());
    REQUIRE(*r == PacketKind::Complete);
    CHECK(out.atoms == std::vector<Term>{atom("wire_a"), atom("wire_b"), atom(utf8)});
    CHECK(st.cached_atom(0x3FF) == atom("wire_b"));
    CHECK(Bytes(out.data().begin(), out.data().end()) == Bytes{104, 1, 82, 0});
    // Old references in a later packet, mixed with a new entry; even count.
    Bytes p2 = header_packet({{2047, ""}, {5, "wire_c"}, {0, ""}, {0x3FF, ""}});
    r = dist::parse_packet(p2, st, out);
    REQUIRE(r.ok());
    CHECK(out.atoms == std::vector<Term>{atom(utf8), atom("wire_c"), atom("wire_a"), atom("wire_b")});
    // A new entry replaces a slot; an old reference later in the same header sees the new atom.
    Bytes p3 = header_packet({{0, ""}, {0, "wire_d"}, {0, ""}});
    r = dist::parse_packet(p3, st, out);
    REQUIRE(r.ok());
    CHECK(out.atoms == std::vector<Term>{atom("wire_a"), atom("wire_d"), atom("wire_d")});
    // Long atoms: 2-byte lengths, 255 characters of 2 bytes each.
    std::string long_utf8;
    for (int i = 0; i < 255; ++i) long_utf8 += "\xc3\xa4";
    for (size_t n : {1, 2}) {
        std::vector<Ref> refs(n, Ref{7, long_utf8});
        r = dist::parse_packet(header_packet(refs, true), st, out);
        REQUIRE(r.ok());
        CHECK(out.atoms == std::vector<Term>(n, atom(long_utf8)));
    }
    // No references at all: 131 68 0.
    r = dist::parse_packet(Bytes{131, 68, 0, 106}, st, out);
    REQUIRE(r.ok());
    CHECK(out.atoms.empty());
}

TEST_CASE("dist wire: a fragmented message keeps the atoms of its first header", "[dist]") {
    ReceiveState st(true, true);
    ReceivedMessage out;
    Bytes first{131, 69, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 2};
    Bytes h = cache_header({{10, "frag_first"}});
    first.insert(first.end(), h.begin(), h.end());
    first.insert(first.end(), {104, 2, 82, 0});
    REQUIRE(*dist::parse_packet(first, st, out) == PacketKind::Incomplete);
    // Another message refills slot 10 before the sequence ends.
    REQUIRE(*dist::parse_packet(header_packet({{10, "frag_other"}}), st, out) == PacketKind::Complete);
    Bytes last{131, 70, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 97, 1};
    REQUIRE(*dist::parse_packet(last, st, out) == PacketKind::Complete);
    CHECK(out.atoms == std::vector<Term>{atom("frag_first")});
    CHECK(Bytes(out.data().begin(), out.data().end()) == Bytes{104, 2, 82, 0, 97, 1});
}

TEST_CASE("dist wire: malformed packets are errors with a reason", "[dist]") {
    ReceiveState hdr(true, true);
    // Framing the agreed flags do not allow.
    CHECK_THAT(parse_error(hdr, {112, 131, 106}), Catch::Contains("(131) was due"));
    ReceiveState pass(false, false);
    CHECK_THAT(parse_error(pass, {131, 68, 0, 106}), Catch::Contains("pass-through (112)"));
    CHECK_THAT(parse_error(pass, {112}), Catch::Contains("without 131"));
    CHECK_THAT(parse_error(pass, {112, 104, 0}), Catch::Contains("without 131"));
    ReceiveState nofrag(true, false);
    CHECK_THAT(parse_error(nofrag, {131, 69, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 106}),
               Catch::Contains("FRAGMENTS was not agreed"));
    CHECK_THAT(parse_error(hdr, {131, 71, 0}), Catch::Contains("unknown distribution header"));
    CHECK_THAT(parse_error(hdr, {131}), Catch::Contains("(131) was due"));
    // Headers cut short anywhere.
    Bytes good = header_packet({{1, "cut_here"}, {300, "and_here"}}, true);
    REQUIRE(parse(hdr, good).ok());
    for (size_t n = 2; n < good.size() - 4; ++n) {
        Bytes cut(good.begin(), good.begin() + n);
        CHECK_FALSE(parse(hdr, cut).ok());
    }
    CHECK_THAT(parse_error(hdr, {131, 68, 0}), Catch::Contains("without a control message"));
    // Cache slots never filled.
    ReceiveState fresh(true, true);
    CHECK_THAT(parse_error(fresh, header_packet({{77, ""}})), Catch::Contains("empty slot 77"));
    CHECK_THAT(parse_error(fresh, header_packet({{1, "x"}, {1800, ""}})), Catch::Contains("empty slot 1800"));
    // Atom text erl would refuse; nothing of a refused header is cached.
    CHECK_THAT(parse_error(fresh, header_packet({{3, "ok_atom"}, {4, "bad\xff"}})), Catch::Contains("UTF-8"));
    CHECK(fresh.cached_atom(3) == NON_VALUE);
    CHECK_THAT(parse_error(fresh, header_packet({{4, "\xc0\x80"}})), Catch::Contains("UTF-8"));  // overlong
    CHECK_THAT(parse_error(fresh, header_packet({{4, "\xed\xa0\x80"}})), Catch::Contains("UTF-8"));  // surrogate
    CHECK_THAT(parse_error(fresh, header_packet({{4, std::string(256, 'a')}}, true)), Catch::Contains("255"));
    std::string long_utf8;
    for (int i = 0; i < 256; ++i) long_utf8 += "\xc3\xa4";
    CHECK_THAT(parse_error(fresh, header_packet({{4, long_utf8}}, true)), Catch::Contains("255"));
}

TEST_CASE("dist wire: fragments out of order or of unknown sequences are errors", "[dist]") {
    auto first = [](uint64_t seq, uint64_t frags) {
        Bytes p{131, 69};
        for (int i = 7; i >= 0; --i) p.push_back(uint8_t(seq >> (8 * i)));
        for (int i = 7; i >= 0; --i) p.push_back(uint8_t(frags >> (8 * i)));
        p.insert(p.end(), {0, 104, 1, 106});
        return p;
    };
    auto next = [](uint64_t seq, uint64_t frag) {
        Bytes p{131, 70};
        for (int i = 7; i >= 0; --i) p.push_back(uint8_t(seq >> (8 * i)));
        for (int i = 7; i >= 0; --i) p.push_back(uint8_t(frag >> (8 * i)));
        p.insert(p.end(), {1, 2, 3});
        return p;
    };
    {
        ReceiveState st(true, true);
        CHECK_THAT(parse_error(st, next(5, 1)), Catch::Contains("unknown sequence 5"));
    }
    {
        ReceiveState st(true, true);
        REQUIRE(*parse(st, first(5, 3)) == PacketKind::Incomplete);
        CHECK_THAT(parse_error(st, next(5, 1)), Catch::Contains("fragment 1 of sequence 5 where 2 was due"));
    }
    {
        ReceiveState st(true, true);
        REQUIRE(*parse(st, first(5, 3)) == PacketKind::Incomplete);
        CHECK_THAT(parse_error(st, first(5, 2)), Catch::Contains("in progress"));
    }
    {
        ReceiveState st(true, true);
        CHECK_THAT(parse_error(st, first(5, 0)), Catch::Contains("FragmentId 0"));
        // A first fragment that is also the last is a whole message.
        CHECK(*parse(st, first(6, 1)) == PacketKind::Complete);
        CHECK(st.sequences_in_progress() == 0);
        CHECK_THAT(parse_error(st, Bytes{131, 70, 0, 0, 0}), Catch::Contains("truncated"));
        CHECK_THAT(parse_error(st, Bytes{131, 69, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 2, 0}),
                   Catch::Contains("without a control message"));
    }
    {
        // A huge FragmentId costs nothing until its data arrives; the byte bound stops the data.
        ReceiveState st(true, true, 4096);
        REQUIRE(*parse(st, first(8, uint64_t(1) << 62)) == PacketKind::Incomplete);
        Bytes big = next(8, (uint64_t(1) << 62) - 1);
        big.resize(big.size() + 1000);
        uint64_t frag = (uint64_t(1) << 62) - 1;
        std::string err;
        for (int i = 0; i < 10 && err.empty(); ++i, --frag) {
            for (int k = 7; k >= 0; --k) big[10 + 7 - k] = uint8_t(frag >> (8 * k));
            auto r = parse(st, big);
            if (!r.ok()) err = r.error().message;
        }
        CHECK_THAT(err, Catch::Contains("more than 4096 bytes"));
        CHECK(st.buffered_bytes() <= 4096);
    }
}

namespace {
// Encodes control and payload with atom cache references, frames them with the send cache's
// header (in fragments of `fragment_size`) and feeds every packet to the receive side.
// Returns the decoded terms of the completed message.
std::vector<Term> send_through_cache(LiteralArea& a, dist::SendAtomCache& tx, ReceiveState& rx, Term control,
                                     Term payload, size_t fragment_size, Bytes* header_out = nullptr) {
    AtomCacheRefs refs;
    EncodeOptions o;
    o.atom_refs = &refs;
    Bytes ctl, pay;
    REQUIRE(encode_external(control, ctl, o).ok());
    REQUIRE(encode_external(payload, pay, o).ok());
    Bytes header;
    tx.header(refs.atoms(), header);
    if (header_out) *header_out = header;
    dist::FrameOptions fo;
    fo.header_mode = fo.fragments = true;
    fo.sequence_id = 9;
    fo.fragment_size = fragment_size;
    fo.cache_header = header;
    std::vector<Bytes> packets;
    REQUIRE(dist::for_each_packet(ctl, pay, fo, [&](const dist::PacketPieces& pk) {
                Bytes p;
                for (auto piece : pk.view()) p.insert(p.end(), piece.begin(), piece.end());
                CHECK(p.size() == pk.size);
                packets.push_back(std::move(p));
            }).ok());
    ReceivedMessage out;
    for (size_t i = 0; i < packets.size(); ++i) {
        auto r = dist::parse_packet(packets[i], rx, out);
        REQUIRE(r.ok());
        REQUIRE(*r == (i + 1 == packets.size() ? PacketKind::Complete : PacketKind::Incomplete));
    }
    CHECK(out.atoms.size() == refs.atoms().size());
    return decode_plain_terms(a, out.data(), true, out.atoms);
}
}  // namespace

TEST_CASE("dist wire: the send side's atom cache round trips through the receive side", "[dist]") {
    LiteralArea a;
    dist::SendAtomCache tx;
    ReceiveState rx(true, true);
    std::string long_utf8;
    for (int i = 0; i < 200; ++i) long_utf8 += "\xc3\xa4";  // 400 bytes: LongAtoms
    // The same atoms again (old entries), new ones beside them, more than 255 distinct atoms
    // (the rest written in full), an atom whose text needs 2-byte lengths, and a message in
    // fragments whose header comes with its first fragment.
    std::vector<Term> many;
    for (int i = 0; i < 300; ++i) many.push_back(atom("cache_many_" + std::to_string(i)));
    struct Case {
        Term control, payload;
        size_t fragment_size;
    } cases[] = {
        {tuple(a, {make_small(2), atom(""), atom("alpha")}), tuple(a, {atom("beta"), atom("alpha")}), 1 << 16},
        {tuple(a, {make_small(2), atom(""), atom("alpha")}), tuple(a, {atom("gamma"), atom("beta")}), 1 << 16},
        {tuple(a, {make_small(6), atom(""), atom("reg")}), list(a, many), 1 << 16},
        {tuple(a, {make_small(6), atom(""), atom(long_utf8)}), tuple(a, {atom(long_utf8), atom("alpha")}), 1 << 16},
        {tuple(a, {make_small(6), atom(""), atom("frag")}), list(a, many), 200},
    };
    for (const Case& c : cases) {
        std::vector<Term> got = send_through_cache(a, tx, rx, c.control, c.payload, c.fragment_size);
        REQUIRE(got.size() == 2);
        CHECK(encode(got[0]) == encode(c.control));
        CHECK(encode(got[1]) == encode(c.payload));
    }
    // The first message again: its atoms are all cached now, so the header holds only
    // references (count, flags, one slot byte each) and no text; the terms still decode.
    Bytes header;
    std::vector<Term> again = send_through_cache(a, tx, rx, cases[0].control, cases[0].payload, 1 << 16, &header);
    REQUIRE(again.size() == 2);
    CHECK(encode(again[1]) == encode(cases[0].payload));
    const size_t n = 3;  // '' and alpha (control), beta (payload)
    REQUIRE(header.size() == 1 + (n / 2 + 1) + n);
    CHECK(header[0] == n);
    for (size_t i = 0; i < n; ++i) CHECK((header[1 + i / 2] >> (4 * (i & 1)) & 8) == 0);  // none new
}

TEST_CASE("dist wire: two atoms of one message in the same cache slot", "[dist]") {
    // Atom indexes 2048 apart share a slot; the header must say "new" for whichever one the
    // slot does not hold at that point of the header, in order.
    LiteralArea a;
    Term first = atom("slot_share_first");
    Term second = NON_VALUE;
    for (int i = 0; !is_value(second); ++i) {
        Term t = atom("slot_share_" + std::to_string(i));
        if (atom_index(t) % dist::wire::ATOM_CACHE_SIZE == atom_index(first) % dist::wire::ATOM_CACHE_SIZE &&
            t != first)
            second = t;
    }
    dist::SendAtomCache tx;
    ReceiveState rx(true, true);
    Term ctl = tuple(a, {make_small(2), atom(""), first});
    for (Term payload : {tuple(a, {second, first}), tuple(a, {first, second}), tuple(a, {second, second})}) {
        std::vector<Term> got = send_through_cache(a, tx, rx, ctl, payload, 1 << 16);
        REQUIRE(got.size() == 2);
        CHECK(encode(got[1]) == encode(payload));
    }
}

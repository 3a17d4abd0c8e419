// Packets two real erl nodes exchanged (tests/dist/capture/capture.sh records them through a TCP
// proxy; tests/unit/data/dist/*.dist.gz): parse_packet must take every one, rebuild erl's atom
// cache (many atoms, 255-character and UTF-8 atoms, old references), reassemble erl's 2 MiB
// message from its 64 KiB fragments and two larger ones whose fragments erl interleaved, and give
// the terms erl sent (decode_external with the
// header's atoms).
#include <catch2/catch.hpp>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <zlib.h>

#include "tests/unit/dist_wire_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/heap.hpp"

using namespace beam;
using namespace beam::test;

namespace {

// How many references of a 131 68 packet's header are new entries (their text included).
size_t new_entries(const Bytes& p) {
    size_t n = p[2], fresh = 0;
    for (size_t i = 0; i < n; ++i) fresh += (p[3 + i / 2] >> (4 * (i & 1))) & 8 ? 1 : 0;
    return fresh;
}

bool has_atom(const std::vector<Term>& atoms, std::string_view name) {
    return std::find(atoms.begin(), atoms.end(), atom(name)) != atoms.end();
}

}  // namespace

TEST_CASE("dist wire: erl's packets from node a to node b", "[dist]") {
    std::vector<Bytes> packets = captured_packets("a_to_b.dist.gz");
    REQUIRE(packets.size() > 40);
    dist::ReceiveState st(true, true);
    dist::ReceivedMessage m;
    std::vector<Delivered> got;
    size_t many_atom_headers = 0;
    std::map<uint64_t, size_t> fragments;  // per sequence
    std::vector<uint64_t> fragment_order;
    std::vector<size_t> many_atom_fresh;
    for (const Bytes& p : packets) {
        auto r = dist::parse_packet(p, st, m);
        INFO((r.ok() ? std::string() : r.error().message));
        REQUIRE(r.ok());
        if (p.size() >= 18 && (p[1] == 69 || p[1] == 70)) {
            uint64_t seq = 0;
            for (int i = 2; i < 10; ++i) seq = seq << 8 | p[i];
            ++fragments[seq];
            fragment_order.push_back(seq);
        }
        if (p[1] == 69) {
            // erl's fragments carry 64 KiB of term data each, the first after its atom cache part.
            CHECK(*r == dist::PacketKind::Incomplete);
            CHECK(st.buffered_bytes() >= dist::wire::DEFAULT_FRAGMENT_SIZE);
        }
        if (p[1] == 70 && *r == dist::PacketKind::Incomplete) CHECK(p.size() == 18 + dist::wire::DEFAULT_FRAGMENT_SIZE);
        if (*r != dist::PacketKind::Complete) continue;
        auto d = m.data();
        if (!m.reassembled) {
            // A whole message is the packet's bytes after its header; the control term (a
            // tuple) comes first.
            CHECK(d.data() + d.size() == p.data() + p.size());
            CHECK(d[0] == 104);
        }
        if (p[1] == 68 && p[2] == 255) {
            ++many_atom_headers;
            many_atom_fresh.push_back(new_entries(p));
            CHECK(m.atoms.size() == 255);
        }
        got.push_back({Bytes(d.begin(), d.end()), m.versionless, m.atoms});
    }
    CHECK(st.sequences_in_progress() == 0);
    CHECK(st.buffered_bytes() == 0);

    // Three fragmented messages: the 2 MiB one in 33 fragments of 64 KiB, then the two sent at
    // once, whose fragments erl interleaved (a sequence's packets are not all adjacent).
    REQUIRE(fragments.size() == 3);
    CHECK(fragments[fragment_order.front()] == 33);
    std::set<uint64_t> finished;
    bool interleaved = false;
    for (size_t i = 1; i < fragment_order.size(); ++i)
        if (fragment_order[i] != fragment_order[i - 1]) {
            interleaved |= finished.count(fragment_order[i]) > 0;
            finished.insert(fragment_order[i - 1]);
        }
    CHECK(interleaved);
    auto big = std::find_if(got.begin(), got.end(), [](const Delivered& d) { return d.data.size() > (2u << 20); });
    REQUIRE(big != got.end());
    CHECK(has_atom(big->atoms, "big"));
    CHECK(has_atom(big->atoms, "blob"));
    CHECK(has_atom(big->atoms, "\xc3\xa5ngstr\xc3\xb6m"));

    // 300 distinct atoms, twice: erl references 255 through the header, new entries the first
    // time and (nearly all) old references the second.
    REQUIRE(many_atom_headers == 2);
    CHECK(many_atom_fresh[0] >= 250);
    CHECK(many_atom_fresh[1] <= 5);
    size_t with_capture_atoms = 0;
    for (const Delivered& d : got)
        if (d.atoms.size() == 255 && has_atom(d.atoms, "capture_atom_1")) ++with_capture_atoms;
    CHECK(with_capture_atoms == 2);

    // 255-character atoms (the UTF-8 one is 510 bytes: the LongAtoms flag) and UTF-8 atoms.
    const std::string l255(255, 'l');
    std::string a255;
    for (int i = 0; i < 255; ++i) a255 += "\xc3\xa4";
    CHECK(std::any_of(got.begin(), got.end(), [&](const Delivered& d) {
        return has_atom(d.atoms, l255) && has_atom(d.atoms, a255);
    }));
    CHECK(std::any_of(got.begin(), got.end(), [&](const Delivered& d) {
        return has_atom(d.atoms, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e") && has_atom(d.atoms, "\xf0\x9f\x98\x80x");
    }));

    // Term level: each message a's scenario sent one after the other is a payload, in order,
    // and so are the two it sent at once.
    LiteralArea area;
    auto expected = decode_external(area, read_file("a_to_b.expected"));
    REQUIRE(expected.ok());
    REQUIRE((is_tuple(*expected) && tuple_arity(*expected) == 2));
    std::vector<Term> want, parallel;
    for (Term t = tuple_elem(*expected, 0); is_list(t); t = tail(t)) want.push_back(head(t));
    for (Term t = tuple_elem(*expected, 1); is_list(t); t = tail(t)) parallel.push_back(head(t));
    REQUIRE(want.size() == 7);
    REQUIRE(parallel.size() == 2);
    size_t next = 0;
    std::vector<bool> parallel_seen(2);
    for (const Delivered& d : got) {
        auto terms = decode_terms(area, d);
        REQUIRE(!terms.empty());
        REQUIRE(terms[0].has_value());  // every control message decodes
        Term ctl = *terms[0];
        REQUIRE(is_tuple(ctl));
        CHECK(is_small(tuple_elem(ctl, 0)));
        if (terms.size() == 2) REQUIRE(terms[1].has_value());
        for (size_t k = 0; k < 2; ++k)
            if (terms.size() == 2 && eq_exact(*terms[1], parallel[k])) parallel_seen[k] = true;
        if (terms.size() == 2 && next < want.size() && eq_exact(*terms[1], want[next])) {
            // The scenario sends by pid (SEND_SENDER, {22, From, To}) and by name (REG_SEND,
            // {6, From, '', capture_sink}) in turn.
            if (next % 2 == 0) {
                CHECK(tuple_elem(ctl, 0) == make_small(22));
            } else {
                CHECK(tuple_elem(ctl, 0) == make_small(6));
                REQUIRE(tuple_arity(ctl) == 4);
                CHECK(tuple_elem(ctl, 3) == atom("capture_sink"));
            }
            ++next;
        }
    }
    CHECK(next == want.size());
    CHECK(parallel_seen == std::vector<bool>{true, true});
}

TEST_CASE("dist wire: erl's packets from node b to node a", "[dist]") {
    std::vector<Bytes> packets = captured_packets("b_to_a.dist.gz");
    REQUIRE(packets.size() > 5);
    dist::ReceiveState st(true, true);
    auto got = feed_all(st, packets);
    CHECK(got.size() == packets.size());  // nothing fragmented this way
    // The sink's acks: {ack, Label, Pid, 'réponse_ü'}.
    size_t acks = 0;
    for (const Delivered& d : got)
        if (has_atom(d.atoms, "ack") && has_atom(d.atoms, "r\xc3\xa9ponse_\xc3\xbc")) ++acks;
    CHECK(acks >= 7);
    LiteralArea area;
    for (const Delivered& d : got)
        for (auto& t : decode_terms(area, d)) CHECK(t.has_value());
}

TEST_CASE("dist wire: frame_message cuts a message where erl cut its 2 MiB one", "[dist]") {
    std::vector<Bytes> packets = captured_packets("a_to_b.dist.gz");
    std::vector<Bytes> erl_frags;  // the first sequence's (the scenario's 2 MiB message)
    for (const Bytes& p : packets)
        if (p.size() >= 18 && (p[1] == 69 || p[1] == 70) && (erl_frags.empty() || std::equal(p.begin() + 2, p.begin() + 10, erl_frags[0].begin() + 2)))
            erl_frags.push_back(p);
    REQUIRE(erl_frags.size() == 33);
    dist::ReceiveState st(true, true);  // the whole stream: the first fragment uses cached atoms
    auto got = feed_all(st, packets);
    auto big = std::find_if(got.begin(), got.end(), [](const Delivered& d) { return d.data.size() > (2u << 20); });
    REQUIRE(big != got.end());  // the first to complete
    const Bytes& data = big->data;
    // The same bytes framed here (split anywhere inside the first 64 KiB: where the control term
    // ends does not move the cuts), with erl's sequence id. erl's first fragment has an atom
    // cache part where ours has none; every later packet must be erl's byte for byte.
    Bytes control{131}, payload{131};
    control.insert(control.end(), data.begin(), data.begin() + 100);
    payload.insert(payload.end(), data.begin() + 100, data.end());
    uint64_t seq = 0;
    for (int i = 2; i < 10; ++i) seq = seq << 8 | erl_frags[0][i];
    std::vector<Bytes> ours;
    REQUIRE(dist::frame_message(control, payload, true, true, seq, dist::wire::DEFAULT_FRAGMENT_SIZE, ours).ok());
    REQUIRE(ours.size() == erl_frags.size());
    CHECK(Bytes(ours[0].begin(), ours[0].begin() + 18) == Bytes(erl_frags[0].begin(), erl_frags[0].begin() + 18));
    CHECK(ours[0].size() - 19 == dist::wire::DEFAULT_FRAGMENT_SIZE);
    for (size_t i = 1; i < ours.size(); ++i) CHECK(ours[i] == erl_frags[i]);
}

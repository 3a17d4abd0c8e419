// Receive markers (vm/recv_markers.hpp): the table the recv_marker_* instructions use. The
// conformance module proc_recv_markers checks the behaviour end to end against erl; these
// cases pin the table's own rules: binding, lookup by reference, positions moving with
// removals, reuse of the oldest slot when all eight are taken.
#include <catch2/catch.hpp>

#include "terms_util.hpp"
#include "vm/process_side_memory.hpp"
#include "vm/recv_markers.hpp"
#include "vm/term_refs.hpp"

using namespace beam;

TEST_CASE("recv markers: reserve, bind, position, clear", "[recv_markers]") {
    LiteralArea a;
    RecvMarkers m;
    Term r1 = make_ref_from_number(a, 1001), r2 = make_ref_from_number(a, 1002);
    Term id = m.reserve(5);
    REQUIRE(is_small(id));
    CHECK(!m.position(r1));  // not bound yet
    m.bind(id, r1);
    REQUIRE(m.position(r1));
    CHECK(*m.position(r1) == 5);
    CHECK(!m.position(r2));
    CHECK(!m.position(id));   // only a reference names a bound marker
    CHECK(*m.position(make_ref_from_number(a, 1001)) == 5);  // an equal reference, another copy
    m.clear(r1);
    CHECK(!m.position(r1));
}

TEST_CASE("recv markers: binding to a non-reference frees the marker", "[recv_markers]") {
    LiteralArea a;
    RecvMarkers m;
    Term id = m.reserve(3);
    m.bind(id, make_small(7));
    Term r = make_ref_from_number(a, 5);
    m.bind(id, r);  // the id is gone
    CHECK(!m.position(r));
    m.bind(am::undefined, r);  // reserve on an empty mailbox returns 'undefined'
    CHECK(!m.position(r));
}

TEST_CASE("recv markers: removals before a marker move it down", "[recv_markers]") {
    LiteralArea a;
    RecvMarkers m;
    Term r = make_ref_from_number(a, 77);
    m.bind(m.reserve(10), r);
    m.message_removed(10);  // the first message after the marker: no move
    m.message_removed(12);
    CHECK(*m.position(r) == 10);
    m.message_removed(0);  // now at 9
    m.message_removed(9);  // again the first message after it
    CHECK(*m.position(r) == 9);
    m.message_removed(8);
    CHECK(*m.position(r) == 8);
}

TEST_CASE("recv markers: a ninth marker reuses the oldest slot", "[recv_markers]") {
    LiteralArea a;
    RecvMarkers m;
    std::vector<Term> refs;
    for (size_t i = 0; i <= RecvMarkers::SLOTS; ++i) {
        refs.push_back(make_ref_from_number(a, 100 + i));
        m.bind(m.reserve(i), refs.back());
    }
    CHECK(!m.position(refs[0]));  // forgotten: its receive scans from the start, still correct
    for (size_t i = 1; i <= RecvMarkers::SLOTS; ++i) CHECK(*m.position(refs[i]) == i);
    m.clear(refs[3]);
    Term again = make_ref_from_number(a, 999);
    m.bind(m.reserve(42), again);  // takes the freed slot, not the oldest live one
    CHECK(*m.position(refs[1]) == 1);
    CHECK(*m.position(again) == 42);
}

TEST_CASE("recv markers: the table is allocated at the first reserve and counted", "[recv_markers]") {
    LiteralArea a;
    size_t before = process_side_bytes();
    {
        RecvMarkers m;
        CHECK(process_side_bytes() == before);
        m.message_removed(0);  // no table: nothing to move
        CHECK(!m.position(make_ref_from_number(a, 7)));
        m.clear(make_small(1));
        CHECK(process_side_bytes() == before);
        m.reserve(0);
        CHECK(process_side_bytes() > before);
    }
    CHECK(process_side_bytes() == before);
}

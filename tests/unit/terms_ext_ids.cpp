// The codec's node options (vm/ext_term.hpp): which pids, ports and references are local
// depends on DecodeOptions::node / EncodeOptions::node; ATOM_CACHE_REF and versionless terms
// are what follows a distribution header.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/ext_ids.hpp"
#include "vm/ext_term.hpp"
#include "vm/ext_term_tags.hpp"
#include "vm/term_order.hpp"
#include "vm/term_print.hpp"

using namespace beam;
using Bytes = std::vector<uint8_t>;

namespace {

void put_u32(Bytes& b, uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) b.push_back(uint8_t(v >> s));
}
void put_atom(Bytes& b, std::string_view name) {
    b.push_back(ext::ATOM);
    b.push_back(0);
    b.push_back(uint8_t(name.size()));
    b.insert(b.end(), name.begin(), name.end());
}
// NEW_PID_EXT of node/creation, with or without the version byte.
Bytes pid_bytes(std::string_view node, uint32_t id, uint32_t serial, uint32_t creation, bool version = true) {
    Bytes b;
    if (version) b.push_back(ext::VERSION);
    b.push_back(ext::NEW_PID);
    put_atom(b, node);
    put_u32(b, id);
    put_u32(b, serial);
    put_u32(b, creation);
    return b;
}
Bytes encode(Term t, const NodeIdentity* node) {
    Bytes out;
    EncodeOptions o;
    o.node = node;
    REQUIRE(encode_external(t, out, o).ok());
    return out;
}
Result<Term> decode(TermAllocator& a, const Bytes& b, DecodeOptions o) { return decode_external(a, b, nullptr, o); }

}  // namespace

TEST_CASE("local ids carry this node's name and creation", "[terms][ext][dist]") {
    NodeIdentity node(atom("a@h"), 5);
    Term pid = make_local_pid(7 | uint64_t(2) << PID_ID_BITS);
    Bytes b = encode(pid, &node);
    CHECK(b == pid_bytes("a@h", 7, 2, 5));
    LiteralArea a;
    DecodeOptions o;
    o.node = &node;
    auto back = decode(a, b, o);
    REQUIRE(back.ok());
    CHECK(back.value() == pid);  // local again: the same immediate

    // Ports and references too.
    Term port = make_local_port(42);
    Bytes pb = encode(port, &node);
    auto port_back = decode(a, pb, o);
    REQUIRE(port_back.ok());
    CHECK(port_back.value() == port);
    Term* hp = a.alloc(REF_WORDS);
    hp[0] = make_header(Sub::Ref, 3);
    hp[1] = Term{11}, hp[2] = Term{22}, hp[3] = Term{33};
    Term ref = make_boxed(hp);
    Bytes rb = encode(ref, &node);
    auto ref_back = decode(a, rb, o);
    REQUIRE(ref_back.ok());
    CHECK(is_boxed_sub(ref_back.value(), Sub::Ref));
    CHECK(eq_exact(ref_back.value(), ref));

    // Without a node the same bytes are another node's.
    auto foreign = decode(a, b, {});
    REQUIRE(foreign.ok());
    CHECK(is_ext_pid(foreign.value()));
    CHECK(ext_id_node(foreign.value()) == atom("a@h"));
}

TEST_CASE("another creation of this node's name decodes as external", "[terms][ext][dist]") {
    NodeIdentity node(atom("a@h"), 5);
    LiteralArea a;
    DecodeOptions o;
    o.node = &node;
    auto r = decode(a, pid_bytes("a@h", 7, 2, 6), o);
    REQUIRE(r.ok());
    Term p = r.value();
    REQUIRE(is_ext_pid(p));
    CHECK(is_pid(p));
    CHECK(ext_id_node(p) == atom("a@h"));
    CHECK(ext_id_creation(p) == 6);
    CHECK(ext_pid_id(p) == 7);
    CHECK(ext_pid_serial(p) == 2);
    CHECK(id_node(p, node) == atom("a@h"));
    CHECK_FALSE(eq_exact(p, make_local_pid(7 | uint64_t(2) << PID_ID_BITS)));
    // It keeps its own node and creation when encoded, whatever this node is.
    CHECK(encode(p, &node) == pid_bytes("a@h", 7, 2, 6));
    CHECK(encode(p, nullptr) == pid_bytes("a@h", 7, 2, 6));
    // External pids keep 32-bit ids and serials, which a local pid could not hold.
    auto big = decode(a, pid_bytes("a@h", 0x12345678, 0x9ABCDEF0, 6), o);
    REQUIRE(big.ok());
    CHECK(encode(big.value(), &node) == pid_bytes("a@h", 0x12345678, 0x9ABCDEF0, 6));
    // The same numbers on this node are out of range.
    CHECK_FALSE(decode(a, pid_bytes("a@h", 0x12345678, 0, 5), o).ok());
}

TEST_CASE("external ports and references round trip", "[terms][ext][dist]") {
    LiteralArea a;
    // V4_PORT_EXT with a 64-bit number, and a 5-word reference of x@y.
    Bytes port{ext::VERSION, ext::V4_PORT};
    put_atom(port, "x@y");
    put_u32(port, 1), put_u32(port, 0);  // 2^32
    put_u32(port, 7);
    auto p = decode(a, port, {});
    REQUIRE(p.ok());
    CHECK(is_ext_port(p.value()));
    CHECK(ext_port_number(p.value()) == uint64_t{1} << 32);
    CHECK(encode(p.value(), nullptr) == port);

    Bytes ref{ext::VERSION, ext::NEWER_REFERENCE, 0, 5};
    put_atom(ref, "x@y");
    put_u32(ref, 7);
    for (uint32_t w : {1u, 2u, 3u, 0u, 0u}) put_u32(ref, w);
    auto r = decode(a, ref, {});
    REQUIRE(r.ok());
    CHECK(is_ext_ref(r.value()));
    CHECK(ext_ref_len(r.value()) == 5);
    CHECK(encode(r.value(), nullptr) == ref);
    // Equal to its 3-word form (trailing zero words do not count), as erts compares.
    uint32_t three[] = {1, 2, 3};
    Term r3 = make_ext_ref(a, atom("x@y"), 7, three);
    CHECK(eq_exact(r.value(), r3));
    CHECK(compare_terms(r.value(), r3) == 0);
    CHECK(display_string(r.value()).ends_with(".0.0.3.2.1>"));
}

TEST_CASE("atom cache references and versionless terms", "[terms][ext][dist]") {
    LiteralArea a;
    Term cache[] = {atom("hello"), atom("x@y")};
    DecodeOptions o;
    o.atom_cache = cache;
    o.versionless = true;
    // {ATOM_CACHE_REF 0, ATOM_CACHE_REF 1} without the version byte.
    Bytes t{ext::SMALL_TUPLE, 2, ext::ATOM_CACHE_REF, 0, ext::ATOM_CACHE_REF, 1};
    size_t used = 0;
    auto r = decode_external(a, t, &used, o);
    REQUIRE(r.ok());
    CHECK(used == t.size());
    CHECK(display_string(r.value()) == "{hello,'x@y'}");

    // A pid whose node comes from the cache.
    Bytes pid{ext::NEW_PID, ext::ATOM_CACHE_REF, 1};
    put_u32(pid, 3), put_u32(pid, 0), put_u32(pid, 9);
    auto p = decode_external(a, pid, nullptr, o);
    REQUIRE(p.ok());
    CHECK(is_ext_pid(p.value()));
    CHECK(ext_id_node(p.value()) == atom("x@y"));

    // Versionless decoding of ordinary bytes; the version byte is then an unknown tag.
    auto v = decode_external(a, Bytes{ext::SMALL_INTEGER, 5}, nullptr, o);
    REQUIRE(v.ok());
    CHECK(v.value() == make_small(5));
    CHECK_FALSE(decode_external(a, Bytes{ext::VERSION, ext::SMALL_INTEGER, 5}, nullptr, o).ok());
}

TEST_CASE("a bad atom cache index is an error", "[terms][ext][dist]") {
    LiteralArea a;
    Term cache[] = {atom("hello")};
    DecodeOptions o;
    o.atom_cache = cache;
    auto r = decode_external(a, Bytes{ext::VERSION, ext::ATOM_CACHE_REF, 1}, nullptr, o);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("atom cache index 1") != std::string::npos);
    // Without a cache every index is bad.
    CHECK_FALSE(decode_external(a, Bytes{ext::VERSION, ext::ATOM_CACHE_REF, 0}, nullptr, {}).ok());
    // And a truncated one.
    CHECK_FALSE(decode_external(a, Bytes{ext::VERSION, ext::ATOM_CACHE_REF}, nullptr, o).ok());
}

TEST_CASE("node identity", "[terms][dist]") {
    NodeIdentity n;
    CHECK(n.name() == am::nonode_at_nohost);
    CHECK(n.creation() == 0);
    CHECK_FALSE(n.is_alive());
    n.set(atom("a@h"), 0xFFFFFFFF);
    CHECK(n.name() == atom("a@h"));
    CHECK(n.creation() == 0xFFFFFFFF);
    CHECK(n.is_alive());
    CHECK(n.is_this(atom("a@h"), 0xFFFFFFFF));
    CHECK_FALSE(n.is_this(atom("a@h"), 1));
    CHECK(thread_node_identity().name() == am::nonode_at_nohost);
    {
        ThreadNodeScope scope(n);
        CHECK(thread_node_identity().name() == atom("a@h"));
    }
    CHECK(thread_node_identity().name() == am::nonode_at_nohost);
}

TEST_CASE("order and printing of ids depend on the thread's node", "[terms][dist][order]") {
    LiteralArea a;
    Term local = make_local_pid(5 | uint64_t(1) << PID_ID_BITS);
    Term remote = make_ext_pid(a, atom("m@h"), 1, 5, 1);  // same id and serial: the node decides
    uint32_t ids[] = {1, 2, 3};
    Term remote_ref = make_ext_ref(a, atom("m@h"), 1, ids);
    Term* hp = a.alloc(REF_WORDS);
    hp[0] = make_header(Sub::Ref, 3);
    hp[1] = Term{9}, hp[2] = Term{9}, hp[3] = Term{9};
    Term local_ref = make_boxed(hp);
    // Not alive: nonode@nohost > m@h.
    CHECK(compare_terms(remote, local) < 0);
    CHECK(compare_terms(remote_ref, local_ref) < 0);
    NodeIdentity low(atom("a@h"), 1), high(atom("z@h"), 1), same_name(atom("m@h"), 2);
    {
        ThreadNodeScope scope(low);
        CHECK(compare_terms(local, remote) < 0);
        CHECK(compare_terms(local_ref, remote_ref) < 0);
    }
    {
        ThreadNodeScope scope(high);
        CHECK(compare_terms(local, remote) > 0);
    }
    {
        // Same name: the creation decides (2 > 1); an external id of this node's name prints
        // node number 0, as erts' this dist entry.
        ThreadNodeScope scope(same_name);
        CHECK(compare_terms(local, remote) > 0);
        CHECK(display_string(remote) == "<0.5.1>");
    }
    CHECK(display_string(remote) == "<" + std::to_string(atom_index(atom("m@h"))) + ".5.1>");
}

// External term format: bytes produced by term_to_binary/1,2 on OTP 25 decode, and re-encode
// to exactly the same bytes.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/ext_term.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

using namespace beam;
using Bytes = std::vector<uint8_t>;

namespace {
Bytes encode(Term t, EncodeOptions opts = {}) {
    Bytes out;
    auto r = encode_external(t, out, opts);
    INFO((r.ok() ? "" : r.error().message));
    REQUIRE(r.ok());
    return out;
}
Term decode(LiteralArea& a, const Bytes& b) {
    size_t used = 0;
    auto r = decode_external(a, b, &used);
    INFO((r.ok() ? "" : r.error().message));
    REQUIRE(r.ok());
    CHECK(used == b.size());
    return *r;
}
}  // namespace

// Each line: a term as erl prints it, and term_to_binary(Term) on OTP 25.
TEST_CASE("OTP 25 term_to_binary bytes round-trip", "[terms][ext]") {
    const std::vector<std::pair<const char*, Bytes>> cases = {
        {"abc", {131, 100, 0, 3, 97, 98, 99}},
        {"'\\x{e4}' (latin-1 atom)", {131, 100, 0, 1, 228}},
        {"'\\x{3bb}' (lambda)", {131, 119, 2, 206, 187}},
        {"[abc,\"x\",<<1:3>>,1.5,1 bsl 70,-5,300,-(1 bsl 31),fun lists:map/2,#{b=>1,a=>2},{},[]]",
         {131, 108, 0, 0, 0, 12, 100, 0, 3, 97, 98, 99, 107, 0, 1, 120, 77, 0, 0, 0, 1, 3, 32, 70, 63, 248, 0, 0, 0, 0,
          0, 0, 110, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 98, 255, 255, 255, 251, 98, 0, 0, 1, 44, 98, 128, 0, 0, 0, 113,
          100, 0, 5, 108, 105, 115, 116, 115, 100, 0, 3, 109, 97, 112, 97, 2, 116, 0, 0, 0, 2, 100, 0, 1, 97, 97, 2,
          100, 0, 1, 98, 97, 1, 104, 0, 106, 106}},
        {"{-1,256,1 bsl 59,-(1 bsl 64),4294967296}",
         {131, 104, 5, 98, 255, 255, 255, 255, 98, 0, 0, 1, 0, 110, 8, 0, 0, 0, 0, 0, 0, 0, 0, 8, 110, 9, 1, 0, 0, 0,
          0, 0, 0, 0, 0, 1, 110, 5, 0, 0, 0, 0, 0, 1}},
        {"[1,2|3]", {131, 108, 0, 0, 0, 2, 97, 1, 97, 2, 97, 3}},
        {"[]", {131, 106}},
        {"[300]", {131, 108, 0, 0, 0, 1, 98, 0, 0, 1, 44, 106}},
        {"<<>>", {131, 109, 0, 0, 0, 0}},
        {"<<5:4>>", {131, 77, 0, 0, 0, 1, 4, 80}},
        {"#{}", {131, 116, 0, 0, 0, 0}},
        {"{ok,#{1=>\"a\",a=><<\"b\">>}}",
         {131, 104, 2, 100, 0, 2, 111, 107, 116, 0, 0, 0, 2, 97, 1, 107, 0, 1, 97, 100, 0, 1, 97, 109, 0, 0, 0, 1, 98}},
        {"lists:seq(1,10)", {131, 107, 0, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
        {"<0.9.0>", {131, 88, 100, 0, 13, 110, 111, 110, 111, 100, 101, 64, 110, 111, 104, 111, 115, 116, 0, 0, 0, 9, 0,
                     0, 0, 0, 0, 0, 0, 0}},
        {"<0.77.3>", {131, 88, 100, 0, 13, 110, 111, 110, 111, 100, 101, 64, 110, 111, 104, 111, 115, 116, 0, 0, 0, 77,
                      0, 0, 0, 3, 0, 0, 0, 0}},
        {"#Ref<0.2.3894148900.1573956>",
         {131, 90, 0, 3, 100, 0, 13, 110, 111, 110, 111, 100, 101, 64, 110, 111, 104, 111, 115, 116, 0, 0, 0, 0, 0, 2,
          232, 55, 191, 36, 0, 1, 124, 148, 68, 219}},
        {"#Port<0.0>", {131, 89, 100, 0, 13, 110, 111, 110, 111, 100, 101, 64, 110, 111, 104, 111, 115, 116, 0, 0, 0,
                        0, 0, 0, 0, 0}},
    };
    for (const auto& [text, bytes] : cases) {
        INFO(text);
        LiteralArea a;
        Term t = decode(a, bytes);
        CHECK(encode(t) == bytes);
    }
}

TEST_CASE("decoded values have the expected shape", "[terms][ext]") {
    LiteralArea a;
    Term t = decode(a, {131, 104, 5, 98, 255, 255, 255, 255, 98, 0, 0, 1, 0, 110, 8, 0, 0, 0, 0, 0, 0, 0, 0, 8, 110,
                        9, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 110, 5, 0, 0, 0, 0, 0, 1});
    REQUIRE(is_tuple(t));
    CHECK(small_value(tuple_elem(t, 0)) == -1);
    CHECK(small_value(tuple_elem(t, 1)) == 256);
    CHECK(int_to_string(tuple_elem(t, 2)) == "576460752303423488");
    CHECK(int_to_string(tuple_elem(t, 3)) == "-18446744073709551616");
    CHECK(small_value(tuple_elem(t, 4)) == 4294967296);

    Term pid = decode(a, {131, 88, 100, 0, 13, 110, 111, 110, 111, 100, 101, 64, 110, 111, 104, 111, 115, 116, 0, 0, 0,
                          77, 0, 0, 0, 3, 0, 0, 0, 0});
    REQUIRE(is_local_pid(pid));
    CHECK(local_pid_number(pid) == (77 | uint64_t(3) << PID_ID_BITS));

    Term bits = decode(a, {131, 77, 0, 0, 0, 1, 4, 80});  // <<5:4>>
    REQUIRE(is_bitstring(bits));
    CHECK(bit_view(bits).bit_size == 4);

    Term fun = decode(a, {131, 113, 100, 0, 5, 108, 105, 115, 116, 115, 100, 0, 3, 109, 97, 112, 97, 2});
    REQUIRE(is_boxed_sub(fun, Sub::Export));
    CHECK(atom_name(export_of(fun)->module) == "lists");
    CHECK(export_of(fun)->arity == 2);
    CHECK(export_of(fun) == detached_export(atom("lists"), atom("map"), 2));
}

TEST_CASE("encoding built terms", "[terms][ext]") {
    LiteralArea a;
    CHECK(encode(make_small(0)) == Bytes{131, 97, 0});
    CHECK(encode(make_small(255)) == Bytes{131, 97, 255});
    CHECK(encode(make_small(-1)) == Bytes{131, 98, 255, 255, 255, 255});
    CHECK(encode(atom("true")) == Bytes{131, 100, 0, 4, 116, 114, 117, 101});
    // term_to_binary(<<1,2,3>>)
    CHECK(encode(make_binary(a, std::string_view("\x01\x02\x03", 3))) == Bytes{131, 109, 0, 0, 0, 3, 1, 2, 3});
    // term_to_binary(1.5, [{minor_version,0}]): "%.20e" text
    Term f = make_float_at(a.alloc(FLOAT_WORDS), 1.5);
    EncodeOptions v0;
    v0.minor_version = 0;
    CHECK(encode(f, v0) == Bytes{131, 99, 49, 46, 53, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48,
                                 48, 48, 48, 48, 48, 101, 43, 48, 48, 0, 0, 0, 0, 0});
    // A sub-binary at an odd bit offset still encodes its bits packed from the first byte.
    Term bin = make_binary(a, std::string_view("\xF0\x0F", 2));
    Term sub = make_sub_binary(a, bin, 4, 8);  // bits 0000 0000 -> <<0>>
    CHECK(encode(sub) == Bytes{131, 109, 0, 0, 0, 1, 0});
}

TEST_CASE("old float text and compressed terms decode", "[terms][ext]") {
    LiteralArea a;
    Term f = decode(a, {131, 99, 49, 46, 53, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48, 48,
                        48, 48, 48, 48, 48, 101, 43, 48, 48, 0, 0, 0, 0, 0});
    REQUIRE(is_float(f));
    CHECK(float_value(f) == 1.5);

    // term_to_binary(lists:duplicate(100, abc), [compressed])
    Bytes packed{131, 80, 0, 0, 2, 94, 120, 156, 203, 97, 96, 96, 72, 73, 97, 96, 78, 76, 74, 30, 37, 71, 73, 234,
                 146, 89, 0, 81, 160, 156, 79};
    Term l = decode(a, packed);
    size_t n = 0;
    for (Term p = l; is_list(p); p = tail(p), ++n) CHECK(head(p) == atom("abc"));
    CHECK(n == 100);
    EncodeOptions z;
    z.compressed = 6;
    CHECK(encode(l, z) == packed);
    // term_to_binary(lists:seq(1,10), [compressed]) is not compressed: it would not get smaller.
    Term small_list = decode(a, {131, 107, 0, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    CHECK(encode(small_list, z) == Bytes{131, 107, 0, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
}

// binary_to_term on malformed input: every case is an Error, none crashes or over-allocates.
#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/ext_term.hpp"

using namespace beam;
using Bytes = std::vector<uint8_t>;

namespace {
std::string decode_error(const Bytes& b, DecodeOptions opts = {}) {
    LiteralArea a;
    auto r = decode_external(a, b, nullptr, opts);
    return r.ok() ? std::string("<decoded>") : r.error().message;
}
bool fails_with(const Bytes& b, const std::string& part) {
    std::string e = decode_error(b);
    INFO(e);
    return e.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("malformed external terms are errors", "[terms][ext]") {
    CHECK(fails_with({}, "version"));
    CHECK(fails_with({130, 106}, "version"));
    CHECK(fails_with({131}, "truncated"));
    CHECK(fails_with({131, 255}, "unknown tag 255"));
    CHECK(fails_with({131, 98, 0, 0}, "truncated integer"));
    CHECK(fails_with({131, 105, 0xFF, 0xFF, 0xFF, 0xFF}, "tuple arity exceeds"));
    CHECK(fails_with({131, 108, 0x7F, 0xFF, 0xFF, 0xFF, 106}, "list length exceeds"));
    CHECK(fails_with({131, 109, 0, 0, 0, 9, 1}, "truncated binary"));
    CHECK(fails_with({131, 111, 0xFF, 0xFF, 0xFF, 0xFF, 0}, "bignum size exceeds"));
    CHECK(fails_with({131, 116, 0x10, 0, 0, 0}, "map size exceeds"));
    // #{a => 1, a => 2} is refused, as binary_to_term does.
    CHECK(fails_with({131, 116, 0, 0, 0, 2, 100, 0, 1, 97, 97, 1, 100, 0, 1, 97, 97, 2}, "duplicate map key"));
    CHECK(fails_with({131, 119, 2, 0xC3, 0x28}, "not valid UTF-8"));
    CHECK(fails_with({131, 77, 0, 0, 0, 1, 0, 0}, "bitstring"));
    CHECK(fails_with({131, 70, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0}, "not finite"));  // +inf
    // PID_EXT with a creation above 3 (erts' ERTS_MAX_TINY_CREATION).
    CHECK(fails_with({131, 103, 100, 0, 5, 'a', '@', 'h', 'o', 's', 0, 0, 0, 1, 0, 0, 0, 0, 4}, "creation above 3"));
    // Compressed: size that deflate could never reach, and a corrupt stream.
    CHECK(fails_with({131, 80, 0x7F, 0xFF, 0xFF, 0xFF, 120, 156, 1, 2}, "impossible"));
    CHECK(fails_with({131, 80, 0, 0, 0, 10, 120, 156, 1, 2, 3, 4, 5}, "zlib"));
    CHECK(fails_with({131, 104, 1, 80, 0, 0, 0, 1, 0}, "compressed"));
}

TEST_CASE("safe mode refuses new atoms", "[terms][ext]") {
    DecodeOptions safe;
    safe.safe = true;
    std::string name = "ext_term_test_never_created_atom";
    Bytes b{131, 100, 0, uint8_t(name.size())};
    b.insert(b.end(), name.begin(), name.end());
    CHECK(decode_error(b, safe).find("unknown atom") != std::string::npos);
    CHECK_FALSE(AtomTable::instance().find(name).has_value());
    CHECK(decode_error({131, 100, 0, 2, 'o', 'k'}, safe) == "<decoded>");
}

TEST_CASE("deep nesting decodes without recursion", "[terms][ext]") {
    // 200,000 nested one-element tuples: {{{...[]...}}}
    Bytes b{131};
    for (int i = 0; i < 200000; ++i) {
        b.push_back(104);
        b.push_back(1);
    }
    b.push_back(106);
    CHECK(decode_error(b) == "<decoded>");
    b.pop_back();  // the innermost tuple now claims an element that is not there
    CHECK(decode_error(b).find("tuple arity exceeds the input") != std::string::npos);
}

TEST_CASE("random garbage never crashes the decoder", "[terms][ext]") {
    std::mt19937 rng(7);
    size_t decoded = 0;
    for (int i = 0; i < 2000; ++i) {
        Bytes b{131};
        size_t n = rng() % 40;
        for (size_t k = 0; k < n; ++k) b.push_back(uint8_t(rng() % 4 ? 97 + rng() % 24 : rng()));
        if (decode_error(b) == "<decoded>") ++decoded;
    }
    CHECK(decoded < 2000);
}

// Gzip-compressed .beam files (loader/beam_inflate): erlc's `+compressed` output parses as the
// plain file; broken streams, streams that inflate to garbage and gzip bombs are errors.
#include <catch2/catch.hpp>
#include <string>

#include "gzip_util.hpp"
#include "loader/beam_inflate.hpp"
#include "loader/beam_module.hpp"
#include "loader_test_util.hpp"

using namespace beam;
using namespace beam::loader;

namespace {
std::vector<uint8_t> compressed_fixture() {
    return test::read_file_bytes(std::string(LOADER_FIXTURE_DIR) + "/compressed/loader_sample.beam");
}
std::string parse_error(const std::vector<uint8_t>& bytes) {
    LiteralArea area;
    auto r = parse_beam(bytes, area);
    return r.ok() ? std::string("<parsed>") : r.error().message;
}
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("erlc's compressed output parses as the plain file", "[loader][gzip]") {
    auto plain = test::fixture_beam("loader_sample");
    auto gz = compressed_fixture();
    REQUIRE(is_gzip(gz));
    REQUIRE(!is_gzip(plain));
    LiteralArea a1, a2, a3;
    auto p = parse_beam(plain, a1);
    auto c = parse_beam(gz, a2);
    auto z = parse_beam(test::gzip_bytes(plain), a3);  // zlib's own gzip, as zlib:gzip/1 writes
    REQUIRE(p.ok());
    REQUIRE(c.ok());
    REQUIRE(z.ok());
    CHECK(c->name == p->name);
    CHECK(c->code.size() == p->code.size());
    CHECK(c->exports.size() == p->exports.size());
    CHECK(std::equal(std::begin(c->md5), std::end(c->md5), p->md5));
    CHECK(std::equal(std::begin(z->md5), std::end(z->md5), p->md5));
    CHECK(beam_md5(gz).value() == beam_md5(plain).value());
}

TEST_CASE("broken gzip streams are errors", "[loader][gzip]") {
    auto plain = test::fixture_beam("loader_sample");
    auto gz = compressed_fixture();
    // Every truncation, down to the magic alone.
    size_t refused = 0;
    for (size_t n = 2; n < gz.size(); ++n) {
        std::string e = parse_error({gz.begin(), gz.begin() + long(n)});
        if (contains(e, "gzip-compressed beam file")) ++refused;
    }
    CHECK(refused == gz.size() - 2);

    auto with = [](std::vector<uint8_t> b, const std::vector<uint8_t>& tail) {
        b.insert(b.end(), tail.begin(), tail.end());
        return b;
    };
    CHECK(contains(parse_error(with(gz, {'x', 'y', 'z'})), "gzip-compressed beam file"));
    CHECK(contains(parse_error(with(gz, {0, 0, 0, 0})), "gzip-compressed beam file"));
    CHECK(parse_error(with(gz, gz)) == "<parsed>");  // two members, as erl accepts
    auto bad_crc = gz;
    bad_crc[gz.size() - 8] ^= 1;
    CHECK(contains(parse_error(bad_crc), "gzip-compressed beam file"));

    // Streams that inflate to something that is not a module.
    CHECK(contains(parse_error(test::gzip_bytes({'n', 'o', 't', ' ', 'a', ' ', 'b', 'e', 'a', 'm'})), "bad magic"));
    CHECK(contains(parse_error(test::gzip_bytes(gz)), "bad magic"));  // gzip in gzip: inflated once only
    CHECK(contains(parse_error(test::gzip_bytes({})), "bad magic"));
    CHECK(contains(parse_error(test::gzip_bytes({plain.begin(), plain.begin() + long(plain.size() / 2)})),
                   "exceeds"));
}

TEST_CASE("a gzip bomb stops at the inflate limit", "[loader][gzip]") {
    auto plain = test::fixture_beam("loader_sample");
    // The module then zeros: erl accepts bytes after the FOR1 form, so only the limit refuses it.
    size_t pad_to_limit = MAX_INFLATED_BEAM - plain.size();
    auto at_limit = test::gzip_bytes(plain, pad_to_limit);
    auto past_limit = test::gzip_bytes(plain, pad_to_limit + 1);
    CHECK(past_limit.size() < 1'000'000);  // a small file
    CHECK(parse_error(at_limit) == "<parsed>");
    std::string e = parse_error(past_limit);
    INFO(e);
    CHECK(contains(e, "inflates past the " + std::to_string(MAX_INFLATED_BEAM >> 20) + " MiB limit"));
}

TEST_CASE("a literal table claiming more than the limit is refused", "[loader][gzip]") {
    auto chunks = test::split_chunks(test::fixture_beam("loader_sample"));
    auto* lit = test::find_chunk(chunks, "LitT");
    REQUIRE(lit);
    // Enough packed bytes that the claim is not already impossible by deflate's ratio.
    lit->data.assign(200'000, 0x55);
    test::set_u32(lit->data, 0, uint32_t(MAX_INFLATED_BEAM + 1));
    std::string e = parse_error(test::join_chunks(chunks));
    CHECK(contains(e, "chunk LitT"));
    CHECK(contains(e, "past the " + std::to_string(MAX_INFLATED_BEAM >> 20) + " MiB limit"));
}

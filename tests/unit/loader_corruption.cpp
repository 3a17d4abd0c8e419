// 1,000 mutated copies of real .beam files (deterministic seed): truncations, flipped bytes,
// corrupted chunk sizes, garbage runs; and 1,000 of their gzip-compressed forms, mutated
// before or after compression. The loader must return (a result or an Error with a message)
// for every one: a crash, hang or runaway allocation fails the suite.
#include <catch2/catch.hpp>
#include <random>

#include "gzip_util.hpp"
#include "loader/beam_module.hpp"
#include "loader_test_util.hpp"

using namespace beam;
using namespace beam::loader;

TEST_CASE("corrupted beam files give clean errors", "[loader][corruption]") {
    std::vector<std::vector<uint8_t>> originals = {test::fixture_beam("loader_sample"), test::otp_beam("lists"),
                                                   test::otp_beam("maps"), test::otp_beam("io_lib_format")};
    for (auto& o : originals) REQUIRE(!o.empty());
    std::mt19937 rng(20240601);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };

    size_t errors = 0, parsed = 0;
    for (int i = 0; i < 1000; ++i) {
        std::vector<uint8_t> b = originals[size_t(i) % originals.size()];
        auto chunks = read_beam_file(b);
        REQUIRE(chunks.ok());
        const Chunk& target = chunks->chunks[pick(chunks->chunks.size())];
        switch (i % 5) {
        case 0:  // truncate anywhere
            b.resize(pick(b.size()));
            break;
        case 1:  // flip a few bytes inside one chunk's data
            for (int k = 0, n = 1 + int(pick(4)); k < n && !target.data.empty(); ++k)
                b[target.offset + pick(target.data.size())] ^= uint8_t(1 + pick(255));
            break;
        case 2:  // a chunk size field set to something random
            test::set_u32(b, target.offset - 4, uint32_t(rng()) >> pick(32));
            break;
        case 3: {  // a run of garbage
            size_t at = pick(b.size());
            for (size_t k = 0, n = 1 + pick(64); k < n && at + k < b.size(); ++k) b[at + k] = uint8_t(rng());
            break;
        }
        case 4:  // flip bytes in the code itself, where operand encodings are densest
            if (const Chunk* code = chunks->find("Code"))
                for (int k = 0; k < 3; ++k) b[code->offset + 20 + pick(code->data.size() - 20)] ^= uint8_t(1 + pick(255));
            break;
        }
        LiteralArea area;
        auto r = parse_beam(b, area);
        if (r.ok()) {
            ++parsed;
        } else {
            ++errors;
            CHECK(!r.error().message.empty());
        }
    }
    // Mutations in chunks the loader skips (Dbgi, Type, ...) leave a loadable file; most must fail.
    CHECK(errors + parsed == 1000);
    CHECK(errors > 500);
}

TEST_CASE("corrupted compressed beam files give clean errors", "[loader][corruption][gzip]") {
    std::vector<std::vector<uint8_t>> plains = {test::fixture_beam("loader_sample"), test::otp_beam("lists"),
                                                test::otp_beam("maps"), test::otp_beam("io_lib_format")};
    std::vector<std::vector<uint8_t>> originals;
    for (auto& p : plains) originals.push_back(test::gzip_bytes(p));
    for (auto& o : originals) REQUIRE(o.size() > 20);
    std::mt19937 rng(20260428);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };

    size_t errors = 0, parsed = 0;
    for (int i = 0; i < 1000; ++i) {
        size_t which = size_t(i) % originals.size();
        std::vector<uint8_t> b = originals[which];
        switch (i % 5) {
        case 0:  // truncate the stream anywhere
            b.resize(pick(b.size()));
            break;
        case 1:  // flip a few bytes of the stream (header, deflate data or trailer)
            for (int k = 0, n = 1 + int(pick(4)); k < n; ++k) b[pick(b.size())] ^= uint8_t(1 + pick(255));
            break;
        case 2: {  // a run of garbage in the stream
            size_t at = pick(b.size());
            for (size_t k = 0, n = 1 + pick(64); k < n && at + k < b.size(); ++k) b[at + k] = uint8_t(rng());
            break;
        }
        case 3:  // bytes after the last member
            for (size_t k = 0, n = 1 + pick(16); k < n; ++k) b.push_back(uint8_t(rng()));
            break;
        case 4: {  // a valid stream around a mutated module: inflates to garbage
            std::vector<uint8_t> p = plains[which];
            for (int k = 0; k < 4; ++k) p[pick(p.size())] ^= uint8_t(1 + pick(255));
            if (pick(2)) p.resize(pick(p.size()));
            b = test::gzip_bytes(p);
            break;
        }
        }
        LiteralArea area;
        auto r = parse_beam(b, area);
        if (r.ok()) {
            ++parsed;
        } else {
            ++errors;
            CHECK(!r.error().message.empty());
        }
    }
    // Every damaged stream fails its CRC or structure check; only some modules mutated inside a
    // valid stream (in chunks the loader skips) still parse.
    CHECK(errors + parsed == 1000);
    CHECK(errors > 800);
}

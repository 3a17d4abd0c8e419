// The whole load path (parse, transform to threaded code, commit) on 1,000 mutated copies of
// real .beam files, and 500 of their gzip-compressed forms: each either loads or gives an
// error naming the problem; none crashes or hangs.
// The parser alone is covered by loader_corruption.cpp; this adds the transform stage, which sees
// whatever the parser accepts.
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <random>

#include "gzip_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/vm.hpp"

using namespace beam;

static std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST_CASE("mutated beam files load or fail cleanly through the whole loader", "[runtime][corruption]") {
    std::vector<std::vector<uint8_t>> originals;
    for (const char* m : {"lists", "maps", "io_lib_format", "gen_server", "string"})
        originals.push_back(read_bytes(std::string(OTP_STDLIB_EBIN) + "/" + m + ".beam"));
    for (auto& o : originals) REQUIRE(o.size() > 1000);

    // Unmutated files load.
    for (auto& o : originals) {
        VM vm;
        auto r = vm.load_binary(vm.root(), o, "original");
        INFO((r.ok() ? std::string("ok") : r.error().message));
        CHECK(r.ok());
    }

    std::mt19937 rng(4242);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    size_t loaded = 0, failed = 0;
    for (int i = 0; i < 1000; ++i) {
        std::vector<uint8_t> b = originals[size_t(i) % originals.size()];
        switch (i % 4) {
        case 0: b.resize(pick(b.size())); break;
        case 1:
            for (int k = 0; k < 1 + int(pick(6)); ++k) b[pick(b.size())] ^= uint8_t(1 + pick(255));
            break;
        case 2: {
            size_t at = pick(b.size());
            for (size_t k = 0, n = 1 + pick(64); k < n && at + k < b.size(); ++k) b[at + k] = uint8_t(rng());
            break;
        }
        case 3:  // single-byte changes in the first half, where Code usually lives
            b[pick(b.size() / 2)] ^= uint8_t(1 << pick(8));
            break;
        }
        VM vm;
        auto r = vm.load_binary(vm.root(), b, "mutated.beam");
        if (r.ok()) {
            ++loaded;
        } else {
            ++failed;
            CHECK(r.error().message.find("mutated.beam") != std::string::npos);
        }
    }
    CHECK(loaded + failed == 1000);
    CHECK(failed > 500);
}

TEST_CASE("mutated compressed beam files load or fail cleanly through the whole loader", "[runtime][corruption][gzip]") {
    std::vector<std::vector<uint8_t>> plains;
    for (const char* m : {"lists", "maps", "gen_server", "string"})
        plains.push_back(read_bytes(std::string(OTP_STDLIB_EBIN) + "/" + m + ".beam"));
    for (auto& p : plains) REQUIRE(p.size() > 1000);

    // Unmutated compressed files load, as the plain ones.
    for (auto& p : plains) {
        VM vm;
        auto r = vm.load_binary(vm.root(), test::gzip_bytes(p), "compressed.beam");
        INFO((r.ok() ? std::string("ok") : r.error().message));
        CHECK(r.ok());
    }

    std::mt19937 rng(2828);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    size_t loaded = 0, failed = 0;
    for (int i = 0; i < 500; ++i) {
        std::vector<uint8_t> p = plains[size_t(i) % plains.size()];
        std::vector<uint8_t> b;
        if (i % 2 == 0) {  // the stream damaged: truncated or bytes flipped
            b = test::gzip_bytes(p);
            if (i % 4 == 0) b.resize(pick(b.size()));
            else b[pick(b.size())] ^= uint8_t(1 + pick(255));
        } else {  // an intact stream around a module damaged in its first half (Code)
            for (int k = 0; k < 1 + int(pick(4)); ++k) p[pick(p.size() / 2)] ^= uint8_t(1 << pick(8));
            b = test::gzip_bytes(p);
        }
        VM vm;
        auto r = vm.load_binary(vm.root(), b, "mutated.beam");
        if (r.ok()) {
            ++loaded;
        } else {
            ++failed;
            CHECK(r.error().message.find("mutated.beam") != std::string::npos);
        }
    }
    CHECK(loaded + failed == 500);
    CHECK(failed > 250);
}

// binary_to_term on hostile input: 100,000 random and mutated byte strings. Each must decode to
// a term or fail with an Error (never crash), and what the decoder allocates must stay within a
// fixed multiple of the input's size. The seed is fixed, so a failure reproduces.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "tests/unit/terms_util.hpp"
#include "vm/binary.hpp"
#include "vm/ext_term.hpp"
#include "vm/map.hpp"

using namespace beam;
using namespace beam::test;
using Bytes = std::vector<uint8_t>;

namespace {

// Counts what the decoder asks for, on top of a LiteralArea.
class CountingArea final : public TermAllocator {
public:
    void link_offheap(Term* procbin) override { area_->link_offheap(procbin); }
    size_t words() const { return words_; }
    void reset() {  // frees everything decoded so far
        area_ = std::make_unique<LiteralArea>();
        words_ = 0;
    }

protected:
    Term* alloc_slow(size_t words) override {  // every allocation: no gap of its own
        words_ += words;
        return area_->alloc(words);
    }

private:
    std::unique_ptr<LiteralArea> area_ = std::make_unique<LiteralArea>();
    size_t words_ = 0;
};

// Valid encodings of varied terms: every tag the encoder writes, nested, and compressed.
std::vector<Bytes> seed_encodings(TermAllocator& a) {
    std::vector<Term> terms = {
        make_small(7), make_small(-1), make_small(1 << 20), big(a, "123456789012345678901234567890"),
        big(a, "-98765432109876543210"), flt(a, 2.5), atom("hello"), atom("\xce\xbb"), NIL,
        str(a, "a string"), list_with_tail(a, {make_small(1), atom("x")}, make_small(2)),
        tuple(a, {atom("ok"), make_small(1), str(a, "deep")}), make_binary(a, "bytes"),
        make_binary(a, std::string(100, 'z')), make_sub_binary(a, make_binary(a, "bits"), 0, 13),
        map_from_pairs(a, {{atom("k"), make_small(1)}, {make_small(2), str(a, "v")}}),
        make_local_pid(uint64_t(42) | uint64_t(3) << PID_ID_BITS), make_local_port(9), ref(a, 1, 2, 3),
    };
    Term nested = NIL;
    for (int i = 0; i < 20; ++i) nested = tuple(a, {nested, list(a, {make_small(i), flt(a, i * 0.5)})});
    terms.push_back(nested);
    terms.push_back(list(a, std::vector<Term>(terms.begin(), terms.end())));
    std::vector<Bytes> seeds;
    for (Term t : terms) {
        Bytes out;
        REQUIRE(encode_external(t, out).ok());
        seeds.push_back(out);
        EncodeOptions zipped;
        zipped.compressed = 6;
        Bytes packed;
        REQUIRE(encode_external(t, packed, zipped).ok());
        if (packed != out) seeds.push_back(packed);
    }
    // OTP 25's bytes for a closure of a module that is not loaded (f1:mk(5), fun(Y) -> X + Y end)
    // and for fun lists:map/2.
    seeds.push_back({131, 112, 0,  0,   0,   72, 1,   19,  69,  139, 7,   93,  75,  13,  235, 51,  46,  98,  132,
                     3,   240, 43, 253, 0,   0,  0,   0,   0,   0,   0,   1,   100, 0,   2,   102, 49,  97,  0,
                     98,  0,   154, 44,  88,  88, 100, 0,   13,  110, 111, 110, 111, 100, 101, 64,  110, 111, 104,
                     111, 115, 116, 0,   0,   0,  9,   0,   0,   0,   0,   0,   0,   0,   0,   97,  5});
    seeds.push_back({131, 113, 100, 0, 5, 108, 105, 115, 116, 115, 100, 0, 3, 109, 97, 112, 97, 2});
    return seeds;
}

Bytes mutate(const Bytes& seed, std::mt19937_64& rng) {
    Bytes b = seed;
    auto pick = [&](size_t n) { return size_t(rng() % n); };
    int edits = 1 + int(pick(4));
    for (int e = 0; e < edits; ++e) {
        size_t at = b.size() > 1 ? 1 + pick(b.size() - 1) : 0;  // mostly keep the version byte
        switch (pick(7)) {
        case 0: if (!b.empty()) b[at] = uint8_t(rng()); break;                  // any byte
        case 1: if (!b.empty()) b[at] ^= uint8_t(1u << pick(8)); break;         // one bit
        case 2: if (!b.empty()) b[at] = std::vector<uint8_t>{0, 1, 0x7F, 0x80, 0xFF}[pick(5)]; break;
        case 3: b.resize(pick(b.size() + 1)); break;                            // truncate
        case 4: b.insert(b.begin() + std::min(at, b.size()), uint8_t(rng())); break;
        case 5: if (!b.empty()) b.erase(b.begin() + std::min(at, b.size() - 1)); break;
        case 6:  // a length field turned huge: four 0xFF bytes
            for (size_t i = at; i < std::min(b.size(), at + 4); ++i) b[i] = 0xFF;
            break;
        }
    }
    return b;
}

Bytes random_bytes(std::mt19937_64& rng) {
    Bytes b(rng() % 48);
    for (auto& x : b) x = uint8_t(rng());
    if (!b.empty() && rng() % 4 != 0) b[0] = 131;  // get past the version check most of the time
    return b;
}

}  // namespace

TEST_CASE("ext fuzz: 100,000 random and mutated inputs decode or fail cleanly, in bounded memory",
          "[terms][ext][fuzz]") {
    LiteralArea seed_area;
    std::vector<Bytes> seeds = seed_encodings(seed_area);
    std::mt19937_64 rng(20250725);
    CountingArea area;
    size_t decoded = 0, failed = 0, worst_ratio_words = 0;
    for (int i = 0; i < 100000; ++i) {
        Bytes in = i % 3 == 0 ? random_bytes(rng) : mutate(seeds[rng() % seeds.size()], rng);
        if (i % 256 == 0) area.reset();
        size_t before = area.words();
        DecodeOptions opts;
        opts.safe = i % 2 == 0;
        size_t used = 0;
        auto r = decode_external(area, in, &used, opts);
        size_t words = area.words() - before;
        // The bytes a term is decoded from: a compressed input may claim up to 1032 times its
        // packed size (deflate's best ratio), and that claim is checked before inflating.
        size_t plain = in.size();
        if (in.size() >= 6 && in[1] == 80) plain = std::max(plain, size_t(in[2]) << 24 | size_t(in[3]) << 16 | size_t(in[4]) << 8 | in[5]);
        if (r.ok()) {
            ++decoded;
            REQUIRE(used <= in.size());
            REQUIRE(!is_non_value(*r));
        } else {
            ++failed;
            REQUIRE(!r.error().message.empty());
        }
        // Each decoded byte yields at most two words (a cons cell per byte of a list), plus
        // constant overhead per object kind.
        INFO("input " << i << " of " << in.size() << " bytes allocated " << words << " words");
        REQUIRE(words <= 4 * plain + 16);
        worst_ratio_words = std::max(worst_ratio_words, words / std::max<size_t>(plain, 1));
    }
    CHECK(decoded > 1000);  // the mutations must not all be rejected at the first byte
    CHECK(failed > 1000);
    CHECK(worst_ratio_words <= 4);
}

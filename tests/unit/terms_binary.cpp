// Binaries: heap/refc choice, sub-binaries, bit copies, off-heap release, literal areas.
#include <catch2/catch.hpp>

#include "terms_util.hpp"
#include "vm/binary.hpp"
#include "vm/term_print.hpp"

using namespace beam;
using namespace beam::test;

TEST_CASE("binary: up to 64 bytes on the heap, larger ones off-heap", "[binary]") {
    LiteralArea a;
    std::string s64(64, 'a'), s65(65, 'b');
    Term h = make_binary(a, s64), r = make_binary(a, s65);
    CHECK(is_boxed_sub(h, Sub::HeapBin));
    CHECK(is_boxed_sub(r, Sub::RefcBin));
    CHECK(is_binary(h));
    CHECK(is_binary(r));
    BitView v = bit_view(r);
    CHECK(v.bit_size == 65 * 8);
    CHECK(std::string(reinterpret_cast<const char*>(v.bytes()), v.byte_size()) == s65);
    CHECK(a.contains(boxed_ptr(h)));
    CHECK_FALSE(a.contains(reinterpret_cast<const Term*>(&v)));
}

TEST_CASE("binary: blobs are released when the last owner lets go", "[binary]") {
    BinaryBlob* blob;
    {
        LiteralArea a;
        std::string s(1000, 'z');
        Term r = make_binary(a, s);
        blob = reinterpret_cast<BinaryBlob*>(boxed_ptr(r)[2].raw);
        CHECK(blob->refc.load() == 1);
        blob->retain();  // a second owner outlives the area
    }
    CHECK(blob->refc.load() == 1);
    CHECK(blob->data[999] == 'z');
    blob->release();
}

TEST_CASE("binary: sub-binaries never nest", "[binary]") {
    LiteralArea a;
    Term b = make_binary(a, "abcdefgh");
    Term s1 = make_sub_binary(a, b, 8, 48);   // "bcdefg"
    Term s2 = make_sub_binary(a, s1, 8, 32);  // "cdef"
    REQUIRE(is_boxed_sub(s2, Sub::SubBin));
    CHECK(boxed_ptr(s2)[1] == b);
    CHECK(boxed_ptr(s2)[2].raw == 16);
    CHECK(display_string(s2) == "<<\"cdef\">>");
    CHECK(make_sub_binary(a, b, 0, 64) == b);  // the whole binary is the binary itself
    Term odd = make_sub_binary(a, s1, 3, 13);
    CHECK_FALSE(is_binary(odd));
    CHECK(is_bitstring(odd));
    // <<_:3, X:13/bits, _/bits>> = <<"bcdefg">>: 0x62 0x63 -> 00010 01100011 -> <<19,3:5>>
    CHECK(display_string(odd) == "<<19,3:5>>");
}

TEST_CASE("binary: copy_bits at any offsets", "[binary]") {
    const uint8_t src[] = {0xAB, 0xCD, 0xEF, 0x12};
    SECTION("aligned with a partial tail byte") {
        uint8_t dst[4] = {0, 0, 0, 0xFF};
        copy_bits(src, 0, dst, 0, 28);
        CHECK(dst[0] == 0xAB);
        CHECK(dst[2] == 0xEF);
        CHECK(dst[3] == 0x1F);  // high nibble copied, low nibble kept
    }
    SECTION("unaligned source and destination keep neighbouring bits") {
        uint8_t dst[4] = {0xFF, 0xFF, 0xFF, 0xFF};
        copy_bits(src, 4, dst, 3, 12);  // bits 0xBCD -> 1011 1100 1101
        // 111 + 10111100 1101 + 1... : 1111 0111 1001 1011 1111...
        CHECK(dst[0] == 0xF7);
        CHECK(dst[1] == 0x9B);
        CHECK(dst[2] == 0xFF);
    }
    SECTION("a few bits inside one byte") {
        uint8_t dst[1] = {0x00};
        copy_bits(src, 1, dst, 2, 3);  // bits 1..3 of 0xAB = 010
        CHECK(dst[0] == 0x10);
    }
    SECTION("zero bits does nothing") {
        uint8_t dst[1] = {0x5A};
        copy_bits(src, 0, dst, 0, 0);
        CHECK(dst[0] == 0x5A);
    }
}

TEST_CASE("binary: uninitialised binaries and large literal allocations", "[binary]") {
    LiteralArea a;
    uint8_t* p;
    Term t = make_binary_uninit(a, 3, &p);
    std::memcpy(p, "xyz", 3);
    CHECK(display_string(t) == "<<\"xyz\">>");
    Term* huge = a.alloc(1 << 20);  // bigger than a block: gets its own
    huge[(1 << 20) - 1] = make_small(1);
    Term* small = a.alloc(2);
    CHECK(a.contains(huge));
    CHECK(a.contains(small));
    CHECK(a.contains(huge + (1 << 20) - 1));
}

// Compact term operands, hand-encoded from the format description in loader/compact_term.hpp.
#include <catch2/catch.hpp>
#include <vector>

#include "loader/compact_term.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/module.hpp"

using namespace beam;
using namespace beam::loader;

namespace {
struct Fixture {
    std::vector<Term> atoms{NIL, atom("first"), atom("second")};
    std::vector<Term> literals{atom("lit0")};
    LiteralArea area;
    CompactContext ctx{atoms, literals, 3, &area};

    Result<Operand> decode(std::vector<uint8_t> bytes, size_t* consumed = nullptr) {
        bytes_ = std::move(bytes);
        ByteReader r(bytes_, 100);
        auto op = read_compact_operand(r, ctx);
        if (consumed) *consumed = r.pos();
        return op;
    }
    std::vector<uint8_t> bytes_;
};
}  // namespace

TEST_CASE("compact term: short, medium and large forms", "[loader]") {
    Fixture f;
    auto u0 = f.decode({0x00});
    REQUIRE(u0.ok());
    CHECK(u0->kind == OpKind::Unsigned);
    CHECK(u0->value == 0);

    auto i5 = f.decode({0x51});
    REQUIRE(i5.ok());
    CHECK(i5->kind == OpKind::Integer);
    CHECK(i5->value == 5);

    size_t used = 0;
    auto u1000 = f.decode({0x68, 0xE8}, &used);  // 1000 = 3 << 8 | 0xE8
    REQUIRE(u1000.ok());
    CHECK(u1000->value == 1000);
    CHECK(used == 2);

    auto minus1 = f.decode({0x19, 0xFF, 0xFF});  // 2 bytes, two's complement
    REQUIRE(minus1.ok());
    CHECK(minus1->value == -1);

    auto max64 = f.decode({0xD9, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
    REQUIRE(max64.ok());
    CHECK(max64->value == INT64_MAX);
}

TEST_CASE("compact term: integers wider than 64 bits become literals", "[loader]") {
    Fixture f;
    // 9 bytes: length code 7, nested length u(0) + 9.
    auto big = f.decode({0xF9, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0});
    REQUIRE(big.ok());
    CHECK(big->kind == OpKind::Literal);
    CHECK(int_to_string(big->term) == "18446744073709551616");
    auto neg = f.decode({0xF9, 0x00, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0});  // -2^64
    REQUIRE(neg.ok());
    CHECK(int_to_string(neg->term) == "-18446744073709551616");
}

TEST_CASE("compact term: unsigned operands wider than 64 bits are marked overflowed", "[loader]") {
    Fixture f;
    // erlc writes 1 bsl 64 as a u operand for <<_:16#1_0000_0000_0000_0000>> (OTP's TAG_o).
    size_t used = 0;
    auto u = f.decode({0xF8, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0}, &used);
    REQUIRE(u.ok());
    CHECK(u->kind == OpKind::Overflow);
    CHECK(used == 11);
    // 2^63: nine bytes (a leading zero keeps it positive), still too large for a word.
    auto u63 = f.decode({0xF8, 0x00, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0});
    REQUIRE(u63.ok());
    CHECK(u63->kind == OpKind::Overflow);
    // Registers, atoms and labels that large are malformed, not overflowed.
    CHECK_FALSE(f.decode({0xFB, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0}).ok());
    CHECK_FALSE(f.decode({0xFA, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0}).ok());
}

TEST_CASE("compact term: atoms, registers, labels", "[loader]") {
    Fixture f;
    auto nil = f.decode({0x02});
    REQUIRE(nil.ok());
    CHECK(nil->kind == OpKind::Nil);
    auto a1 = f.decode({0x12});
    REQUIRE(a1.ok());
    CHECK(a1->kind == OpKind::Atom);
    CHECK(a1->term == atom("first"));
    auto x3 = f.decode({0x33});
    REQUIRE(x3.ok());
    CHECK((x3->kind == OpKind::X && x3->value == 3));
    auto y2 = f.decode({0x24});
    REQUIRE(y2.ok());
    CHECK((y2->kind == OpKind::Y && y2->value == 2));
    auto f1 = f.decode({0x15});
    REQUIRE(f1.ok());
    CHECK((f1->kind == OpKind::Label && f1->value == 1));
    auto h = f.decode({0x68 | 0x06, 0xE8});
    REQUIRE(h.ok());
    CHECK((h->kind == OpKind::Char && h->value == 1000));
}

TEST_CASE("compact term: extended forms", "[loader]") {
    Fixture f;
    auto list = f.decode({0x17, 0x20, 0x03, 0x15});
    REQUIRE(list.ok());
    REQUIRE(list->kind == OpKind::List);
    REQUIRE(list->list.size() == 2);
    CHECK(list->list[0].kind == OpKind::X);
    CHECK(list->list[1].kind == OpKind::Label);

    auto fr = f.decode({0x27, 0x10});
    REQUIRE(fr.ok());
    CHECK((fr->kind == OpKind::FloatReg && fr->value == 1));

    // 5 words + 1 float (2 words) + 1 fun (its fixed part: header, FunEntry*, creator; the
    // compiler counts the environment in the words entry). Counting a fun as 2 words let
    // erl_lint:expr_bin/4 build past the heap top (tests/conformance/fun_alloc_heap.erl).
    auto alloc = f.decode({0x37, 0x30, 0x00, 0x50, 0x10, 0x10, 0x20, 0x10});
    REQUIRE(alloc.ok());
    CHECK((alloc->kind == OpKind::AllocList && alloc->value == int64_t(5 + FLOAT_WORDS + FUN_HEADER_WORDS)));

    auto lit = f.decode({0x47, 0x00});
    REQUIRE(lit.ok());
    CHECK((lit->kind == OpKind::Literal && lit->term == atom("lit0")));

    auto typed = f.decode({0x57, 0x13, 0x40});
    REQUIRE(typed.ok());
    CHECK((typed->kind == OpKind::X && typed->value == 1 && typed->type_index == 4));
}

TEST_CASE("compact term: malformed operands are errors", "[loader]") {
    Fixture f;
    CHECK_FALSE(f.decode({}).ok());
    CHECK_FALSE(f.decode({0x68}).ok());                 // medium form missing its byte
    CHECK_FALSE(f.decode({0x35}).ok());                 // label 3 with label count 3
    CHECK_FALSE(f.decode({0x92}).ok());                 // atom 9 of 2
    CHECK_FALSE(f.decode({0x0F}).ok());                 // extended tag with bit 3 set
    CHECK_FALSE(f.decode({0x47, 0x10}).ok());           // literal 1 of 1
    CHECK_FALSE(f.decode({0x57, 0x00, 0x40}).ok());     // typed operand that is not a register
    CHECK_FALSE(f.decode({0x07}).ok());                 // z/0 obsolete float
    CHECK_FALSE(f.decode({0x1B, 0x04, 0x00}).ok());     // x register 1024
    CHECK_FALSE(f.decode({0x17, 0x10, 0x17, 0x00}).ok()); // nested list
    auto err = f.decode({0x35});
    CHECK(err.error().message.find("at offset 100") != std::string::npos);
}

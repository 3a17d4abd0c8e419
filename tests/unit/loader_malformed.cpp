// Malformed .beam files: each is a real erlc output with one field broken by hand, and each
// must be an Error naming the module, the chunk, and the reason.
#include <catch2/catch.hpp>
#include <string>

#include "loader/beam_module.hpp"
#include "loader_test_util.hpp"

using namespace beam;
using namespace beam::loader;
using beam::test::EditableChunk;

namespace {
std::string parse_error(const std::vector<uint8_t>& bytes) {
    LiteralArea area;
    auto r = parse_beam(bytes, area);
    return r.ok() ? std::string("<parsed>") : r.error().message;
}
// Applies `edit` to the fixture's chunks and returns the parse error.
template <class F>
std::string error_after(F edit) {
    auto chunks = test::split_chunks(test::fixture_beam("loader_sample"));
    edit(chunks);
    return parse_error(test::join_chunks(chunks));
}
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("malformed container", "[loader]") {
    auto good = test::fixture_beam("loader_sample");
    REQUIRE(parse_error(good) == "<parsed>");

    auto bad_magic = good;
    bad_magic[0] = 'X';
    CHECK(contains(parse_error(bad_magic), "bad magic"));

    auto bad_form = good;
    bad_form[9] = 'X';
    CHECK(contains(parse_error(bad_form), "form type is not BEAM"));

    auto truncated = good;
    truncated.resize(good.size() / 2);
    CHECK(contains(parse_error(truncated), "exceeds"));

    CHECK(contains(parse_error({}), "bad magic"));

    auto oversized = good;
    test::set_u32(oversized, 16, 0xFFFFFF00);  // size field of the first chunk
    std::string e = parse_error(oversized);
    CHECK(contains(e, "chunk AtU8 size 4294967040 exceeds"));
    CHECK(contains(e, "offset 12"));
}

TEST_CASE("missing mandatory chunks", "[loader]") {
    for (const char* id : {"AtU8", "Code", "StrT", "ImpT", "ExpT"}) {
        std::string e = error_after([&](std::vector<EditableChunk>& c) { test::find_chunk(c, id)->id = "Xxxx"; });
        INFO(e);
        CHECK(contains(e, std::string("missing chunk ") + id));
    }
}

TEST_CASE("table indices out of range", "[loader]") {
    std::string atom_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "ImpT")->data, 4, 9999);  // module atom of import 0
    });
    CHECK(contains(atom_err, "loader_sample.beam: chunk ImpT at offset"));
    CHECK(contains(atom_err, "import 0: atom index out of range"));

    std::string label_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "ExpT")->data, 12, 9999);  // label of export 0
    });
    CHECK(contains(label_err, "chunk ExpT"));
    CHECK(contains(label_err, "label 9999 out of range (label count 28)"));

    std::string import_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "ImpT")->data, 0, 0);  // no imports left for call_ext/gc_bif
    });
    CHECK(contains(import_err, "chunk Code"));
    CHECK(contains(import_err, "import index"));

    std::string fun_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "FunT")->data, 0, 0);
    });
    CHECK(contains(fun_err, "make_fun3: fun index 0 out of range (0 entries)"));

    std::string funt_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "FunT")->data, 0, 1000);
    });
    CHECK(contains(funt_err, "chunk FunT"));
}

TEST_CASE("bad opcodes", "[loader]") {
    auto good = test::fixture_beam("loader_sample");
    auto file = read_beam_file(good);
    REQUIRE(file.ok());
    size_t first_instr = file->find("Code")->offset + 20;  // after the 16-byte header + sub-size

    auto unknown = good;
    unknown[first_instr] = 250;
    CHECK(parse_error(unknown) ==
          "loader_sample.beam: chunk Code at offset " + std::to_string(first_instr) + ": unknown opcode 250");

    auto obsolete = good;
    obsolete[first_instr] = 27;
    CHECK(contains(parse_error(obsolete), "obsolete opcode 27 (m_plus)"));

    std::string version_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "Code")->data, 4, 1);  // instruction set version
    });
    CHECK(contains(version_err, "unknown instruction set 1"));

    std::string max_op_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "Code")->data, 8, 200);
    });
    CHECK(contains(max_op_err, "max opcode 200"));

    std::string label_count_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "Code")->data, 12, 5);  // fewer labels than defined
    });
    CHECK(contains(label_count_err, "out of range"));

    std::string no_end = error_after([](std::vector<EditableChunk>& c) {
        auto& code = test::find_chunk(c, "Code")->data;
        code.pop_back();  // drop int_code_end
    });
    CHECK(contains(no_end, "code ends without int_code_end"));
}

TEST_CASE("bad literals", "[loader]") {
    std::string zlib_err = error_after([](std::vector<EditableChunk>& c) {
        auto& lit = test::find_chunk(c, "LitT")->data;
        for (size_t i = 8; i < lit.size(); ++i) lit[i] ^= 0x5A;
    });
    CHECK(contains(zlib_err, "chunk LitT"));
    CHECK(contains(zlib_err, "bad zlib data"));

    std::string size_err = error_after([](std::vector<EditableChunk>& c) {
        test::set_u32(test::find_chunk(c, "LitT")->data, 0, 0x7FFFFFFF);
    });
    CHECK(contains(size_err, "impossible"));

    // An uncompressed table (size 0) holding one literal with an unknown tag.
    std::string term_err = error_after([](std::vector<EditableChunk>& c) {
        std::vector<uint8_t> lit;
        test::put_u32(lit, 0);
        test::put_u32(lit, 1);
        test::put_u32(lit, 2);
        lit.push_back(131);
        lit.push_back(255);
        test::find_chunk(c, "LitT")->data = lit;
    });
    CHECK(contains(term_err, "chunk LitT"));
    CHECK(contains(term_err, "literal 0: bad external term"));
    CHECK(contains(term_err, "unknown tag 255"));

    std::string attr_err = error_after([](std::vector<EditableChunk>& c) {
        test::find_chunk(c, "Attr")->data.resize(5);
    });
    CHECK(contains(attr_err, "chunk Attr"));
}

TEST_CASE("bad line table", "[loader]") {
    std::string e = error_after([](std::vector<EditableChunk>& c) {
        auto& line = test::find_chunk(c, "Line")->data;
        line[20] = 0x92;  // `a 9`: file 9 of 1
    });
    CHECK(contains(e, "chunk Line"));
    CHECK(contains(e, "file index 9 out of range"));
}

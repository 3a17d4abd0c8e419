// parse_beam on real erlc output: the fixture module and OTP's own stdlib modules.
// Expected values come from erl (beam_disasm:file/1, Mod:module_info/1 on OTP 25).
#include <catch2/catch.hpp>
#include <algorithm>

#include "loader/beam_module.hpp"
#include "loader/generic_ops.hpp"
#include "vm/md5.hpp"
#include "loader_test_util.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/term.hpp"

using namespace beam;
using namespace beam::loader;

namespace {
std::vector<uint8_t> md5_of(std::string_view s) {
    Md5 m;
    m.update({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
    std::vector<uint8_t> out(16);
    m.finish(out.data());
    return out;
}
bool has_export(const ParsedModule& m, std::string_view f, uint32_t arity) {
    return std::any_of(m.exports.begin(), m.exports.end(),
                       [&](const ExportEntry& e) { return atom_name(e.function) == f && e.arity == arity; });
}
const GenericInstr* first_op(const ParsedModule& m, unsigned op) {
    for (const GenericInstr& in : m.code)
        if (in.opcode == op) return &in;
    return nullptr;
}
}  // namespace

TEST_CASE("md5 known answers (RFC 1321)", "[loader]") {
    CHECK(md5_of("") == std::vector<uint8_t>{0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04, 0xe9, 0x80, 0x09,
                                              0x98, 0xec, 0xf8, 0x42, 0x7e});
    CHECK(md5_of("abc") == std::vector<uint8_t>{0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0, 0xd6, 0x96, 0x3f,
                                                 0x7d, 0x28, 0xe1, 0x7f, 0x72});
    std::string long_input(1000, 'a');  // crosses several 64-byte blocks; erlang:md5/1 on erl
    CHECK(md5_of(long_input) == std::vector<uint8_t>{202, 190, 69, 220, 201, 174, 91, 102, 186, 134, 96, 12, 202,
                                                      107, 139, 168});
}

// erlang:md5_update/2 hands the state to Erlang between pieces: saving and restoring it in
// OTP's 88-byte layout must not change the digest, whatever the cuts.
TEST_CASE("md5 context saved and restored between pieces", "[loader]") {
    std::string input;
    for (int i = 0; i < 300; ++i) input.push_back(char(i * 7));
    const auto* bytes = reinterpret_cast<const uint8_t*>(input.data());
    for (size_t cut : {0, 1, 63, 64, 65, 100, 200, 299}) {
        Md5 first;
        first.update({bytes, cut});
        uint8_t ctx[Md5::CONTEXT_BYTES];
        first.save(ctx);
        CHECK(ctx[16] == uint8_t((cut * 8) & 0xff));  // count[0] is the length in bits
        Md5 rest = Md5::restore(ctx);
        rest.update({bytes + cut, input.size() - cut});
        std::vector<uint8_t> out(16);
        rest.finish(out.data());
        CHECK(out == md5_of(input));
    }
}

TEST_CASE("parse the fixture module", "[loader]") {
    auto bytes = test::fixture_beam("loader_sample");
    REQUIRE(!bytes.empty());
    LiteralArea area;
    auto r = parse_beam(bytes, area);
    INFO((r.ok() ? "" : r.error().message));
    REQUIRE(r.ok());
    ParsedModule& m = *r;
    CHECK(atom_name(m.name) == "loader_sample");
    CHECK(m.exports.size() == 9);  // 7 + module_info/0,1
    CHECK(has_export(m, "sel", 1));
    CHECK(has_export(m, "module_info", 1));
    CHECK(m.label_count == 28);
    CHECK(m.function_count == 11);
    REQUIRE(m.lambdas.size() == 1);
    CHECK(atom_name(m.lambdas[0].function) == "-adder/1-fun-0-");
    CHECK(m.lambdas[0].arity == 2);
    CHECK(m.lambdas[0].num_free == 1);
    CHECK(m.lambdas[0].label == 27);
    CHECK(std::string(m.strings.begin(), m.strings.end()) == "hello");
    CHECK(m.code.back().opcode == op_int_code_end);
    // module_info(md5) from erl.
    const uint8_t want_md5[16] = {158, 82, 236, 8, 159, 248, 151, 37, 104, 78, 118, 86, 172, 50, 218, 98};
    CHECK(std::equal(m.md5, m.md5 + 16, want_md5));

    // select_val x0 f17 [a f16 b f15 c f14]
    const GenericInstr* sel = first_op(m, op_select_val);
    REQUIRE(sel);
    REQUIRE(sel->args.size() == 3);
    CHECK(sel->args[0].kind == OpKind::X);
    CHECK((sel->args[1].kind == OpKind::Label && sel->args[1].value == 17));
    REQUIRE(sel->args[2].list.size() == 6);
    CHECK(sel->args[2].list[0].term == atom("a"));
    CHECK(sel->args[2].list[5].value == 14);

    // move {literal,[-1,1000,123456789012345678901234567890,-576460752303423489]} x0
    const GenericInstr* mv = first_op(m, op_move);
    REQUIRE(mv);
    REQUIRE(mv->args[0].kind == OpKind::Literal);
    Term l = mv->args[0].term;
    REQUIRE(is_list(l));
    CHECK(small_value(head(l)) == -1);
    Term third = head(tail(tail(l)));
    CHECK(int_to_string(third) == "123456789012345678901234567890");
    CHECK(int_to_string(head(tail(tail(tail(l))))) == "-576460752303423489");

    // call_ext_only 1 {extfunc,lists,reverse,1}
    const GenericInstr* ce = first_op(m, op_call_ext_only);
    REQUIRE(ce);
    const ImportEntry& imp = m.imports.at(size_t(ce->args[1].value));
    CHECK(atom_name(imp.module) == "lists");
    CHECK(atom_name(imp.function) == "reverse");
    CHECK(imp.arity == 1);

    // lits/0 literal {[1,2,3], <<"abc">>, 1.5, fun lists:map/2, #{a => 1}}
    bool found_tuple = false;
    for (Term t : m.literals) {
        if (!is_tuple(t) || tuple_arity(t) != 5) continue;
        found_tuple = true;
        CHECK(is_binary(tuple_elem(t, 1)));
        CHECK(float_value(tuple_elem(t, 2)) == 1.5);
        CHECK(is_boxed_sub(tuple_elem(t, 3), Sub::Export));
        CHECK(map_size(tuple_elem(t, 4)) == 1);
    }
    CHECK(found_tuple);

    // Line chunk: file 0 is the module's source; `line` operands index line_items.
    REQUIRE(m.files.size() >= 1);
    CHECK(m.files[0] == "loader_sample.erl");
    CHECK(m.line_items.size() == 9);  // 8 locations + "no location"
    CHECK(m.line_items[1].line == 5);  // ints/0 is on line 5
    CHECK(is_list(m.attributes));
    CHECK(is_list(m.compile_info));
}

TEST_CASE("parse OTP stdlib modules", "[loader]") {
    struct Want {
        const char* module;
        size_t exports;
        uint8_t md5[16];
    };
    // Mod:module_info(exports) length and Mod:module_info(md5) on the installed OTP 25.
    const Want wants[] = {
        {"lists", 88, {38, 179, 129, 225, 89, 164, 33, 183, 189, 149, 158, 178, 245, 69, 52, 33}},
        {"maps", 34, {100, 172, 72, 34, 147, 49, 199, 111, 151, 177, 214, 215, 139, 144, 222, 127}},
        {"io_lib_format", 10, {248, 35, 167, 112, 192, 191, 198, 88, 192, 198, 138, 81, 212, 29, 64, 150}},
        {"gen_server", 45, {59, 245, 71, 55, 243, 17, 234, 41, 242, 87, 252, 53, 55, 113, 77, 4}},
        {"erl_parse", 26, {91, 249, 102, 81, 192, 153, 81, 52, 175, 193, 203, 89, 30, 250, 118, 201}},
    };
    for (const Want& w : wants) {
        INFO(w.module);
        auto bytes = test::otp_beam(w.module);
        REQUIRE(!bytes.empty());
        LiteralArea area;
        auto r = parse_beam(bytes, area);
        INFO((r.ok() ? "" : r.error().message));
        REQUIRE(r.ok());
        CHECK(atom_name(r->name) == w.module);
        CHECK(r->exports.size() == w.exports);
        CHECK(std::equal(r->md5, r->md5 + 16, w.md5));
    }
}

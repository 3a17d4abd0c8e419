// display_string against what OTP 25's erlang:display/1 printed for the same terms.
#include <catch2/catch.hpp>

#include "terms_util.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/term_print.hpp"

using namespace beam;
using namespace beam::test;

namespace {
std::string d(Term t) { return display_string(t); }
Term bits(TermAllocator& a, std::string_view bytes, size_t bit_off, size_t bit_size) {
    return make_sub_binary(a, make_binary(a, bytes), bit_off, bit_size);
}
}  // namespace

TEST_CASE("print: numbers", "[print]") {
    LiteralArea a;
    CHECK(d(make_small(-12)) == "-12");
    CHECK(d(int_bsl(a, make_small(2), 200)) == "3213876088517980551083924184682325205044405987565585670602752");
    CHECK(d(int_neg(a, int_bsl(a, make_small(2), 70))) == "-2361183241434822606848");
    CHECK(d(flt(a, 1.5)) == "1.500000e+00");
    CHECK(d(flt(a, 0.1)) == "1.000000e-01");
    CHECK(d(flt(a, -2.5e-300)) == "-2.500000e-300");
    CHECK(d(flt(a, 1.0e100)) == "1.000000e+100");
    CHECK(d(flt(a, 123456789.0)) == "1.234568e+08");
    CHECK(d(flt(a, -0.0)) == "-0.000000e+00");
    CHECK(d(flt(a, 123.456)) == "1.234560e+02");
}

TEST_CASE("print: atoms quote like the erts printer", "[print]") {
    CHECK(d(atom("hello world")) == "'hello world'");
    CHECK(d(atom("Abc")) == "'Abc'");
    CHECK(d(atom("[]")) == "'[]'");
    CHECK(d(atom("a@b")) == "'a@b'");
    CHECK(d(atom("a.b")) == "'a.b'");
    CHECK(d(atom("_x")) == "'_x'");
    CHECK(d(atom("aB_9")) == "aB_9");
    CHECK(d(atom("")) == "''");
    CHECK(d(atom("if")) == "if");  // reserved words are not quoted by display/1
    CHECK(d(atom("true")) == "true");
    CHECK(d(atom("a\nb")) == "'a\\nb'");
    CHECK(d(atom("it's")) == "'it\\'s'");
    CHECK(d(atom("a\\b")) == "'a\\\\b'");
    CHECK(d(atom("a\x7f" "b")) == "'a\x7f" "b'");
    CHECK(d(atom("\xc3\xa9")) == "\xc3\xa9");                  // é: Latin-1 lowercase
    CHECK(d(atom("\xc3\x9f")) == "\xc3\x9f");                  // ß
    CHECK(d(atom("a\xc3\x80_1")) == "a\xc3\x80_1");            // aÀ_1
    CHECK(d(atom("a\xc3\x97")) == "'a\xc3\x97'");              // a× (× is not a letter)
    CHECK(d(atom("\xc2\x80")) == "'\\200'");                   // C1 control as octal
    CHECK(d(atom("\xc2\x9f")) == "'\\237'");
    CHECK(d(atom("\xc2\xa0")) == "'\xc2\xa0'");
    CHECK(d(atom("\xc4\x89")) == "'\xc4\x89'");                // ĉ: above Latin-1
    CHECK(d(atom("a\xf0\x9f\x98\x80")) == "'a\xf0\x9f\x98\x80'");
}

TEST_CASE("print: atom_text_quoted follows io_lib:write_atom/1", "[print]") {
    CHECK(atom_text_quoted(atom("Abc")) == "'Abc'");
    CHECK(atom_text_quoted(atom("ok")) == "ok");
    CHECK(atom_text_quoted(atom("a@b")) == "a@b");
    CHECK(atom_text_quoted(atom("aB_9@")) == "aB_9@");
    CHECK(atom_text_quoted(atom("if")) == "'if'");
    CHECK(atom_text_quoted(atom("andalso")) == "'andalso'");
    CHECK(atom_text_quoted(atom("cond")) == "'cond'");
    CHECK(atom_text_quoted(atom("maybe")) == "maybe");
    CHECK(atom_text_quoted(atom("")) == "''");
    CHECK(atom_text_quoted(atom("_x")) == "'_x'");
    CHECK(atom_text_quoted(atom("a.b")) == "'a.b'");
    CHECK(atom_text_quoted(atom("it's")) == "'it\\'s'");
    CHECK(atom_text_quoted(atom("a\"b")) == "'a\"b'");
    CHECK(atom_text_quoted(atom("a\x01")) == "'a\\001'");
    CHECK(atom_text_quoted(atom("a\x1b")) == "'a\\e'");
    CHECK(atom_text_quoted(atom("a\x7f")) == "'a\\d'");
    CHECK(atom_text_quoted(atom("a\t\v\b\f\r")) == "'a\\t\\v\\b\\f\\r'");
    CHECK(atom_text_quoted(atom("a\xc2\x80")) == "'a\\200'");
    CHECK(atom_text_quoted(atom("a\xc2\xa0")) == "'a\xc2\xa0'");
    CHECK(atom_text_quoted(atom("a\xc3\xbf")) == "a\xc3\xbf");
    CHECK(atom_text_quoted(atom("\xc3\xa9@")) == "\xc3\xa9@");
    CHECK(atom_text_quoted(atom("A\xc3\xa9")) == "'A\xc3\xa9'");
    CHECK(atom_text_quoted(atom("a\xc4\x89")) == "'a\xc4\x89'");  // U+0109 kept as UTF-8
}

TEST_CASE("print: lists and strings", "[print]") {
    LiteralArea a;
    CHECK(d(str(a, "abc")) == "\"abc\"");
    CHECK(d(NIL) == "[]");
    CHECK(d(list(a, {NIL})) == "[[]]");
    CHECK(d(list_with_tail(a, {make_small(97)}, make_binary(a, "\x01"))) == "[97|<<1>>]");
    CHECK(d(list_with_tail(a, {make_small(97)}, make_binary(a, ""))) == "[97|<<>>]");
    CHECK(d(list_with_tail(a, {make_small(1), make_small(2)}, make_small(3))) == "[1,2|3]");
    CHECK(d(list_with_tail(a, {make_small('a')}, atom("b"))) == "[97|b]");
    CHECK(d(list(a, {make_small('a'), make_small(256)})) == "[97,256]");
    CHECK(d(list(a, {make_small('a'), make_small(255)})) == "\"a\xff\"");  // raw Latin-1 byte
    CHECK(d(str(a, "\xe9")) == "\"\xe9\"");
    CHECK(d(str(a, "\n\t\x1b")) == "[10,9,27]");
    CHECK(d(str(a, "a\\b\"c\td\r")) == "\"a\\b\\\"c\td\r\"");
    CHECK(d(str(a, "x\ny")) == "\"x\\ny\"");
    CHECK(d(list(a, {make_small(127)})) == "[127]");
    CHECK(d(list(a, {make_small(160), make_small(32)})) == "\"\xa0 \"");
    CHECK(d(list(a, {make_small('a'), make_small(-1)})) == "[97,-1]");
    CHECK(d(list(a, {make_small(0)})) == "[0]");
    CHECK(d(list(a, {str(a, "ab"), str(a, "c")})) == "[\"ab\",\"c\"]");
    CHECK(d(list_with_tail(a, {str(a, "a")}, str(a, "b"))) == "[\"a\",98]");
    CHECK(d(tuple(a, {str(a, "ab")})) == "{\"ab\"}");
    CHECK(d(tuple(a, {make_small(1), make_small(2), tuple(a, {})})) == "{1,2,{}}");
}

TEST_CASE("print: binaries and bitstrings", "[print]") {
    LiteralArea a;
    CHECK(d(make_binary(a, "ab")) == "<<\"ab\">>");
    CHECK(d(make_binary(a, "\x01\x02\x03")) == "<<1,2,3>>");
    CHECK(d(make_binary(a, "")) == "<<>>");
    CHECK(d(make_binary(a, "\xc8")) == "<<200>>");
    CHECK(d(make_binary(a, "a\"b\\")) == "<<\"a\\\"b\\\">>");
    CHECK(d(bits(a, "\x20", 0, 3)) == "<<1:3>>");
    CHECK(d(bits(a, "ab\x20", 0, 19)) == "<<97,98,1:3>>");
    // <<0:3, "hello">>, then the 17 bits after the first 3, and the 40 bits after the first 3
    const char hello3[] = {0x0d, 0x0c, (char)0xad, (char)0x8d, (char)0x8d, (char)0xe0};
    std::string_view h3(hello3, 6);
    CHECK(d(bits(a, h3, 3, 40)) == "<<\"hello\">>");
    CHECK(d(bits(a, h3, 3, 17)) == "<<104,101,0:1>>");
    std::string big(100, 'x');
    CHECK(d(make_binary(a, big)) == "<<\"" + big + "\">>");
}

TEST_CASE("print: maps, pids, refs, funs", "[print]") {
    LiteralArea a;
    Term m = map_from_pairs(a, {{atom("a"), make_small(1)},
                                {flt(a, 1.0), atom("x")},
                                {make_small(2), atom("y")},
                                {str(a, "s"), atom("z")}});
    CHECK(d(m) == "#{2=>y,1.000000e+00=>x,a=>1,\"s\"=>z}");
    CHECK(d(empty_map(a)) == "#{}");
    Term m2 = map_from_pairs(a, {{NIL, make_sub_binary(a, make_binary(a, "\x80"), 0, 1)},
                                 {tuple(a, {}), make_small(3)}});
    CHECK(d(m2) == "#{{}=>3,[]=><<1:1>>}");
    CHECK(d(tuple(a, {NIL, make_binary(a, ""), NIL, empty_map(a)})) == "{[],<<>>,[],#{}}");
    CHECK(d(make_local_pid(9)) == "<0.9.0>");
    CHECK(d(make_local_port(3)) == "#Port<0.3>");
    CHECK(d(ref(a, 25331, 1060110338, 4123483345u)) == "#Ref<0.4123483345.1060110338.25331>");

    Export ex;
    ex.module = atom("lists");
    ex.function = atom("map");
    ex.arity = 2;
    Term* hp = a.alloc(EXPORT_FUN_WORDS);
    hp[0] = make_header(Sub::Export, 1);
    hp[1] = Term{reinterpret_cast<Word>(&ex)};
    CHECK(d(make_boxed(hp)) == "fun lists:map/2");
    ex.module = atom("A");
    ex.function = atom("b c");
    ex.arity = 1;
    CHECK(d(make_boxed(hp)) == "fun 'A':'b c'/1");

    FunEntry fe;
    fe.module = atom("p");
    fe.index = 1;
    fe.old_uniq = 48603542;
    Term f = make_fun_at(a.alloc(FUN_HEADER_WORDS + 1), &fe, make_local_pid(1), 1);
    fun_free_vars(f)[0] = make_small(1);
    CHECK(d(f) == "#Fun<p.1.48603542>");
}

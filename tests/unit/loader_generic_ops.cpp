// The generic opcode table against OTP 25's beam_opcodes:opname/1.
#include <catch2/catch.hpp>

#include "loader/generic_ops.hpp"

using namespace beam::loader;

TEST_CASE("generic opcode table matches OTP 25 genop.tab", "[loader]") {
    // Values from `beam_opcodes:opname(N)` on OTP 25.
    CHECK(generic_op_name(1) == "label");
    CHECK(generic_op_arity(1) == 1);
    CHECK(generic_op_name(2) == "func_info");
    CHECK(generic_op_arity(2) == 3);
    CHECK(generic_op_name(62) == "catch");
    CHECK(generic_op_name(64) == "move");
    CHECK(generic_op_arity(64) == 2);
    CHECK(generic_op_name(124) == "gc_bif1");
    CHECK(generic_op_arity(124) == 5);
    CHECK(generic_op_name(134) == "bs_append");
    CHECK(generic_op_arity(134) == 8);
    CHECK(generic_op_name(177) == "bs_create_bin");
    CHECK(generic_op_arity(177) == 6);
    CHECK(generic_op_name(180) == "badrecord");
    CHECK(generic_op_name(183) == "executable_line");
    CHECK(op_try == 104);
    CHECK(op_int_code_end == 3);
}

TEST_CASE("obsolete and unknown opcodes", "[loader]") {
    CHECK(GENERIC_OPS[27].obsolete);   // m_plus
    CHECK(GENERIC_OPS[76].obsolete);   // make_fun
    CHECK(GENERIC_OPS[128].obsolete);  // put_literal
    CHECK_FALSE(GENERIC_OPS[64].obsolete);
    CHECK_FALSE(GENERIC_OPS[103].obsolete);  // make_fun2: OTP 23 code, still loadable by OTP 25
    CHECK_FALSE(is_generic_opcode(0));
    CHECK_FALSE(is_generic_opcode(184));
    CHECK(generic_op_name(250) == "?");
}

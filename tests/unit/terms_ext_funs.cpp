// Local funs in the external format (NEW_FUN_EXT): OTP 25's bytes decode to a closure whose
// entry names the code, and encode back to the same bytes.
#include <catch2/catch.hpp>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/ext_term.hpp"
#include "vm/module.hpp"

using namespace beam;
using Bytes = std::vector<uint8_t>;

namespace {
// erl: f1:mk(5) where mk(X) -> fun(Y) -> X + Y end, made by <0.9.0>; f1's md5 is the Uniq.
const Bytes otp_closure = {131, 112, 0,   0,   0,   72,  1,   19,  69,  139, 7,   93,  75,  13,  235, 51,
                           46,  98,  132, 3,   240, 43,  253, 0,   0,   0,   0,   0,   0,   0,   1,   100,
                           0,   2,   102, 49,  97,  0,   98,  0,   154, 44,  88,  88,  100, 0,   13,  110,
                           111, 110, 111, 100, 101, 64,  110, 111, 104, 111, 115, 116, 0,   0,   0,   9,
                           0,   0,   0,   0,   0,   0,   0,   0,   97,  5};
}  // namespace

TEST_CASE("ext: an OTP closure of an unloaded module decodes detached and re-encodes exactly", "[terms][ext]") {
    LiteralArea a;
    size_t used = 0;
    auto r = decode_external(a, otp_closure, &used);
    REQUIRE(r.ok());
    CHECK(used == otp_closure.size());
    Term f = *r;
    REQUIRE(is_boxed_sub(f, Sub::Fun));
    const FunEntry* fe = fun_entry(f);
    CHECK(fe->detached);
    CHECK(fe->module == atom("f1"));
    CHECK(fe->index == 0);
    CHECK(fe->old_uniq == 10103896);
    CHECK(fe->fun_arity() == 1);
    CHECK(fe->md5[0] == 19);
    CHECK(fun_creator(f) == make_local_pid(9));
    REQUIRE(fun_num_free(f) == 1);
    CHECK(fun_free_vars(f)[0] == make_small(5));
    // The same fun decoded twice shares its entry, as OTP's fun table does.
    CHECK(fun_entry(*decode_external(a, otp_closure)) == fe);
    Bytes out;
    REQUIRE(encode_external(f, out).ok());
    CHECK(out == otp_closure);
}

TEST_CASE("ext: NEW_FUN_EXT fields OTP 25 accepts or refuses", "[terms][ext]") {
    LiteralArea a;
    // Size is ignored; the creator may be any term (here the integer 1).
    Bytes b = otp_closure;
    b[4] = 0;
    CHECK(decode_external(a, b).ok());
    Bytes odd_pid(otp_closure.begin(), otp_closure.begin() + 43);
    odd_pid.insert(odd_pid.end(), {97, 1, 97, 5});
    auto r = decode_external(a, odd_pid);
    REQUIRE(r.ok());
    CHECK(fun_creator(*r) == make_small(1));
    Bytes again;
    REQUIRE(encode_external(*r, again).ok());
    CHECK(again == Bytes{131, 112, 0, 0, 0, 45, 1, 19, 69, 139, 7, 93, 75, 13, 235, 51, 46, 98, 132, 3, 240, 43, 253,
                         0, 0, 0, 0, 0, 0, 0, 1, 100, 0, 2, 102, 49, 97, 0, 98, 0, 154, 44, 88, 97, 1, 97, 5});
    // More free variables than the input holds; the pre-R8 FUN_EXT (refused by OTP 23+).
    Bytes nfree = otp_closure;
    nfree[30] = 2;
    CHECK_FALSE(decode_external(a, nfree).ok());
    CHECK_FALSE(decode_external(a, Bytes{131, 117, 0, 0, 0, 0, 97, 1}).ok());
    // Module must be an atom.
    Bytes badmod(otp_closure.begin(), otp_closure.begin() + 31);
    badmod.insert(badmod.end(), {97, 1, 97, 0, 97, 0, 97, 1});
    CHECK_FALSE(decode_external(a, badmod).ok());
}

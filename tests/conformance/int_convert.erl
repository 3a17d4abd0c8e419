%% Integer <-> text conversions with bases, including bignums and error cases.
-module(int_convert).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    t(itl, fun() -> integer_to_list(id(12345)) end),
    t(itl_neg, fun() -> integer_to_list(id(-987)) end),
    t(itl_base2, fun() -> integer_to_list(id(10), 2) end),
    t(itl_base16, fun() -> integer_to_list(id(255), 16) end),
    t(itl_base36, fun() -> integer_to_list(id(123456789), 36) end),
    t(itl_neg_base16, fun() -> integer_to_list(id(-255), 16) end),
    t(itl_big, fun() -> integer_to_list(id(1 bsl 100)) end),
    t(itl_big_base16, fun() -> integer_to_list(id(1 bsl 100 - 1), 16) end),
    t(itl_bad_base, fun() -> integer_to_list(id(10), 37) end),
    t(lti, fun() -> list_to_integer(id("-00123")) end),
    t(lti_plus, fun() -> list_to_integer(id("+42")) end),
    t(lti_base16, fun() -> list_to_integer(id("ff"), 16) end),
    t(lti_base16_upper, fun() -> list_to_integer(id("DEADBEEF"), 16) end),
    t(lti_base2, fun() -> list_to_integer(id("101010"), 2) end),
    t(lti_big, fun() -> list_to_integer(id("123456789012345678901234567890")) end),
    t(lti_big_neg_base36, fun() -> list_to_integer(id("-zzzzzzzzzzzzzzzz"), 36) end),
    t(lti_bad, fun() -> list_to_integer(id("12a")) end),
    t(lti_empty, fun() -> list_to_integer(id("")) end),
    t(lti_bad_digit_base, fun() -> list_to_integer(id("2"), 2) end),
    t(itb, fun() -> integer_to_binary(id(-77)) end),
    t(itb_base, fun() -> integer_to_binary(id(4095), 8) end),
    t(bti, fun() -> binary_to_integer(id(<<"9999999999999999999999">>)) end),
    t(bti_base, fun() -> binary_to_integer(id(<<"-7f">>), 16) end),
    t(bti_bad, fun() -> binary_to_integer(id(<<"1.0">>)) end),
    t(ltf, fun() -> list_to_float(id("2.5e3")) end),
    t(ltf_bad, fun() -> list_to_float(id("2")) end),
    t(btf, fun() -> binary_to_float(id(<<"-0.125">>)) end),
    t(roundtrip, fun() -> [list_to_integer(integer_to_list(X, B), B) =:= X
                           || X <- [0, 1, -1, 1 bsl 63, -(1 bsl 90) + 7], B <- [2, 10, 16, 36]] end),
    ok.

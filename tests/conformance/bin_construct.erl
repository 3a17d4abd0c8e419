%% Bit syntax construction: sizes, units, types, endianness, signedness, bitstrings.
-module(bin_construct).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    I = id(16#1234), N = id(-2), F = id(1.5), B = id(<<"ab">>), Sz = id(12),
    t(bytes, fun() -> <<1, 2, 255>> end),
    t(wrap, fun() -> <<(id(256)), (id(-1))>> end),
    t(int16_big, fun() -> <<I:16>> end),
    t(int16_little, fun() -> <<I:16/little>> end),
    t(int32_native_size, fun() -> byte_size(<<I:32/native>>) end),
    t(int_signed_neg, fun() -> <<N:16/signed>> end),
    t(int_var_size, fun() -> <<I:Sz>> end),
    t(int_unit, fun() -> <<I:2/unit:8>> end),
    t(int_big_value, fun() -> <<(id(1 bsl 70 + 1)):80>> end),
    t(int_big_little, fun() -> <<(id(1 bsl 70 + 1)):80/little>> end),
    t(int_neg_big, fun() -> <<(id(-(1 bsl 65))):72/signed>> end),
    t(float64, fun() -> <<F/float>> end),
    t(float32, fun() -> <<F:32/float>> end),
    t(float_little, fun() -> <<F:64/float-little>> end),
    t(float16, fun() -> <<F:16/float>> end),
    t(float_from_int, fun() -> <<(id(3)):64/float>> end),
    t(binary_seg, fun() -> <<B/binary, "cd", B/binary>> end),
    t(binary_sized, fun() -> <<B:1/binary>> end),
    t(bits, fun() -> <<1:1, 0:1, 1:1>> end),
    t(bits_then_byte, fun() -> <<1:1, 255>> end),
    t(bitstring_seg, fun() -> <<(id(<<5:3>>))/bitstring, 1:5>> end),
    t(string_seg, fun() -> <<"héllo"/utf8>> end),
    t(string_latin1, fun() -> <<"hé">> end),
    t(empty, fun() -> <<>> end),
    t(zero_size, fun() -> <<I:0>> end),
    t(bad_size, fun() -> <<I:(id(-1))>> end),
    t(bad_type, fun() -> <<(id(a)):8>> end),
    t(bad_float, fun() -> <<(id(a))/float>> end),
    t(binary_not_multiple, fun() -> <<(id(<<1:3>>))/binary>> end),
    t(big_binary, fun() -> byte_size(<< <<X>> || X <- lists:seq(1, 200) >>) end),
    t(append_loop, fun() -> Bin = lists:foldl(fun(X, Acc) -> <<Acc/binary, X:16>> end, <<>>, lists:seq(1, 1000)),
                            {byte_size(Bin), binary:part(Bin, 1996, 4)} end),
    t(bitstring_display, fun() -> <<1:4, 2:4, 3:3>> end),
    t(long_display, fun() -> list_to_binary(lists:seq(1, 40)) end),
    t(printable_display, fun() -> {<<"abc">>, <<"a\nb">>, <<"a", 0>>, <<"é"/utf8>>} end),
    ok.

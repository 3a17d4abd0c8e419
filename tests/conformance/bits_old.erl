%% Binary construction compiled to the instructions of OTP 24 and earlier (bs_init2,
%% bs_init_bits, bs_add, bs_append, bs_private_append, bs_put_*, bs_utf*_size), which OTP 25's
%% loader still accepts. no_type_opt works around a validator crash in OTP 25's compiler.
-module(bits_old).
-compile([no_bs_create_bin, no_type_opt]).
-export([main/0]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, r(F)}).

r(F) -> try F() catch C:R -> {C, R} end.

main() ->
    X = id(65), N = id(-2), F = id(1.5), B = id(<<1, 2, 3>>), Sz = id(12), Big = id(1 bsl 70 + 5),
    t(all_types, fun() -> <<X:8, B/binary, "abc", F/float, X/utf8, X/utf16, X/utf32, F:32/float-little>> end),
    t(sizes_units, fun() -> <<X:Sz/little, N:Sz/signed, X:3/unit:4, B:2/binary, B:1/binary-unit:16>> end),
    t(bignum, fun() -> {<<Big:80>>, <<Big:72/little>>, <<(-Big):90/signed>>} end),
    t(bits, fun() -> <<1:1, X:7, (id(<<5:3>>))/bits, N:5>> end),
    t(init_bytes, fun() -> <<X, X, (id(<<"xyz">>))/binary>> end),
    t(float16_native, fun() -> <<F:16/float, F:64/float-native>> end),
    t(utf, fun() -> [<<C/utf8, C/utf16-little, C/utf32-little>> || C <- id([0, 16#7F, 16#80, 16#7FF, 16#800, 16#FFFF, 16#10000, 16#10FFFF])] end),
    t(bc_bytes, fun() -> << <<(C + 1)>> || <<C>> <= B >> end),
    t(bc_bits, fun() -> << <<C:3>> || <<C:2>> <= id(<<16#1B, 1:2>>) >> end),
    t(bc_list, fun() -> << <<C:16/little>> || C <- lists:seq(1, 40) >> end),
    t(append_loop, fun() -> A = append(id(100000), <<>>), {byte_size(A), binary:part(A, 0, 4), binary:part(A, 99996, 4)} end),
    t(append_bits, fun() -> lists:foldl(fun(I, Acc) -> <<Acc/bits, I:3>> end, <<>>, lists:seq(0, 9)) end),
    Acc = append(id(80), <<>>),
    A1 = <<Acc/binary, "one">>,
    A2 = <<Acc/binary, "two">>,
    t(append_branches, fun() -> {binary:part(A1, 78, 5), binary:part(A2, 78, 5), byte_size(Acc)} end),
    A = id(a),
    t(e_int, fun() -> <<A:8>> end),
    t(e_size, fun() -> <<X:(id(-1))>> end),
    t(e_size_atom, fun() -> <<X:A>> end),
    t(e_size_limit, fun() -> <<X:(id(1 bsl 62))/unit:8>> end),
    t(e_size_big, fun() -> <<X:(id(1 bsl 64))>> end),
    t(e_float, fun() -> <<A/float>> end),
    t(e_float_size, fun() -> <<F:(id(24))/float>> end),
    t(e_binary, fun() -> <<A/binary>> end),
    t(e_binary_unit, fun() -> <<(id(<<1:3>>))/binary>> end),
    t(e_binary_short, fun() -> <<B:4/binary>> end),
    t(e_utf8, fun() -> <<(id(16#D800))/utf8>> end),
    t(e_utf16, fun() -> <<(id(16#110000))/utf16>> end),
    t(e_utf32, fun() -> <<A/utf32>> end),
    t(e_append, fun() -> <<A/binary, 1>> end),
    t(e_append_unit, fun() -> append(1, id(<<1:1>>)) end),
    t(e_frame, fun() -> try <<A:8>> catch error:R:S -> {R, hd(S)} end end),
    G = fun(V) when <<V:8>> =:= <<1>> -> one;
           (V) when byte_size(<<V/binary, 0>>) > 2 -> long;
           (_) -> other
        end,
    t(guards, fun() -> [G(id(V)) || V <- [1, 2, a, <<1, 2>>, <<1>>]] end),
    ok.

append(0, Acc) -> Acc;
append(N, Acc) -> append(N - 1, <<Acc/binary, (N band 255)>>).

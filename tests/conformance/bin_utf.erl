%% UTF-8/16/32 segments, binary comprehensions and unicode conversions.
-module(bin_utf).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

utf8_chars(<<>>) -> [];
utf8_chars(<<C/utf8, R/binary>>) -> [C | utf8_chars(R)].

main() ->
    Cps = id([$a, 16#E9, 16#20AC, 16#1F600]),
    t(utf8_build, fun() -> << <<C/utf8>> || C <- Cps >> end),
    t(utf16_build, fun() -> << <<C/utf16>> || C <- Cps >> end),
    t(utf16_little, fun() -> << <<C/utf16-little>> || C <- Cps >> end),
    t(utf32_build, fun() -> << <<C/utf32>> || C <- Cps >> end),
    t(utf8_decode, fun() -> utf8_chars(<< <<C/utf8>> || C <- Cps >>) end),
    t(utf16_decode, fun() -> [C || <<C/utf16>> <= << <<X/utf16>> || X <- Cps >>] end),
    t(utf8_invalid_cp, fun() -> <<(id(16#D800))/utf8>> end),
    t(utf8_too_big, fun() -> <<(id(16#110000))/utf8>> end),
    t(utf8_bad_match, fun() -> case id(<<16#C0, 16#80>>) of <<C/utf8>> -> C; _ -> nomatch end end),
    t(bc_double, fun() -> << <<(X * 2)>> || <<X>> <= id(<<1, 2, 3>>) >> end),
    t(bc_filter, fun() -> << <<X>> || <<X>> <= id(<<1, 2, 3, 4, 5>>), X rem 2 =:= 1 >> end),
    t(bc_bits, fun() -> << <<X:1>> || X <- id([1, 0, 1, 1, 0, 0, 0, 1, 1]) >> end),
    t(bc_nibbles, fun() -> [N || <<N:4>> <= id(<<16#AB, 16#CD>>)] end),
    t(bc_pairs, fun() -> [{A, B} || <<A:8, B:8>> <= id(<<1, 2, 3, 4, 5>>)] end),
    t(bc_from_list_strings, fun() -> << <<S/binary, ",">> || S <- id([<<"a">>, <<"bc">>]) >> end),
    t(chars_to_binary, fun() -> unicode:characters_to_binary(id([$h, 16#E9, "llo", <<"!">>])) end),
    t(chars_to_list, fun() -> unicode:characters_to_list(id(<<"h", 195, 169>>)) end),
    t(chars_to_list_latin1, fun() -> unicode:characters_to_list(id(<<"h", 233>>), latin1) end),
    t(chars_incomplete, fun() -> unicode:characters_to_list(id(<<"ab", 195>>)) end),
    t(chars_error, fun() -> unicode:characters_to_binary(id([$a, -1])) end),
    t(utf8_size, fun() -> [byte_size(<<C/utf8>>) || C <- [16#7F, 16#80, 16#7FF, 16#800, 16#FFFF, 16#10000, 16#10FFFF]] end),
    t(utf8_literal, fun() -> {<<"€"/utf8>>, <<"€"/utf16>>, "€"} end),
    ok.

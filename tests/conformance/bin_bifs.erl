%% Binary BIFs and the binary module: sizes, slicing, list/iolist conversions.
-module(bin_bifs).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    B = id(<<"hello world">>),
    Big = id(list_to_binary(lists:duplicate(100, $x))),
    t(byte_size, fun() -> {byte_size(B), byte_size(id(<<1:9>>)), byte_size(Big)} end),
    t(bit_size, fun() -> {bit_size(B), bit_size(id(<<1:9>>))} end),
    t(byte_size_bad, fun() -> byte_size(id(abc)) end),
    t(binary_part, fun() -> {binary_part(B, 0, 5), binary_part(B, {6, 5}), binary_part(B, 11, -5)} end),
    t(binary_part_oob, fun() -> binary_part(B, 8, 10) end),
    t(binary_part_big, fun() -> binary_part(Big, 90, 3) end),
    t(split_binary, fun() -> split_binary(B, 5) end),
    t(ltb, fun() -> list_to_binary(id([104, "ey", <<" you">>, [[$!]]])) end),
    t(ltb_bad, fun() -> list_to_binary(id([256])) end),
    t(ltb_improper_tail, fun() -> list_to_binary(id([$a | <<"b">>])) end),
    t(iolist_to_binary, fun() -> iolist_to_binary(id([<<"a">>, [$b, [<<"c">>]], "d"])) end),
    t(iolist_to_binary_bin, fun() -> iolist_to_binary(B) end),
    t(iolist_size, fun() -> iolist_size(id([<<1, 2>>, [3, [4]], <<>>])) end),
    t(iolist_bad, fun() -> iolist_to_binary(id([a])) end),
    t(btl, fun() -> binary_to_list(B) end),
    t(btl_range, fun() -> binary_to_list(B, 2, 4) end),
    t(bitstring_to_list, fun() -> bitstring_to_list(id(<<1, 2, 3:2>>)) end),
    t(list_to_bitstring, fun() -> list_to_bitstring(id([<<1:1>>, 2, <<3:3>>])) end),
    t(sub_binary_of_big, fun() -> <<_:50/binary, R:10/binary, _/binary>> = Big, R end),
    t(binary_first_last, fun() -> {binary:first(B), binary:last(B), binary:at(B, 4)} end),
    t(binary_match, fun() -> {binary:match(B, <<"o">>), binary:matches(B, <<"o">>), binary:match(B, <<"z">>)} end),
    t(binary_split, fun() -> {binary:split(B, <<" ">>), binary:split(id(<<"a,b,,c">>), <<",">>, [global])} end),
    t(binary_replace, fun() -> binary:replace(B, <<"o">>, <<"0">>, [global]) end),
    t(binary_copy, fun() -> binary:copy(<<"ab">>, 3) end),
    t(binary_decode_unsigned, fun() -> {binary:decode_unsigned(<<1, 0>>), binary:encode_unsigned(65535)} end),
    t(binary_to_list_mod, fun() -> binary:bin_to_list(B, {0, 3}) end),
    t(binary_longest_prefix, fun() -> binary:longest_common_prefix([<<"abcd">>, <<"abxy">>]) end),
    t(binary_compare, fun() -> {B < Big, id(<<1, 2>>) < id(<<1, 2, 0>>), id(<<2>>) > id(<<1, 255>>)} end),
    t(is_binary, fun() -> {is_binary(B), is_binary(id(<<1:1>>)), is_bitstring(id(<<1:1>>)), is_binary(id("s"))} end),
    t(term_in_binary_list, fun() -> binary_to_list(iolist_to_binary([Big, B])) -- lists:duplicate(100, $x) end),
    ok.

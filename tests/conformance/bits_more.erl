%% Bit syntax and binary BIFs beyond bin_* and bits_edge: bitstring comprehensions, utf16/32
%% little endian with invalid code points, sub-binaries and off-heap binaries (sent to self,
%% sliced, compared), the size/slice BIFs and their errors, and appending in a long loop.
-module(bits_more).
-export([main/0]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    comprehensions(),
    utf_little(),
    offheap(),
    size_bifs(),
    list_conversions(),
    appending(),
    segments(),
    ok.

comprehensions() ->
    Bits = id(<<2#10110:5, 2#011:3, 2#1:1>>),
    t(bc_bits_gen, fun() -> << <<X:1>> || <<X:1>> <= Bits >> end),
    t(bc_reverse_bits, fun() -> << <<X:1>> || <<X:1>> <= Bits, X =:= 1 >> end),
    t(bc_bitstring_elems, fun() -> << <<B/bitstring>> || <<B:3/bitstring>> <= <<255, 0, 1:2>> >> end),
    t(bc_leftover_ignored, fun() -> [X || <<X:3>> <= <<255, 1:1>>] end),
    t(bc_nested, fun() -> << <<X:4, Y:4>> || <<X:4>> <= <<16#12>>, <<Y:4>> <= <<16#AB>> >> end),
    t(bc_list_gen_bits, fun() -> << <<X:N>> || {X, N} <- id([{1, 1}, {5, 3}, {255, 8}, {0, 2}]) >> end),
    t(bc_utf8_gen, fun() -> [C || <<C/utf8>> <= id(<<"aé€"/utf8>>)] end),
    t(bc_utf8_gen_stops, fun() -> [C || <<C/utf8>> <= id(<<"ab", 255, "c">>)] end),
    t(bc_float_gen, fun() -> [F || <<F:32/float>> <= id(<<1.5:32/float, 16#7FC00000:32, 2.0:32/float>>)] end),
    t(bc_big_result, fun() -> B = << <<X:16>> || X <- lists:seq(1, 500) >>, {byte_size(B), binary:part(B, 996, 4)} end),
    t(bc_empty, fun() -> << <<X>> || <<X>> <= id(<<>>) >> end),
    t(bc_bad_gen, fun() -> << <<X>> || <<X>> <= id(abc) >> end),
    t(bc_bad_elem, fun() -> << <<X>> || X <- id([1, a]) >> end),
    t(bc_bad_bits_elem, fun() -> << X || X <- id([<<1>>, 2]) >> end),
    t(lc_bin_pattern, fun() -> [{A, B} || <<A:2, B:6>> <= id(<<16#C1, 16#3F>>)] end),
    t(bc_string_seg, fun() -> << <<"<", X, ">">> || X <- id("ab") >> end).

utf_little() ->
    t(u16le_surrogate, fun() -> <<(id(16#D800))/utf16-little>> end),
    t(u32le_too_big, fun() -> <<(id(16#110000))/utf32-little>> end),
    t(u32le_negative, fun() -> <<(id(-1))/utf32-little>> end),
    t(u16le_big, fun() -> <<(id(1 bsl 64))/utf16-little>> end),
    t(u16le_max, fun() -> <<(id(16#10FFFF))/utf16-little>> end),
    t(u32_native, fun() -> <<(id(16#20AC))/utf32-native>> end),
    M16 = fun(B) -> case B of <<C/utf16-little, R/bits>> -> {C, R}; _ -> nomatch end end,
    t(m16le, fun() -> [M16(id(B)) || B <- [<<16#00, 16#DC>>, <<16#00, 16#D8>>, <<16#00, 16#D8, 16#00, 16#DC>>,
                                             <<16#00, 16#D8, 16#41, 16#00>>, <<16#41>>, <<16#41, 0, 1:1>>]] end),
    M32 = fun(B) -> case B of <<C/utf32-little, R/bits>> -> {C, R}; _ -> nomatch end end,
    t(m32le, fun() -> [M32(id(B)) || B <- [<<0, 0, 16#11, 0>>, <<0, 16#D8, 0, 0>>, <<16#FF, 16#FF, 16#10, 0>>,
                                             <<255, 255, 255, 255>>, <<1, 0, 0>>]] end),
    t(m8_overlong, fun() -> [case id(B) of <<C/utf8>> -> C; _ -> nomatch end
                             || B <- [<<16#E0, 16#80, 16#80>>, <<16#F0, 16#80, 16#80, 16#80>>, <<16#F8, 16#88, 16#80, 16#80, 16#80>>,
                                      <<16#EF, 16#BF, 16#BF>>, <<16#F4, 16#8F, 16#BF, 16#BF>>]] end),
    t(utf_sizes_mixed, fun() -> byte_size(<<(id(16#10000))/utf16, (id($a))/utf8, (id(0))/utf32-little>>) end).

offheap() ->
    Big = id(binary:copy(<<"0123456789abcdef">>, 8)),
    self() ! {msg, Big, binary:part(Big, 10, 70)},
    Got = receive {msg, B1, S1} -> {B1, S1} end,
    {B2, S2} = Got,
    t(sent_equal, fun() -> {B2 =:= Big, byte_size(S2), S2 =:= binary:part(Big, 10, 70)} end),
    t(sub_of_sent, fun() -> <<_:3/binary, X:5/binary, _/binary>> = S2, X end),
    t(referenced, fun() -> {binary:referenced_byte_size(Big), binary:referenced_byte_size(binary:part(Big, 1, 2))} end),
    <<_:3/binary, X5:5/binary, X50:50/binary, X65:65/binary, _/binary>> = Big,
    <<_:3, Q16:16/bits, _/bits>> = Big,
    <<_:3, W/bits>> = Big,
    {L10, R118} = split_binary(Big, 10),
    R = fun binary:referenced_byte_size/1,
    t(referenced_slices, fun() -> [R(X5), R(X50), R(X65), R(Q16), R(W), R(L10), R(R118), R(binary_part(Big, 0, 64)),
                                   R(binary_part(Big, 0, 65)), R(hd(binary:split(Big, <<"f">>))), R(<<X5/binary>>)] end),
    t(copy_detaches, fun() -> binary:referenced_byte_size(binary:copy(binary:part(Big, 1, 100))) end),
    t(ets_like_roundtrip, fun() -> binary_to_term(term_to_binary({Big, S2})) =:= {Big, S2} end),
    Bits = id(<<Big/binary, 5:3>>),
    t(big_bitstring, fun() -> {bit_size(Bits), byte_size(Bits), binary:last(binary:part(Big, 0, 128))} end),
    t(big_bitstring_tail, fun() -> <<_:128/binary, T/bits>> = Bits, T end),
    t(compare_big, fun() -> {Big < <<Big/binary, 0>>, Big == binary:copy(Big), Bits > Big} end).

size_bifs() ->
    B = id(<<"abcdefgh">>),
    t(bit_size_bits, fun() -> [bit_size(X) || X <- id([<<>>, <<1:1>>, <<1:15>>, B])] end),
    t(byte_size_bits, fun() -> [byte_size(X) || X <- id([<<>>, <<1:1>>, <<1:15>>, <<1:16>>, <<1:17>>])] end),
    t(bit_size_bad, fun() -> bit_size(id("abc")) end),
    t(guard_sizes, fun() -> [if byte_size(X) > 1 -> big; true -> small end || X <- id([<<1:9>>, <<1>>, <<1, 2>>])] end),
    t(guard_size_bad, fun() -> A = id(a), if byte_size(A) > 1 -> yes; true -> no end end),
    t(bp_neg_len, fun() -> binary_part(B, 5, -3) end),
    t(bp_neg_oob, fun() -> binary_part(B, 2, -3) end),
    t(bp_end, fun() -> binary_part(B, 8, 0) end),
    t(bp_past_end, fun() -> binary_part(B, 9, 0) end),
    t(bp_bits, fun() -> binary_part(id(<<1, 2, 3:4>>), 0, 1) end),
    t(bp_bits_all, fun() -> binary_part(id(<<1, 2, 3:4>>), 0, 2) end),
    t(bp_bad_tuple, fun() -> binary_part(B, {1, 2, 3}) end),
    t(bp_not_int, fun() -> binary_part(B, a, 1) end),
    t(bp_big_int, fun() -> binary_part(B, 1 bsl 64, 1) end),
    t(bp_guard, fun() -> [case X of _ when binary_part(X, 0, 2) =:= <<"ab">> -> ab; _ -> other end || X <- id([B, <<"x">>, 7])] end),
    t(split_0, fun() -> split_binary(B, 0) end),
    t(split_end, fun() -> split_binary(B, 8) end),
    t(split_past, fun() -> split_binary(B, 9) end),
    t(split_neg, fun() -> split_binary(B, -1) end),
    t(split_bits, fun() -> split_binary(id(<<1, 2, 3:4>>), 1) end),
    t(split_bits_past, fun() -> split_binary(id(<<1, 2, 3:4>>), 3) end),
    t(split_not_bin, fun() -> split_binary(id(abc), 1) end).

list_conversions() ->
    t(ltbs_nested, fun() -> list_to_bitstring(id([[<<1:1>>, [<<1:2>>]], 255, <<7:3>> | <<1:1>>])) end),
    t(ltbs_empty, fun() -> list_to_bitstring(id([[], [[]]])) end),
    t(ltbs_bad_int, fun() -> list_to_bitstring(id([256])) end),
    t(ltbs_bad_tail, fun() -> list_to_bitstring(id([1 | 2])) end),
    t(ltbs_not_list, fun() -> list_to_bitstring(id(<<1:1>>)) end),
    t(ltb_bits, fun() -> list_to_binary(id([<<1:1>>])) end),
    t(bstl_bytes, fun() -> bitstring_to_list(id(<<1, 2>>)) end),
    t(bstl_bits, fun() -> bitstring_to_list(id(<<1, 2, 3:5>>)) end),
    t(bstl_only_bits, fun() -> bitstring_to_list(id(<<1:1>>)) end),
    t(bstl_bad, fun() -> bitstring_to_list(id([1])) end),
    t(btl_bits, fun() -> binary_to_list(id(<<1:1>>)) end),
    t(btl3_bad_range, fun() -> binary_to_list(id(<<1, 2, 3>>), 2, 1) end),
    t(btl3_zero, fun() -> binary_to_list(id(<<1, 2, 3>>), 0, 1) end),
    t(ioltb_bits, fun() -> iolist_to_binary(id([<<1:1>>])) end),
    t(iolsize_big, fun() -> iolist_size(id([binary:copy(<<1>>, 1000), [<<2:8>> | <<3>>]])) end),
    t(iolsize_bits, fun() -> iolist_size(id([<<1:1>>])) end).

appending() ->
    %% 200,000 appends: quadratic copying would take minutes; linear takes milliseconds.
    Bin = build(id(200000), <<>>),
    t(append_200k, fun() -> {byte_size(Bin), binary:part(Bin, 0, 4), binary:part(Bin, byte_size(Bin) - 4, 4)} end),
    t(append_sum, fun() -> sum_bytes(Bin, 0) end),
    %% An append to an older version must not see the newer bytes.
    Old = build(id(100), <<>>),
    New1 = <<Old/binary, "x">>,
    New2 = <<Old/binary, "y">>,
    t(append_branches, fun() -> {binary:last(New1), binary:last(New2), byte_size(Old)} end),
    BitAcc = lists:foldl(fun(I, A) -> <<A/bits, (I band 1):1>> end, <<>>, lists:seq(1, 1001)),
    t(append_bits_1001, fun() -> {bit_size(BitAcc), binary:part(BitAcc, 0, 3)} end),
    MsgAcc = build(id(300), <<>>),
    self() ! MsgAcc,
    Rcv = receive M -> M end,
    Rcv2 = <<Rcv/binary, "tail">>,
    t(append_after_send, fun() -> {byte_size(Rcv2), byte_size(MsgAcc), binary:part(Rcv2, 298, 6)} end).

build(0, Acc) -> Acc;
build(N, Acc) -> build(N - 1, <<Acc/binary, (N band 255)>>).

sum_bytes(<<X, R/binary>>, S) -> sum_bytes(R, S + X);
sum_bytes(<<>>, S) -> S.

segments() ->
    V = id(16#ABCDEF),
    t(int_unit_sizes, fun() -> [<<V:S/unit:4>> || S <- [1, 3, 5, 7]] end),
    t(int_signed_little_odd, fun() -> [<<(id(-V)):S/little-signed>> || S <- [7, 13, 25, 33]] end),
    t(int_match_signed_little_odd, fun() -> [X || S <- [7, 13, 25, 33], <<X:S/little-signed>> <= <<(id(-V)):S/little-signed>>] end),
    t(int_big_sizes, fun() -> [<<(id(-1)):S/signed>> || S <- [63, 64, 65, 127, 129]] end),
    t(int_native_big, fun() -> <<(id(1 bsl 70)):80/native>> end),
    t(binary_unit_size, fun() -> <<(id(<<1, 2, 3, 4>>)):2/binary-unit:16>> end),
    t(bits_unit_size, fun() -> <<(id(<<255, 255>>)):3/binary-unit:3>> end),
    t(float_native, fun() -> <<(id(1.0)):64/float-native>> end),
    t(float_little_32, fun() -> <<(id(-0.5)):32/float-little>> end),
    t(float_neg_zero, fun() -> <<(id(-0.0))/float>> end),
    t(match_binary_unit, fun() -> <<A:1/binary-unit:16, R/binary>> = id(<<1, 2, 3>>), {A, R} end),
    t(match_all_bits_unit, fun() -> case id(<<1:9>>) of <<A/binary-unit:3>> -> A; _ -> no end end),
    t(match_var_size_bits, fun() -> S = id(5), <<A:S/bits, B/bits>> = id(<<255>>), {A, B} end),
    t(match_size_too_big, fun() -> S = id(1 bsl 70), case id(<<1>>) of <<_:S>> -> yes; _ -> no end end),
    t(match_size_bad, fun() -> S = id(a), case id(<<1>>) of <<_:S>> -> yes; _ -> no end end).

%% Byte and word loops that the loader fuses into bs_start_match_get_u8 and
%% bs_start_match_get_uint_be (loader/transform_bits_fast.cpp): heap binaries, refc binaries,
%% sub-binaries, bitstrings that end mid-byte or start at an unaligned offset, the end of the
%% input, and terms that are no bitstring at all (function_clause, badarg, the next clause).
-module(bits_start_match_get).
-export([main/0]).

sum_bytes(<<B, Rest/binary>>, Acc) -> sum_bytes(Rest, Acc + B);
sum_bytes(<<>>, Acc) -> Acc.

%% Bitstrings too: what is left after the last whole byte is returned.
bytes_of(<<B, Rest/bitstring>>, Acc) -> bytes_of(Rest, [B | Acc]);
bytes_of(Tail, Acc) -> {lists:reverse(Acc), Tail}.

words(<<W:16, Rest/binary>>, Acc) -> words(Rest, Acc + W);
words(<<>>, Acc) -> {even, Acc};
words(<<_>>, Acc) -> {odd, Acc}.

fields(<<F:12, Rest/bitstring>>, Acc) -> fields(Rest, [F | Acc]);
fields(Rest, Acc) -> {lists:reverse(Acc), bit_size(Rest)}.

wide(<<V:59, Rest/bitstring>>) -> {V, bit_size(Rest)};
wide(Other) -> {short, bit_size(Other)}.

first(<<B, _/binary>>) -> B;
first(_) -> none.

reason(F) ->
    try F() catch error:R -> {error, R} end.

main() ->
    Small = <<1, 2, 3, 250, 255>>,
    Big = list_to_binary([I band 255 || I <- lists:seq(1, 5000)]),
    <<_:3, Unaligned/bitstring>> = <<Big/binary, 7:5>>,
    <<_:40, Sub:100/binary, _/binary>> = Big,
    io:format("~p~n", [[sum_bytes(B, 0) || B <- [<<>>, Small, Big, Sub]]]),
    io:format("~p~n", [[bytes_of(B, []) || B <- [<<1, 2, 3:4>>, <<9:7>>, <<255, 1:1>>]]]),
    io:format("~p~n", [element(2, bytes_of(Unaligned, [])) =:= <<>>]),
    io:format("~p~n", [lists:sum(element(1, bytes_of(Unaligned, [])))]),
    io:format("~p~n", [[words(B, 0) || B <- [<<>>, Small, Big, Sub, <<1>>]]]),
    io:format("~p~n", [[fields(B, []) || B <- [<<1, 2, 3>>, <<16#abcdef:24, 5:3>>, <<>>]]]),
    io:format("~p~n", [[wide(B) || B <- [<<-1:64>>, <<1:59>>, <<7:58>>, Big]]]),
    io:format("~p~n", [[first(T) || T <- [Small, <<>>, <<1:3>>, atom, [1, 2], 3, {<<1>>}]]]),
    io:format("~p~n", [[reason(fun() -> sum_bytes(T, 0) end) || T <- [atom, <<1:3>>, [1], {}]]]).

%% Bit syntax matching: fixed and variable sizes, types, tails, function heads, failures.
-module(bin_match).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

parse(<<Len:8, Payload:Len/binary, Rest/binary>>) -> {Payload, Rest};
parse(_) -> bad.

decode(<<0, X:8>>) -> {byte, X};
decode(<<1, X:16>>) -> {short, X};
decode(<<2, X:32/float>>) -> {float, X};
decode(<<3, S/binary>>) -> {string, S};
decode(_) -> unknown.

count_ones(<<>>, N) -> N;
count_ones(<<1:1, R/bitstring>>, N) -> count_ones(R, N + 1);
count_ones(<<0:1, R/bitstring>>, N) -> count_ones(R, N).

split_lines(Bin) -> split_lines(Bin, <<>>, []).
split_lines(<<$\n, R/binary>>, Cur, Acc) -> split_lines(R, <<>>, [Cur | Acc]);
split_lines(<<C, R/binary>>, Cur, Acc) -> split_lines(R, <<Cur/binary, C>>, Acc);
split_lines(<<>>, Cur, Acc) -> lists:reverse([Cur | Acc]).

main() ->
    B = id(<<16#12, 16#34, 16#56, 16#78, 16#9A>>),
    t(bytes, fun() -> <<A, Bb, _/binary>> = B, {A, Bb} end),
    t(int16, fun() -> <<X:16, _/binary>> = B, X end),
    t(int16_little, fun() -> <<X:16/little, _/binary>> = B, X end),
    t(signed, fun() -> <<_:32, X:8/signed>> = B, X end),
    t(odd_sizes, fun() -> <<A:4, Bb:12, C:3, _/bitstring>> = B, {A, Bb, C} end),
    t(rest_bitstring, fun() -> <<_:3, R/bitstring>> = B, R end),
    t(tail_binary, fun() -> <<_:2/binary, R/binary>> = B, R end),
    t(var_size, fun() -> parse(id(<<3, "abcde">>)) end),
    t(var_size_short, fun() -> parse(id(<<9, "abc">>)) end),
    t(float_match, fun() -> <<F:64/float>> = <<(id(2.25)):64/float>>, F end),
    t(float32_match, fun() -> <<F:32/float>> = <<(id(0.1)):32/float>>, F end),
    t(nan_no_match, fun() -> case id(<<16#7FF8000000000000:64>>) of <<F:64/float>> -> F; _ -> nomatch end end),
    t(decode_all, fun() -> [decode(X) || X <- id([<<0, 7>>, <<1, 1, 0>>, <<2, 64, 0, 0, 0>>, <<3, "hi">>, <<9>>])] end),
    t(count_ones, fun() -> count_ones(id(<<255, 1, 128>>), 0) end),
    t(split_lines, fun() -> split_lines(id(<<"one\ntwo\n\nthree">>)) end),
    t(utf8_match, fun() -> <<C/utf8, R/binary>> = id(<<"ä!"/utf8>>), {C, R} end),
    t(literal_prefix, fun() -> case id(<<"GET /index">>) of <<"GET ", P/binary>> -> P; _ -> no end end),
    t(badmatch, fun() -> <<_:8>> = id(<<1, 2>>) end),
    t(size_expr, fun() -> N = id(2), <<X:(N * 8), _/binary>> = B, X end),
    t(bound_size_match, fun() -> <<N:8, X:N/unit:8, _/binary>> = id(<<2, 1, 0, 9>>), X end),
    t(binary_in_case, fun() -> case id(<<1, 2, 3>>) of <<1, Rest/binary>> when byte_size(Rest) > 1 -> Rest; _ -> no end end),
    t(bitstring_equality, fun() -> {id(<<1:1>>) =:= <<128:8>>, id(<<1:1>>) < id(<<1>>)} end),
    t(big_int_match, fun() -> <<X:96>> = id(<<255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255>>), X end),
    t(signed_big_match, fun() -> <<X:72/signed>> = id(<<128, 0, 0, 0, 0, 0, 0, 0, 1>>), X end),
    ok.

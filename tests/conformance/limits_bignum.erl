%% The largest integer OTP builds: 2^19-1 64-bit digits (BIG_ARITY_MAX), so the largest magnitude
%% is 2^33554368 - 1. Arithmetic that would go past it raises system_limit, a bit-syntax match
%% that would fails, binary_to_term refuses a longer bignum. Results are printed as sign and bit
%% count, never in full. (OTP 25 answers [] for a few bitwise operations of negative operands
%% just past the limit, a bug in big.c that this test leaves alone.)
-module(limits_bignum).
-export([main/0]).

id(X) -> X.

t(Label, F) ->
    R = try F() of
            V when is_integer(V) -> {ok, sign(V), bits(abs(V))};
            V -> {ok, V}
        catch
            C:E when is_tuple(E) -> {C, element(1, E)};
            C:E -> {C, E}
        end,
    erlang:display({Label, R}).

sign(V) when V < 0 -> neg;
sign(_) -> pos.

bits(0) -> 0;
bits(V) ->
    B = binary:encode_unsigned(V),
    <<Top, _/binary>> = B,
    byte_size(B) * 8 - 8 + length(integer_to_list(Top, 2)).

main() ->
    MaxBits = id(64 * ((1 bsl 19) - 1)),
    Max = (((id(1) bsl (MaxBits - 1)) - 1) bsl 1) + 1,
    %% Products of two long factors stay out: OTP multiplies before it checks (minutes).
    Near = id(1) bsl (MaxBits - 200),
    t(max, fun() -> Max end),
    t(shift_to_top_bit, fun() -> id(1) bsl (MaxBits - 1) end),
    t(shift_past_top_bit, fun() -> id(1) bsl MaxBits end),
    t(shift_100000000, fun() -> id(1) bsl 100000000 end),
    t(shift_2_45, fun() -> id(1) bsl (1 bsl 45) end),
    t(shift_2_69, fun() -> id(1) bsl (1 bsl 69) end),
    t(shift_zero_far, fun() -> id(0) bsl (1 bsl 128) end),
    t(shift_zero_far_right, fun() -> id(0) bsr -(1 bsl 128) end),
    t(apply_bsl_zero, fun() -> apply(erlang, id('bsl'), [0, 1 bsl 128]) end),
    t(max_bsl_1, fun() -> Max bsl 1 end),
    t(apply_max_bsl_2, fun() -> apply(erlang, id('bsl'), [Max, 2]) end),
    t(max_bsr_1_bsl_1, fun() -> (Max bsr 1) bsl 1 end),
    t(max_plus_1, fun() -> Max + 1 end),
    t(max_plus_0, fun() -> Max + 0 end),
    t(max_minus_1_plus_1, fun() -> (Max - 1) + 1 end),
    t(neg_max_minus_1, fun() -> -Max - 1 end),
    t(neg_max, fun() -> -Max end),
    t(minus_max, fun() -> 0 - Max end),
    t(times_2, fun() -> 2 * Max end),
    t(times_1, fun() -> Max * id(1) end),
    t(times_3, fun() -> Max * 3 end),
    t(near_times_2_200, fun() -> Near * (1 bsl 200) end),
    t(near_times_2_199, fun() -> Near * (1 bsl 199) end),
    t(neg_near_times_2_200, fun() -> -Near * (1 bsl 200) end),
    t(bnot_max, fun() -> bnot Max end),
    t(apply_bnot_max, fun() -> apply(erlang, id('bnot'), [Max]) end),
    t(bnot_neg_max, fun() -> bnot (-Max) end),
    t(max_band_minus_1, fun() -> Max band -1 end),
    t(max_bor_minus_1, fun() -> Max bor -1 end),
    t(neg_max_bor_minus_2, fun() -> (-Max) bor -2 end),
    t(max_div_1, fun() -> Max div 1 end),
    t(max_rem_7, fun() -> Max rem 7 end),
    t(abs_neg_max, fun() -> abs(-Max) end),
    t(float_max, fun() -> float(Max) end),
    Ones = binary:copy(<<255>>, MaxBits div 8),
    t(match_max, fun() -> <<X:MaxBits>> = id(Ones), X end),
    t(match_past_max, fun() -> <<X:(MaxBits + 1)>> = id(<<Ones/binary, 1:1>>), X end),
    t(match_past_max_leading_zero, fun() -> <<X:(MaxBits + 1)>> = id(<<0:1, Ones/binary>>), X end),
    t(match_signed_min, fun() -> <<X:(MaxBits + 1)/signed>> = id(<<1:1, 0:MaxBits>>), X end),
    t(match_signed_min_plus_1, fun() -> <<X:(MaxBits + 1)/signed>> = id(<<1:1, 1:MaxBits>>), X end),
    t(match_little_past_max, fun() -> <<X:(MaxBits + 8)/little>> = id(<<Ones/binary, 1>>), X end),
    t(match_little_zero_top, fun() -> <<X:(MaxBits + 8)/little>> = id(<<Ones/binary, 0>>), X end),
    t(match_clause_falls_through, fun() -> case id(<<Ones/binary, 1:1>>) of
                                                 <<X:(MaxBits + 1)>> -> X;
                                                 <<_:8, _/bitstring>> -> second_clause
                                             end end),
    t(decode_unsigned_past_max, fun() -> binary:decode_unsigned(<<1, Ones/binary>>) end),
    T = term_to_binary(Max),
    t(term_to_binary_max, fun() -> byte_size(T) end),
    t(binary_to_term_max, fun() -> binary_to_term(T) end),
    <<131, 111, Len:32, Sign, Digits/binary>> = T,
    t(binary_to_term_past_max, fun() -> binary_to_term(<<131, 111, (Len + 1):32, Sign, Digits/binary, 1>>) end),
    t(binary_to_term_leading_zero, fun() -> binary_to_term(<<131, 111, (Len + 1):32, Sign, Digits/binary, 0>>) end),
    ok.

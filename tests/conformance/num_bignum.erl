%% Integers of any size as OTP 25 computes them: every operator on a grid of operands around
%% the small/bignum boundaries, huge operands, shifts up to system_limit, two's complement
%% bitwise ops on negatives, integer <-> text in bases 2..36, comparison with floats,
%% float/1 and round/trunc/ceil/floor across the double range.
-module(num_bignum).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% The result of F, or the error it raises, for one cell of an operator table.
r(F) -> try F() catch C:R -> {C, R} end.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

pow(_, 0) -> 1;
pow(B, E) -> B * pow(B, E - 1).

%% A short fingerprint of a huge integer: its decimal length, sign and residue.
fp(X) -> {length(integer_to_list(X)), X rem 2305843009213693951}.

%% Operands around every boundary an implementation may have: 0, the 60-bit small range of a
%% 64-bit OTP, one and two 64-bit limbs, and a few multi-limb values of both signs.
operands() ->
    SmallMax = (1 bsl 59) - 1,
    [0, 1, -1, 7, -13, SmallMax, SmallMax + 1, -SmallMax - 1, -SmallMax - 2,
     (1 bsl 64) - 1, 1 bsl 64, -(1 bsl 64), (1 bsl 127) + 3, -pow(3, 100),
     fact(30), -((1 bsl 300) - 1), 16#FFFFFFFFFFFFFFFF0000000000000000].

ops() ->
    [{'+', fun(A, B) -> A + B end},
     {'-', fun(A, B) -> A - B end},
     {'*', fun(A, B) -> A * B end},
     {'div', fun(A, B) -> A div B end},
     {'rem', fun(A, B) -> A rem B end},
     {'band', fun(A, B) -> A band B end},
     {'bor', fun(A, B) -> A bor B end},
     {'bxor', fun(A, B) -> A bxor B end}].

grid() ->
    Xs = operands(),
    [erlang:display({Name, I, [r(fun() -> F(X, Y) end) || Y <- Xs]})
     || {Name, F} <- ops(), {I, X} <- lists:zip(lists:seq(1, length(Xs)), Xs)].

unary() ->
    [erlang:display({unary, X, r(fun() -> -X end), r(fun() -> bnot X end), abs(X),
                     r(fun() -> +X end)})
     || X <- operands()],
    [erlang:display({shift, X, [r(fun() -> X bsl S end) || S <- shifts()],
                     [r(fun() -> X bsr S end) || S <- shifts()]})
     || X <- operands()].

shifts() -> [0, 1, 3, 59, 60, 63, 64, 65, 127, 128, 200, -1, -60, -64, -65, -200, -400].

huge() ->
    F1 = fact(id(1000)), F2 = fact(id(700)),
    t(fact_1000, fun() -> fp(F1) end),
    t(fact_700, fun() -> fp(F2) end),
    t(huge_mul, fun() -> fp(F1 * F2) end),
    t(huge_mul_neg, fun() -> fp(F1 * -F2) end),
    t(huge_square, fun() -> fp(F1 * F1) end),
    t(huge_add, fun() -> fp(F1 + F2) end),
    t(huge_sub, fun() -> fp(F2 - F1) end),
    t(huge_div, fun() -> fp(F1 div F2) end),
    t(huge_div_neg, fun() -> {fp(-F1 div F2), fp(F1 div -F2), fp(-F1 div -F2)} end),
    t(huge_rem, fun() -> fp(F1 rem (F2 + 1)) end),
    t(huge_rem_neg, fun() -> {fp(-F1 rem (F2 + 1)), fp(F1 rem -(F2 + 1))} end),
    t(huge_exact_div, fun() -> {F1 rem F2, (F1 * F2) div F2 =:= F1} end),
    t(huge_div_small, fun() -> {fp(F1 div 7), F1 rem 7, (F1 + 5) rem 7, -(F1 + 5) rem 7} end),
    t(huge_div_bigger, fun() -> {F2 div F1, F2 rem F1 =:= F2, -F2 div F1} end),
    t(huge_band, fun() -> fp(F1 band (F2 * 3)) end),
    t(huge_bor_neg, fun() -> fp(F1 bor -F2) end),
    t(huge_bxor_neg, fun() -> fp(-F1 bxor -F2) end),
    t(huge_band_neg, fun() -> fp(-F1 band -F2) end),
    t(huge_bnot, fun() -> {bnot F1 =:= -F1 - 1, bnot (bnot F1) =:= F1} end),
    t(huge_bsl, fun() -> fp(F1 bsl 1000) end),
    t(huge_bsr, fun() -> {fp(F1 bsr 1000), fp(-F1 bsr 1000), fp(-F1 bsr 8519)} end),
    t(huge_eq, fun() -> {F1 == fact(1000), F1 =:= F1 + 0, F1 < F1 + 1, -F1 < -F2} end),
    t(mersenne, fun() -> M = (1 bsl 521) - 1, {fp(M), M rem 1000000007, M band 16#FFFF} end),
    t(pow_digits, fun() -> length(integer_to_list(pow(id(7), 2000))) end),
    t(cancellation, fun() -> {F1 - F1, (F1 + 1) - F1, -F1 + F1, F1 * 0} end),
    t(div_by_zero, fun() -> F1 div id(0) end),
    t(rem_by_zero, fun() -> F1 rem id(0) end),
    t(fdiv_by_zero, fun() -> F1 / id(0) end),
    t(fdiv_huge, fun() -> F1 / F2 end),
    t(fdiv_big_small, fun() -> float_to_list((1 bsl 100) / 3, [short]) end),
    t(mul_by_float, fun() -> F1 * 1.0 end),
    t(add_atom, fun() -> F1 + id(a) end),
    t(band_float, fun() -> F1 band id(1.0) end),
    t(bnot_float, fun() -> bnot id(1.0) end),
    t(div_float, fun() -> id(7.0) div 2 end),
    t(rem_float, fun() -> 7 rem id(2.0) end).

big_shifts() ->
    One = id(1), Zero = id(0), Neg = id(-5), Big = id(1 bsl 100),
    t(bsl_2_40, fun() -> One bsl (1 bsl 40) end),
    t(bsl_2_32, fun() -> One bsl (1 bsl 32) end),
    t(bsl_bigcount, fun() -> One bsl (1 bsl 100) end),
    t(bsl_neg_bigcount, fun() -> Neg bsl (1 bsl 100) end),
    t(bsl_zero_huge, fun() -> {Zero bsl (1 bsl 100), Zero bsl (1 bsl 40), Zero bsr (1 bsl 100)} end),
    t(bsr_bigcount, fun() -> {One bsr (1 bsl 100), Neg bsr (1 bsl 100), Big bsr (1 bsl 100)} end),
    t(bsl_neg_big, fun() -> {One bsl -(1 bsl 100), Neg bsl -(1 bsl 100), -Big bsl -(1 bsl 70)} end),
    t(bsr_neg_bigcount, fun() -> One bsr -(1 bsl 100) end),
    t(bsr_neg_40, fun() -> One bsr -(1 bsl 40) end),
    t(bsl_million, fun() -> X = One bsl 1000000, {X bsr 999990, X rem 1000000007, (X - 1) band 16#FFFF} end),
    t(bsl_float_count, fun() -> One bsl id(2.0) end),
    t(bsl_atom, fun() -> id(a) bsl 1 end),
    t(bsr_rounding, fun() -> [X bsr 1 || X <- [-1, -2, -3, -4, 3, -(1 bsl 64) - 1, -(1 bsl 64)]] end),
    t(bsr_neg_limb, fun() -> [-((1 bsl 128) + 1) bsr S || S <- [1, 63, 64, 65, 127, 128, 129]] end).

%% Negative bitwise operands are infinite two's complement numbers.
bitwise_neg() ->
    Vs = [-1, -2, -(1 bsl 64), -(1 bsl 64) + 1, -(1 bsl 64) - 1, -(1 bsl 128), (1 bsl 128) - 1,
          16#5555555555555555AAAAAAAAAAAAAAAA5, -16#5555555555555555AAAAAAAAAAAAAAAA5],
    [erlang:display({bitneg, X, [{X band Y, X bor Y, X bxor Y} || Y <- Vs]}) || X <- Vs].

%% integer_to_list/binary and list/binary_to_integer in every base, both ways.
bases() ->
    Vals = [0, 1, -1, 35, -36, (1 bsl 59) - 1, 1 bsl 59, -(1 bsl 64), fact(25), -pow(7, 60)],
    [erlang:display({base, B, [integer_to_list(V, B) || V <- Vals]}) || B <- lists:seq(2, 36)],
    t(roundtrip, fun() ->
        lists:all(fun(B) ->
            lists:all(fun(V) ->
                list_to_integer(integer_to_list(V, B), B) =:= V andalso
                binary_to_integer(integer_to_binary(V, B), B) =:= V
            end, Vals)
        end, lists:seq(2, 36))
    end),
    t(itb, fun() -> [integer_to_binary(V, 16) || V <- Vals] end),
    t(itb_default, fun() -> {integer_to_binary(fact(22)), integer_to_list(-fact(22))} end),
    t(lti_lower, fun() -> {list_to_integer("ff", 16), list_to_integer("Zz", 36), list_to_integer("-aBc", 16)} end),
    t(lti_plus, fun() -> {list_to_integer("+12"), binary_to_integer(<<"+z">>, 36), list_to_integer("-0")} end),
    t(lti_zeros, fun() -> {list_to_integer("000000000000000000000000000000000042"), list_to_integer("-0000")} end),
    t(lti_long, fun() -> fp(list_to_integer(lists:duplicate(300, $9))) end),
    t(lti_long_base2, fun() -> list_to_integer(lists:duplicate(130, $1), 2) end),
    t(lti_long_base36, fun() -> list_to_integer(lists:duplicate(40, $z), 36) end),
    t(lti_boundary, fun() -> [list_to_integer(S) || S <- ["576460752303423487", "576460752303423488",
                                                          "-576460752303423488", "-576460752303423489",
                                                          "18446744073709551616"]] end),
    Bad = [{"", 10}, {"-", 10}, {"+", 10}, {"12a", 10}, {"2", 2}, {" 1", 10}, {"1 ", 10},
           {"1.0", 10}, {"--1", 10}, {"+-1", 10}, {"g", 16}, {"1_000", 10}, {"10", 1}, {"10", 37},
           {"10", 0}, {"10", a}, {"10", -2}],
    [t({lti_bad, S, B}, fun() -> list_to_integer(S, B) end) || {S, B} <- Bad],
    [t({bti_bad, S, B}, fun() -> binary_to_integer(list_to_binary(S), B) end) || {S, B} <- Bad],
    t(lti_notlist, fun() -> list_to_integer(id(<<"1">>)) end),
    t(lti_improper, fun() -> list_to_integer(id([$1 | $2])) end),
    t(lti_unicode, fun() -> list_to_integer(id([$1, 16#663])) end),
    t(bti_notbin, fun() -> binary_to_integer(id("1")) end),
    t(bti_bits, fun() -> binary_to_integer(id(<<"12", 1:1>>)) end),
    t(itl_bad_base, fun() -> integer_to_list(10, id(37)) end),
    t(itl_base1, fun() -> integer_to_list(10, id(1)) end),
    t(itl_float, fun() -> integer_to_list(id(1.0)) end),
    t(itb_bad_base, fun() -> integer_to_binary(10, id(0)) end).

%% Integers against floats: == compares values, =:= never equates an integer with a float,
%% and term order breaks no ties between them.
mixed_compare() ->
    P64 = 1 bsl 64, F64 = 18446744073709551616.0,
    P53 = 1 bsl 53, F53 = 9007199254740992.0,
    t(cmp_p64, fun() -> {P64 == F64, P64 =:= F64, P64 + 1 == F64, P64 + 1 > F64, P64 - 1 < F64} end),
    t(cmp_p53, fun() -> {P53 == F53, P53 + 1 == F53, P53 + 1 > F53, P53 + 1 == F53 + 1, F53 + 1 == F53} end),
    t(cmp_small_frac, fun() -> {3 < 3.5, 3 > 2.5, -3 < -2.5, -3 > -3.5, 0 < 1.0e-300, 0 > -1.0e-300} end),
    t(cmp_small_big_float, fun() -> {(1 bsl 59) - 1 < 1.0e18, 1 bsl 59 > 1.0e17, (1 bsl 59) - 1 < 1.0e30,
                                     -(1 bsl 59) > -1.0e30, 12345 < 1.0e300, -12345 > -1.0e300} end),
    t(cmp_big_float, fun() -> {fact(30) == float(fact(30)), fact(30) > float(fact(30)),
                               fact(30) < 1.0e33, -fact(30) > -1.0e33, fact(170) < 1.0e307,
                               fact(171) > 1.7976931348623157e308} end),
    t(cmp_huge_int_float, fun() -> {1 bsl 2000 > 1.0e308, -(1 bsl 2000) < -1.0e308,
                                    1 bsl 1023 == 8.98846567431158e307, (1 bsl 1023) + 1 > 8.98846567431158e307} end),
    t(cmp_zero, fun() -> {0 == 0.0, 0 == -0.0, 0 =:= 0.0, 0 < 0.0, 0.0 < 0, 0 > -0.0} end),
    t(sort_mixed, fun() -> lists:sort([3, 2.0, 1 bsl 70, 1.0e21, -1, -1.0, 2, 1.0e30, 1 bsl 100, 0.5]) end),
    t(sort_ties, fun() -> {lists:sort([1.0, 1]), lists:sort([1, 1.0]), lists:usort([1, 1.0, 1]),
                           lists:sort([P64, F64]), lists:sort([F64, P64])} end),
    t(minmax, fun() -> {max(1, 1.0), max(1.0, 1), min(1, 1.0), min(1.0, 1), max(P64, F64), min(F64, P64)} end),
    t(keysearch, fun() -> {lists:keyfind(1.0, 1, [{1, a}]), lists:keymember(1, 1, [{1.0, a}]),
                           lists:member(1.0, [1]), lists:delete(1.0, [1, 1.0])} end),
    t(map_keys, fun() -> M = #{1 => int, 1.0 => float}, {maps:get(1, M), maps:get(1.0, M), map_size(M)} end),
    t(compare_ops, fun() -> [{A < B, A =< B, A == B, A >= B, A > B, A =/= B, A /= B}
                             || {A, B} <- [{1, 1.0}, {P64, F64}, {P64 + 1, F64}, {-P64, -F64}, {2.5, 2}]] end).

%% float/1 and the float -> integer BIFs over the whole double range.
to_from_float() ->
    t(float_2_1023, fun() -> float(id(1 bsl 1023)) end),
    t(float_2_1024, fun() -> float(id(1 bsl 1024)) end),
    t(float_max, fun() -> float(id((1 bsl 1024) - (1 bsl 970))) end),
    t(float_max_plus, fun() -> float(id((1 bsl 1024) - (1 bsl 970) + (1 bsl 969))) end),
    t(float_max_just_below_half, fun() -> float(id((1 bsl 1024) - (1 bsl 970) + (1 bsl 969) - 1)) end),
    t(float_neg_huge, fun() -> float(id(-(1 bsl 1024))) end),
    t(float_rounding, fun() -> [float_to_list(float(id(X)), [short]) || X <- [(1 bsl 53) + 1, (1 bsl 53) + 3,
                                (1 bsl 64) - 1, (1 bsl 64) + (1 bsl 11), (1 bsl 64) + (1 bsl 11) + 1,
                                -(1 bsl 80) - 1, fact(25), fact(100)]] end),
    t(float_arith_huge, fun() -> id(1 bsl 1024) + 1.0 end),
    t(float_mul_huge, fun() -> id(1 bsl 1024) * 0.5 end),
    t(float_sub_huge, fun() -> 1.0 - id(1 bsl 1100) end),
    t(round_1e300, fun() -> fp(round(id(1.0e300))) end),
    t(trunc_1e300, fun() -> fp(trunc(id(-1.0e300))) end),
    t(round_max, fun() -> round(id(1.7976931348623157e308)) =:= (1 bsl 1024) - (1 bsl 971) end),
    t(ceil_floor_huge, fun() -> {ceil(id(1.0e20)), floor(id(-1.0e20)), ceil(id(-1.0e25)), floor(id(4.5e18))} end),
    t(trunc_boundary, fun() -> [trunc(id(X)) || X <- [576460752303423487.0, 576460752303423488.0,
                                -576460752303423488.0, 9.2233720368547758e18, -9.2233720368547758e18,
                                1.8446744073709552e19, 4611686018427387904.0, -4611686018427387904.0]] end),
    t(round_half, fun() -> [round(id(X)) || X <- [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994,
                                                   4503599627370495.5, -4503599627370495.5]] end),
    t(ceil_floor_small, fun() -> [{ceil(id(X)), floor(id(X)), trunc(id(X)), round(id(X))}
                                  || X <- [0.0, -0.0, 0.1, -0.1, 0.9, -0.9, 1.0e-300, -1.0e-300]] end),
    t(round_int, fun() -> {round(id(1 bsl 100)), trunc(id(-7)), ceil(id(5)), floor(id(-(1 bsl 70)))} end),
    t(round_atom, fun() -> round(id(a)) end),
    t(trunc_list, fun() -> trunc(id("1")) end),
    t(float_atom, fun() -> float(id(a)) end),
    t(abs_values, fun() -> [abs(id(X)) || X <- [-(1 bsl 59), -(1 bsl 59) - 1, (1 bsl 59) - 1, -(1 bsl 64), -fact(30)]] end),
    t(abs_atom, fun() -> abs(id(a)) end).

main() ->
    grid(),
    unary(),
    huge(),
    big_shifts(),
    bitwise_neg(),
    bases(),
    mixed_compare(),
    to_from_float(),
    ok.

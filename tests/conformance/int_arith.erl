%% Integer arithmetic on small integers and bignums, across the 60-bit small boundary.
-module(int_arith).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

pow(_, 0) -> 1;
pow(B, E) -> B * pow(B, E - 1).

main() ->
    A = id(7), B = id(-3), Big = id(1 bsl 70), Max = id((1 bsl 59) - 1), Min = id(-(1 bsl 59)),
    t(add, fun() -> A + B end),
    t(sub, fun() -> A - B end),
    t(mul, fun() -> A * B end),
    t(div_pos, fun() -> A div 2 end),
    t(div_neg, fun() -> B div 2 end),
    t(div_negneg, fun() -> -7 div id(-2) end),
    t(rem_pos, fun() -> A rem 3 end),
    t(rem_neg, fun() -> B rem 2 end),
    t(rem_neg_divisor, fun() -> A rem id(-4) end),
    t(unary_minus, fun() -> -A end),
    t(small_max_plus_1, fun() -> Max + 1 end),
    t(small_min_minus_1, fun() -> Min - 1 end),
    t(small_max_times_2, fun() -> Max * 2 end),
    t(small_min_negate, fun() -> -Min end),
    t(back_to_small, fun() -> (Max + 1) - 1 end),
    t(big_add, fun() -> Big + Big end),
    t(big_sub_to_zero, fun() -> Big - Big end),
    t(big_mul, fun() -> Big * Big end),
    t(big_mul_neg, fun() -> Big * B end),
    t(big_div, fun() -> (Big * Big + 12345) div Big end),
    t(big_rem, fun() -> (Big * Big + 12345) rem Big end),
    t(big_div_neg, fun() -> -(Big * 3 + 1) div Big end),
    t(big_rem_neg, fun() -> -(Big * 3 + 1) rem Big end),
    t(big_div_small, fun() -> fact(30) div 7 end),
    t(fact_20, fun() -> fact(20) end),
    t(fact_100, fun() -> fact(100) end),
    t(pow_2_200, fun() -> pow(2, 200) end),
    t(pow_neg3_101, fun() -> pow(-3, 101) end),
    t(pow_2_200_minus, fun() -> pow(2, 200) - pow(2, 199) end),
    t(fact_div, fun() -> fact(100) div fact(98) end),
    t(abs_neg, fun() -> abs(B) end),
    t(abs_big, fun() -> abs(-Big) end),
    t(abs_min, fun() -> abs(Min) end),
    t(max_int, fun() -> max(A, Big) end),
    t(min_int, fun() -> min(B, -Big) end),
    t(cmp_lt, fun() -> {A < B, B < A, Big > Max, -Big < Min} end),
    t(cmp_eq, fun() -> {A == 7, Big =:= 1 bsl 70, Big =/= Big + 0, Big == Big * 1} end),
    t(cmp_big_small, fun() -> {Max + 1 > Max, Min - 1 < Min, Big >= Big, Big =< Big - 1} end),
    t(div_zero, fun() -> A div id(0) end),
    t(rem_zero, fun() -> A rem id(0) end),
    t(big_div_zero, fun() -> Big div id(0) end),
    t(add_atom, fun() -> A + id(foo) end),
    t(mul_list, fun() -> id([1]) * 2 end),
    t(neg_atom, fun() -> -id(foo) end),
    t(sum_loop, fun() -> lists:foldl(fun(X, Acc) -> X * X + Acc end, 0, lists:seq(1, 1000)) end),
    t(product_loop, fun() -> lists:foldl(fun(X, Acc) -> X * Acc end, 1, lists:seq(1, 40)) end),
    t(big_to_list_len, fun() -> length(integer_to_list(fact(100))) end),
    ok.

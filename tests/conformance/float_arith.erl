%% Float arithmetic, conversions, rounding, printing and mixed int/float comparison.
-module(float_arith).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    X = id(2.5), Y = id(-0.75), I = id(3), Big = id(1 bsl 80),
    t(add, fun() -> X + Y end),
    t(sub, fun() -> X - Y end),
    t(mul, fun() -> X * Y end),
    t(fdiv, fun() -> X / Y end),
    t(int_fdiv, fun() -> I / 2 end),
    t(int_fdiv_exact, fun() -> id(6) / 3 end),
    t(mixed_add, fun() -> I + X end),
    t(mixed_mul_big, fun() -> Big * 0.5 end),
    t(neg, fun() -> -X end),
    t(float_of_int, fun() -> float(I) end),
    t(float_of_big, fun() -> float(Big) end),
    t(float_of_float, fun() -> float(X) end),
    t(float_of_atom, fun() -> float(id(a)) end),
    t(trunc, fun() -> {trunc(X), trunc(Y), trunc(id(-2.9)), trunc(id(1.0e20))} end),
    t(round, fun() -> {round(X), round(id(-2.5)), round(id(0.49999)), round(id(3.5))} end),
    t(ceil_floor, fun() -> {ceil(id(1.1)), floor(id(1.9)), ceil(id(-1.1)), floor(id(-1.1))} end),
    t(abs, fun() -> {abs(Y), abs(id(-0.0))} end),
    t(fdiv_zero, fun() -> X / id(0) end),
    t(fdiv_zero_float, fun() -> X / id(0.0) end),
    t(overflow, fun() -> id(1.0e308) * 10 end),
    t(add_atom, fun() -> X + id(b) end),
    t(small_values, fun() -> {id(1.0e-300) * 1.0e-10, id(5.0e-324)} end),
    t(precision, fun() -> {0.1 + id(0.2), 1 / id(3)} end),
    t(ftl_default, fun() -> float_to_list(id(0.1)) end),
    t(ftl_decimals, fun() -> float_to_list(id(3.14159), [{decimals, 2}]) end),
    t(ftl_compact, fun() -> float_to_list(id(1.5), [{decimals, 4}, compact]) end),
    t(ftl_scientific, fun() -> float_to_list(id(12345.678), [{scientific, 3}]) end),
    t(ftl_short, fun() -> float_to_list(id(0.1), [short]) end),
    t(ftb, fun() -> float_to_binary(id(-2.0), [{decimals, 1}]) end),
    t(cmp_int_float, fun() -> {I == 3.0, I =:= 3.0, I < 3.5, 4 > id(3.99), I =/= 3.0, I /= 3.0} end),
    t(cmp_big_float, fun() -> {Big == float(Big), Big < 1.0e30, Big > 1.0e20} end),
    t(cmp_order, fun() -> {1 < 1.0, 1.0 < 1, max(1, 1.0), min(1, 1.0), max(1.0, 1)} end),
    t(zero_cmp, fun() -> {0.0 == -0.0, 0.0 =:= -0.0, 0 == 0.0} end),
    t(math, fun() -> {math:sqrt(16), math:pow(2, 10), math:pi(), math:exp(0)} end),
    t(math_trig, fun() -> {math:sin(0.0), math:cos(0.0), math:atan2(1.0, 1.0)} end),
    t(math_log, fun() -> {math:log(1.0), math:log2(1024), math:log10(1000)} end),
    t(sqrt_neg, fun() -> math:sqrt(id(-1)) end),
    t(sum, fun() -> lists:foldl(fun(K, A) -> A + 1 / K end, 0.0, lists:seq(1, 1000)) end),
    t(is_float, fun() -> {is_float(X), is_float(I), is_number(X), is_integer(trunc(X))} end),
    ok.

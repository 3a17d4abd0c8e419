%% Floats as OTP 25 handles them: no NaN or infinity (badarith), -0.0 against 0.0 in
%% comparison, matching and sorting, float_to_list/binary with every option, list_to_float
%% and binary_to_float, shortest round-trip printing as io_lib uses it, the interpreter's float
%% instructions (fadd ... fconv) on -0.0 and overflow, and math's domain errors.
%% Results that are floats are shown as their shortest text (exact: distinct doubles never
%% share it) since erlang:display prints only 7 significant digits.
-module(num_float).
-export([main/0, id/1]).

id(X) -> X.

s(X) when is_float(X) -> float_to_list(X, [short]);
s(X) when is_tuple(X) -> list_to_tuple(s(tuple_to_list(X)));
s(X) when is_list(X) -> [s(E) || E <- X];
s(X) -> X.

t(Label, F) -> erlang:display({Label, try s(F()) catch C:R -> {C, R} end}).

from_bits(N) -> <<F:64/float>> = <<(N band 16#7FEFFFFFFFFFFFFF):64>>, F.

%% The result of F, or the error it raises, for one cell of a table.
r(F) -> try F() catch C:R -> {C, R} end.

edge_values() ->
    [0.0, -0.0, 5.0e-324, -5.0e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
     1.7976931348623157e308, -1.7976931348623157e308, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, -1 / 3,
     0.5, 1.5, 2.5, 0.125, 0.375, 1.0, -1.0, 10.0, 100.0, 1000.0, 123456.0, 1.0e15, 1.0e16,
     1.0e17, 9007199254740992.0, 9007199254740993.0, 1.0e21, 1.0e22, 1.0e23, 1.0e-5, 1.0e-4,
     0.001, 123.456, -987654.321, 3.141592653589793, 2.718281828459045, 1.0e100, 1.0e-100,
     4.35, 0.045, 5.0e-5, 1.2345e-7, 299792458.0, 6.02214076e23].

short_printing() ->
    [erlang:display({short, float_to_list(X, [short]), float_to_binary(X, [short]),
                     list_to_float(float_to_list(X, [short])) =:= X})
     || X <- edge_values()],
    t(short_roundtrip_bits, fun() ->
        Xs = [from_bits(N * 16#0123456789ABCD + 16#3F0) || N <- lists:seq(0, 200)] ++
             [from_bits(N * 16#0FEDCBA987654321 + 16#3FF0000000000000) || N <- lists:seq(0, 300)],
        lists:all(fun(X) -> list_to_float(float_to_list(X, [short])) =:= X end, Xs)
    end).

default_and_scientific() ->
    [erlang:display({default, float_to_list(X), float_to_binary(X)}) || X <- edge_values()],
    Sci = [0, 1, 2, 5, 10, 16, 17, 20, 30, 60],
    Vs = [0.0, -0.0, 5.0e-324, 1.7976931348623157e308, 0.1, 1 / 3, 2.5, 9.5, 0.125, 1.0e21, -123.456],
    [erlang:display({scientific, X, [r(fun() -> float_to_list(X, [{scientific, N}]) end) || N <- Sci]})
     || X <- Vs],
    t(sci_max, fun() -> length(float_to_list(1.0, [{scientific, 249}])) end),
    t(sci_too_many, fun() -> float_to_list(1.0, [{scientific, 250}]) end),
    t(sci_negative, fun() -> [r(fun() -> float_to_list(1.5, [{scientific, N}]) end)
                              || N <- [-1, -5, -1000, -(1 bsl 62)]] end),
    t(sci_compact, fun() -> float_to_list(1.5, [{scientific, 5}, compact]) end),
    t(sci_binary, fun() -> float_to_binary(1 / 3, [{scientific, 3}]) end).

decimals() ->
    Ds = [0, 1, 2, 3, 5, 10, 17, 18, 19, 20, 25, 40],
    Vs = [0.0, -0.0, 5.0e-324, 0.1, 1 / 3, 2 / 3, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1.005,
          2.675, 0.045, 1.0e15, 1.0e20, 123456789.987654321, -0.0001, 9.999999, 1.0e-10],
    [erlang:display({decimals, X, [r(fun() -> float_to_list(X, [{decimals, N}]) end) || N <- Ds]})
     || X <- Vs],
    [erlang:display({compact, X, [r(fun() -> float_to_list(X, [{decimals, N}, compact]) end) || N <- Ds]})
     || X <- Vs],
    t(dec_max, fun() -> length(float_to_list(1.0, [{decimals, 253}])) end),
    t(dec_too_many, fun() -> float_to_list(1.0, [{decimals, 254}]) end),
    t(dec_huge_value, fun() -> float_to_list(1.0e300, [{decimals, 2}]) end),
    t(dec_max_value, fun() -> float_to_list(1.7976931348623157e308, [{decimals, 0}]) end),
    t(dec_big_value, fun() -> float_to_list(1.0e200, [{decimals, 0}]) end),
    t(dec_long_fraction, fun() -> float_to_list(0.1, [{decimals, 60}]) end),
    t(dec_denormal, fun() -> float_to_list(5.0e-324, [{decimals, 253}]) end),
    t(text_limits, fun() -> [r(fun() -> length(float_to_list(X, [{decimals, D}])) end)
                             || {X, D} <- [{1.0e254, 0}, {1.0e255, 0}, {1.0e253, 1}, {1.0e252, 1},
                                           {-1.0e253, 0}, {-1.0e254, 0}, {1.0e252, 2}, {0.5, 253},
                                           {-0.5, 253}, {-0.5, 252}, {10.5, 252}]] end),
    t(sci_limits, fun() -> [r(fun() -> length(float_to_list(X, [{scientific, D}])) end)
                            || {X, D} <- [{1.5, 249}, {-1.5, 249}, {-1.5, 248}, {1.5e100, 249},
                                          {1.5e100, 248}, {-1.5e-100, 248}]] end),
    %% printf takes over at 2^53; its compact strips zeros from the integer part too.
    t(compact_at_2_53, fun() -> [float_to_list(X, [{decimals, D}, compact])
                                 || X <- [9007199254740990.0, 9007199254741000.0, 1.0e16, 1.0e22,
                                          123456789012345680.0, 4503599627370497.0],
                                    D <- [0, 1, 18, 19]] end),
    t(decimals_17_18, fun() -> [float_to_list(X, [{decimals, D}]) || X <- [1.0e-17, 5.0e-18, 4.9e-18,
                                -5.0e-19, 0.999999999999999999, 0.9999999999999999, 12345.678901234567],
                                D <- [15, 16, 17, 18]] end),
    t(decimals_carry, fun() -> [float_to_list(X, [{decimals, D}]) || {X, D} <- [{9.5, 0}, {99.95, 1},
                                {-0.5, 0}, {0.5, 0}, {-1.5, 0}, {999999.9999999, 3}, {0.05, 1}, {0.15, 1},
                                {0.25, 1}, {0.35, 1}, {1.0e-5, 4}, {-1.0e-5, 4}, {-5.0e-5, 4}]] end),
    t(dec_binary, fun() -> float_to_binary(-1.25, [{decimals, 1}]) end),
    t(dec_compact_first, fun() -> float_to_list(1.5, [compact, {decimals, 3}]) end),
    t(dec_compact_zero, fun() -> {float_to_list(0.0, [{decimals, 3}, compact]),
                                  float_to_list(-0.0, [{decimals, 3}, compact]),
                                  float_to_list(100.0, [{decimals, 0}, compact])} end),
    t(last_option_wins, fun() -> {float_to_list(1.5, [{decimals, 2}, {scientific, 2}]),
                                  float_to_list(1.5, [{scientific, 2}, {decimals, 2}]),
                                  float_to_list(1.5, [short, {decimals, 2}]),
                                  float_to_list(1.5, [{decimals, 2}, short])} end),
    t(short_compact, fun() -> float_to_list(1.5, [short, compact]) end),
    Bad = [[{decimals, -1}], [{decimals, a}], [{decimals, 1.0}], [foo], [{short}], [short | compact],
           {decimals, 2}, [{decimals, 1 bsl 70}], [{scientific, 2, 3}], [{precision, 2}]],
    [t({bad_option, B}, fun() -> float_to_list(1.0, B) end) || B <- Bad],
    t(ftl_int, fun() -> float_to_list(id(1)) end),
    t(ftl_int_opts, fun() -> float_to_list(id(1), [short]) end),
    t(ftb_atom, fun() -> float_to_binary(id(a)) end).

parsing() ->
    Good = ["0.0", "-0.0", "+1.5", "1.0e5", "1.0E5", "1.0e+5", "1.0e-5", "1.5e0", "00012.500",
            "1.0e308", "1.7976931348623157e308", "1.7976931348623158e308", "4.9e-324", "2.0e-324",
            "1.0e-400", "-1.0e-400", "0.1e1", "123456789012345678901234567890.5",
            "0.30000000000000004", "2.2250738585072011e-308", "9007199254740993.0",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.0e0000000000000000000000005", "0.000000000000000000000000000000001e33"],
    [t({ltf, S}, fun() -> {list_to_float(S), binary_to_float(list_to_binary(S))} end) || S <- Good],
    Bad = ["", "1", "1.", ".5", "1e5", "1.e5", "1.0e", "1.0e+", "-", "+", "--1.0", " 1.0",
           "1.0 ", "1.0f", "1,0", "inf", "nan", "infinity", "1.0e309", "-1.0e309", "1.8e308",
           "0x1.0p3", "1.0e5.0", "1..0", "1.0ee5", "٣.0", "1.0e1000000000000"],
    [t({ltf_bad, S}, fun() -> list_to_float(S) end) || S <- Bad],
    [t({btf_bad, S}, fun() -> binary_to_float(unicode:characters_to_binary(S)) end) || S <- Bad],
    t(ltf_comma, fun() -> [r(fun() -> list_to_float(S) end) || S <- ["1,5", "-1,5e3", "1,5,0", "1.5,0",
                                                                     ",5", "1,", "0,000001E-2"]] end),
    t(btf_comma, fun() -> [r(fun() -> binary_to_float(S) end) || S <- [<<"1,5">>, <<"+2,25e-1">>, <<"1,e1">>]] end),
    t(ltf_nul, fun() -> [r(fun() -> list_to_float(S) end) || S <- [[$1, $., $0, 0], [$1, $., $0, 0, $x],
                                                                   [$1, 0, $., $0], [0], [$1, $., $5, $e, 0, $1]]] end),
    t(btf_nul, fun() -> [r(fun() -> binary_to_float(S) end) || S <- [<<"1.0", 0>>, <<"2.5", 0, "junk">>, <<0, "1.0">>]] end),
    t(ltf_not_list, fun() -> list_to_float(id(<<"1.0">>)) end),
    t(ltf_improper, fun() -> list_to_float(id([$1, $., $0 | $0])) end),
    t(btf_not_bin, fun() -> binary_to_float(id("1.0")) end),
    t(btf_bits, fun() -> binary_to_float(id(<<"1.0", 1:3>>)) end),
    t(ltf_atom, fun() -> list_to_float(id('1.0')) end),
    t(string_to_float, fun() -> {string:to_float("1.5abc"), string:to_float("1e5"),
                                 string:to_float("-2.5e-3 rest"), string:to_float("x")} end).

%% -0.0: equal to 0.0 under == and =:= in OTP 25, matched by a 0.0 pattern (and vice versa),
%% yet a distinct value for printing, division and term_to_binary.
negative_zero() ->
    Z = id(-0.0), P = id(0.0),
    t(eq, fun() -> {Z =:= P, Z == P, Z =/= P, Z /= P, Z < P, Z > P, Z =< P, Z == 0, Z =:= 0} end),
    t(case_pos, fun() -> case Z of 0.0 -> pos_clause; _ -> other end end),
    t(case_neg, fun() -> case P of -0.0 -> neg_clause; _ -> other end end),
    t(fun_head, fun() -> F = fun(0.0) -> zero; (_) -> nonzero end, {F(Z), F(P)} end),
    t(guard, fun() -> if Z == 0 -> eq_int; true -> ne end end),
    t(guard_exact, fun() -> if Z =:= 0.0 -> eq_float; true -> ne end end),
    t(sort, fun() -> {lists:sort([P, Z, 0, -0.0, 0.0]), lists:sort([Z, P]), lists:usort([Z, P]),
                      lists:usort([P, Z])} end),
    t(sort_signs, fun() -> [float_to_list(X, [short]) || X <- lists:sort([P, Z, P, Z])] end),
    t(max_min, fun() -> [float_to_list(X, [short]) || X <- [max(Z, P), max(P, Z), min(Z, P), min(P, Z)]] end),
    t(map_key, fun() -> {maps:get(Z, #{P => a}, none), map_size(#{P => a, Z => b})} end),
    t(map_key_sign, fun() -> [float_to_list(K, [short]) || K <- maps:keys(#{Z => a})] end),
    t(t2b, fun() -> {term_to_binary(Z), term_to_binary(P), binary_to_term(term_to_binary(Z))} end),
    t(bits, fun() -> {<<Z/float>>, <<P/float>>, <<Z:32/float>>} end),
    t(match_bits, fun() -> <<F/float>> = <<Z/float>>, float_to_list(F, [short]) end),
    t(division, fun() -> {1.0 / id(1.0e308) / 1.0e308, -1.0 / id(1.0e308) / 1.0e308} end),
    t(div_by_negzero, fun() -> 1.0 / Z end),
    t(div_by_zero_int, fun() -> 1 / id(0) end),
    t(zero_div_zero, fun() -> P / Z end),
    t(arith, fun() -> {Z + Z, Z + P, P + Z, Z - P, P - P, Z * P, Z * -1.0, -Z, 0 - P, Z * 5, 0 * Z,
                       Z + 0, 0 + Z, Z - 0} end),
    t(neg_of_zero, fun() -> {-P, -(-P), -id(0), abs(Z), abs(-P)} end),
    t(conversions, fun() -> {trunc(Z), round(Z), ceil(Z), floor(Z), float(0), float(-0)} end),
    t(underflow_sign, fun() -> {-1.0e-200 * 1.0e-200, 1.0e-200 * -1.0e-200, -5.0e-324 / 2} end),
    t(text, fun() -> {float_to_list(Z), float_to_list(Z, [{decimals, 2}]),
                      float_to_list(Z, [{scientific, 2}]), float_to_list(-1.0e-20, [{decimals, 3}]),
                      float_to_list(-0.004, [{decimals, 2}]), float_to_list(-0.006, [{decimals, 2}])} end),
    t(parse, fun() -> [float_to_list(X, [short]) || X <- [list_to_float("-0.0"), binary_to_float(<<"-0.0e5">>)]] end),
    t(display, fun() -> erlang:display(Z), erlang:display(P), ok end).

%% No NaN or infinity: every operation that would produce one raises badarith.
non_finite() ->
    Max = id(1.7976931348623157e308),
    t(mul_overflow, fun() -> Max * 2 end),
    t(add_overflow, fun() -> Max + Max end),
    t(sub_overflow, fun() -> -Max - Max end),
    t(div_overflow, fun() -> Max / 0.5 end),
    t(int_overflow, fun() -> Max * (1 bsl 100) end),
    t(big_int_plus_float, fun() -> (1 bsl 1100) + 1.0 end),
    t(just_fits, fun() -> {Max + 1.0e292, Max - 1.0, Max * 1.0} end),
    t(rounds_to_max, fun() -> Max + 9.0e291 end),
    t(underflow, fun() -> {id(5.0e-324) / 2, id(5.0e-324) * 0.5, id(1.0e-308) / 1.0e10, id(1.0e-200) * 1.0e-200} end),
    t(denormal_arith, fun() -> {id(5.0e-324) * 3, id(2.2250738585072014e-308) / 4, id(5.0e-324) + 5.0e-324} end),
    t(div_zero_float, fun() -> id(1.0) / 0.0 end),
    t(div_zero_int, fun() -> id(0) / 0 end),
    t(fzero_div, fun() -> id(0.0) / 0.0 end),
    t(inf_via_pow, fun() -> math:pow(10.0, 400) end),
    t(float_huge_int, fun() -> float(id(1 bsl 1024)) end).

%% The compiler emits fadd/fsub/fmul/fdiv/fnegate/fconv when it knows the operands are floats;
%% these functions make it do so.
fadd(X, Y) when is_float(X), is_float(Y) -> X + Y.
fsub(X, Y) when is_float(X), is_float(Y) -> X - Y.
fmul(X, Y) when is_float(X), is_float(Y) -> X * Y.
fdiv(X, Y) when is_float(X), is_float(Y) -> X / Y.
fneg(X) when is_float(X) -> -X.
fconv(X, I) when is_float(X), is_integer(I) -> X * I.
fconv_add(X, I) when is_float(X) -> X + I + 0.0.
fchain(X, Y, Z) when is_float(X), is_float(Y), is_float(Z) -> (X * Y + Z) / (X - Y).

float_instructions() ->
    Z = id(-0.0), P = id(0.0), Max = id(1.7976931348623157e308),
    t(fadd, fun() -> {fadd(1.5, 2.25), fadd(Z, Z), fadd(Z, P), fadd(P, Z), fadd(0.1, 0.2)} end),
    t(fadd_overflow, fun() -> fadd(Max, Max) end),
    t(fsub, fun() -> {fsub(1.5, 2.25), fsub(Z, P), fsub(P, P), fsub(Z, Z), fsub(P, Z)} end),
    t(fsub_overflow, fun() -> fsub(-Max, Max) end),
    t(fmul, fun() -> {fmul(1.5, -2.0), fmul(Z, 3.0), fmul(Z, Z), fmul(P, -1.0), fmul(1.0e-200, 1.0e-200)} end),
    t(fmul_overflow, fun() -> fmul(Max, 1.5) end),
    t(fdiv, fun() -> {fdiv(1.0, 3.0), fdiv(Z, 2.0), fdiv(P, -2.0), fdiv(-1.0, 1.0e308)} end),
    t(fdiv_zero, fun() -> fdiv(1.0, P) end),
    t(fdiv_negzero, fun() -> fdiv(1.0, Z) end),
    t(fdiv_zero_zero, fun() -> fdiv(P, P) end),
    t(fdiv_overflow, fun() -> fdiv(Max, 0.1) end),
    t(fnegate, fun() -> {fneg(P), fneg(Z), fneg(1.5), fneg(-Max)} end),
    t(fconv, fun() -> {fconv(1.5, 2), fconv(Z, 0), fconv(P, -1), fconv(0.5, 1 bsl 70), fconv(1.0, -(1 bsl 1000))} end),
    t(fconv_huge, fun() -> fconv(1.0, 1 bsl 1024) end),
    t(fconv_inexact, fun() -> fconv(1.0, (1 bsl 60) + 1) end),
    t(fconv_bad, fun() -> fconv_add(1.0, a) end),
    t(fconv_add, fun() -> {fconv_add(Z, 0), fconv_add(1.0, 1 bsl 80)} end),
    t(fchain, fun() -> fchain(2.0, 3.0, 4.0) end),
    t(fchain_zero, fun() -> fchain(1.0, 1.0, 1.0) end),
    t(fchain_overflow, fun() -> fchain(Max, 2.0, 1.0) end),
    t(fchain_nan, fun() -> fchain(P, P, P) end),
    t(loop, fun() -> lists:foldl(fun(K, Acc) when is_float(Acc) -> Acc * 1.5 - K / 7 end, 1.0, lists:seq(1, 50)) end).

%% io_lib's float formatting runs from OTP's own beams on top of float_to_list/2.
io_formatting() ->
    F = fun(Fmt, Args) -> lists:flatten(io_lib:format(Fmt, Args)) end,
    Vs = [0.0, -0.0, 0.1, 1 / 3, 1.0e-10, 123456.789, 1.0e21, 5.0e-324, 1.7976931348623157e308,
          -2.5, 100.0, 9007199254740993.0, 0.045],
    [erlang:display({io, X, F("~p ~w ~f ~e ~g", [X, X, X, X, X])}) || X <- Vs],
    [erlang:display({io_prec, X, F("~.3f ~.1f ~.3e ~.10e ~.2g ~.12g ~12.4f| ~-12.2e|", [X, X, X, X, X, X, X, X])})
     || X <- Vs, abs(X) < 1.0e100],
    t(io_list, fun() -> F("~p", [[1.5, 0.1, -0.0, {2.0e-7}]]) end),
    t(io_tilde_s, fun() -> F("~s", [float_to_list(0.1, [short])]) end),
    t(io_width, fun() -> F("~10.3f|~-10.3f|~.3.0f", [3.14159, 3.14159, 2.5]) end),
    t(io_integer_float, fun() -> F("~p ~w", [1 bsl 70, -(1 bsl 70)]) end),
    t(io_lib_write, fun() -> lists:flatten(io_lib:write([0.1, 1.0e100])) end),
    t(io_print, fun() -> lists:flatten(io_lib:print({1.0e-5, 2.5, [3.0]})) end),
    t(mochinum_like, fun() -> [lists:flatten(io_lib:format("~w", [X])) || X <- edge_values()] end).

%% math: arguments that are not numbers are badarg; results that would be NaN or infinite are
%% badarith.
math_fns() ->
    One = [sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh, exp, log,
           log2, log10, sqrt, erf, erfc, floor, ceil],
    Args = [0, 0.0, -0.0, 1, -1, 0.5, 2, -2.5, 100, 1000, 1.0e300, -1.0e300, 5.0e-324, 1 bsl 70],
    [erlang:display({math, Fn, [s(r(fun() -> math:Fn(A) end)) || A <- Args]}) || Fn <- One],
    [erlang:display({math_bad, Fn, r(fun() -> math:Fn(id(a)) end)}) || Fn <- One],
    [erlang:display({math_huge, Fn, r(fun() -> math:Fn(id(1 bsl 1100)) end)}) || Fn <- One],
    Two = [{2.0, 10}, {2, 0.5}, {-8.0, 1 / 3}, {0.0, -1}, {-0.0, -1}, {0, 0}, {10.0, 400},
           {-2.0, 3}, {1.0e-300, 10}, {1 bsl 70, 2}, {-1, 0.5}, {0.0, 0.0}, {5.0, -0.0}],
    [erlang:display({math2, A, B, [s(r(fun() -> math:Fn(A, B) end)) || Fn <- [pow, atan2, fmod]]})
     || {A, B} <- Two],
    t(math2_bad, fun() -> [r(fun() -> math:Fn(id(a), 1) end) || Fn <- [pow, atan2, fmod]] end),
    t(math2_huge, fun() -> [r(fun() -> math:Fn(1.0, id(1 bsl 1100)) end) || Fn <- [pow, atan2, fmod]] end),
    t(pi, fun() -> math:pi() end),
    t(math_list_arg, fun() -> math:sqrt(id("4")) end).

main() ->
    short_printing(),
    default_and_scientific(),
    decimals(),
    parsing(),
    negative_zero(),
    non_finite(),
    float_instructions(),
    io_formatting(),
    math_fns(),
    ok.

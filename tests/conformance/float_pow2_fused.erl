%% The float superinstructions (fload_fadd/fsub/fmul/fdiv, fload2, fstore2, test_heap_fstore in
%% loader/superinstructions.cpp; fmix/2 and orbit/5 compile to them) and div/rem by a literal
%% power of two (int_div_pow2, int_rem_pow2): results that overflow to infinity or divide by
%% zero (badarith), heaps that fill mid-loop, and div/rem of negative, boundary, big and
%% non-integer dividends against the BIF's results and errors.
-module(float_pow2_fused).
-export([main/0]).

%% Each body compiles to fmove/fmul/fadd... runs the loader fuses.
mix(X, Y) ->
    A = X * Y,
    B = X + Y,
    C = X - Y,
    D = X / Y,
    {A, B, C, D, A * B + C / D}.

%% A Mandelbrot-style loop: floats boxed and unboxed at every step, the heap filling up.
orbit(Zr, Zi, _Cr, _Ci, 0) -> {Zr, Zi};
orbit(Zr, Zi, Cr, Ci, N) ->
    Zr2 = Zr * Zr,
    Zi2 = Zi * Zi,
    if
        Zr2 + Zi2 > 4.0 -> {escaped, N};
        true -> orbit(Zr2 - Zi2 + Cr, 2.0 * Zr * Zi + Ci, Cr, Ci, N - 1)
    end.

norm({X, Y, Z}) -> math:sqrt(X * X + Y * Y + Z * Z).

%% mix/2 above also takes integers, so erlc compiles it to generic arithmetic; called with
%% floats only, these compile to float registers, the code the float superinstructions fuse.
fmix(X, Y) when is_float(X), is_float(Y) -> {fmix_(X, Y), X * Y - 1.5, X * Y / 2.5}.
fmix_(X, Y) ->
    A = X * Y,
    B = X + Y,
    C = X - Y,
    D = X / Y,
    {A, B, C, D, A * B + C / D}.

d2(X) -> X div 2.
r2(X) -> X rem 2.
d8(X) -> X div 8.
r8(X) -> X rem 8.
d32(X) -> X div 4294967296.
r32(X) -> X rem 4294967296.
d1(X) -> X div 1.

reason(F) ->
    try F() catch error:R -> {error, R} end.

main() ->
    Xs = [0.5, -1.25, 3, -4, 1.0e-300, 2.0],
    io:format("~p~n", [[mix(X, Y) || X <- Xs, Y <- [2.0, 0.25, -3]]]),
    io:format("~p~n", [[reason(fun() -> mix(X, Y) end) || {X, Y} <- [{1.0e308, 1.0e308}, {a, 1.0}, {1.0, 0.0}, {1, 0}]]]),
    io:format("~p~n", [[orbit(0.0, 0.0, Cr, Ci, 200) || Cr <- [-1.5, -0.5, 0.25, 0.3], Ci <- [-0.5, 0.0, 0.7]]]),
    io:format("~p~n", [[norm(V) || V <- [{1.0, 2.0, 2.0}, {3, 4, 0}, {1.0e150, 1.0e150, 0.0}]]]),
    io:format("~p~n", [[reason(fun() -> fmix(X, Y) end) || X <- [0.5, -1.25, 1.0e308, 0.0], Y <- [2.0, 1.0e308, 0.0, -0.0]]]),
    io:format("~p~n", [reason(fun() -> norm({1.0e300, 1.0e300, 1.0}) end)]),
    %% Many boxed floats at once: collections between the fused instructions.
    L = [mix(float(I), 1.5) || I <- lists:seq(1, 20000)],
    io:format("~p~n", [{length(L), lists:last(L)}]),
    Max = (1 bsl 59) - 1, Min = -(1 bsl 59),
    Ns = [0, 1, -1, 7, -7, 8, -8, 9, -9, 1023, -1023, Max, Min, Max + 1, Min - 1, 1 bsl 70, -(1 bsl 70)],
    io:format("~p~n", [[{d2(N), r2(N), d8(N), r8(N), d32(N), r32(N), d1(N)} || N <- Ns]]),
    io:format("~p~n", [[reason(fun() -> F(V) end) || F <- [fun d2/1, fun r8/1, fun d32/1], V <- [a, 1.5, "x", 2.0]]]).

%% == and /= in guards and case clauses, between registers and against constants, over values
%% of every kind: small and big integers, floats of the same value, atoms, lists, tuples,
%% binaries, maps, pids and references (is_eq and is_ne decide identical words and pairs of
%% immediates inline, the rest by full comparison).
-module(equality_guards).
-export([main/0]).

values() ->
    [0, 1, -1, 0.0, -0.0, 1.0, a, b, [], [1], [1.0], {}, {1}, {1.0}, <<>>, <<1>>, self(), make_ref(), 1 bsl 70,
     float(1 bsl 70), 576460752303423487, 576460752303423488, 576460752303423488.0, #{}, #{a => 1},
     #{a => 1.0}, "a"].

eq(A, B) when A == B -> 1;
eq(_, _) -> 0.
ne(A, B) when A /= B -> 1;
ne(_, _) -> 0.
%% A guard that goes on after /= keeps it an is_ne (alone, the compiler turns it into is_eq).
ne_then(A, B) when A /= B, B =/= '$never' -> 1;
ne_then(_, _) -> 0.
%% Against constants that are not immediates: a float, a big integer, a tuple literal.
eq_boxed(A) when A == 1.0; A == 576460752303423488; A == {1} -> 1;
eq_boxed(_) -> 0.
ne_float(A) when A /= 1.0 -> 1;
ne_float(_) -> 0.

constants(A) ->
    [eq_boxed(A), ne_float(A), A == 1, A == 1.0, A == a, A == [], A == 576460752303423488, A /= 0, A /= 0.0, A /= b,
     case A of X when X /= 1 -> ne1; _ -> eq1 end].

main() ->
    Vs = values(),
    lists:foreach(fun({I, A}) ->
                          Row = [{eq(A, B), ne(A, B), ne_then(A, B)} || B <- Vs],
                          io:format("value ~w: ~w~n  ~w~n", [I, Row, constants(A)])
                  end, lists:zip(lists:seq(1, length(Vs)), Vs)).

%% Binary-trees (as in the Benchmarks Game): allocation of many short-lived trees plus one
%% long-lived tree, which is what a generational GC is built for.
-module(trees).
-export([main/0, quick/0]).

make(0) -> {nil, nil};
make(D) -> {make(D - 1), make(D - 1)}.

check({nil, nil}) -> 1;
check({L, R}) -> 1 + check(L) + check(R).

depths(D, Max, _Min, Acc) when D > Max -> lists:reverse(Acc);
depths(D, Max, Min, Acc) ->
    N = 1 bsl (Max - D + Min),
    Sum = lists:foldl(fun(_, S) -> S + check(make(D)) end, 0, lists:seq(1, N)),
    depths(D + 2, Max, Min, [{N, D, Sum} | Acc]).

run(Max) ->
    Min = 4,
    Stretch = check(make(Max + 1)),
    LongLived = make(Max),
    Results = depths(Min, Max, Min, []),
    erlang:display({trees, Max, Stretch, Results, check(LongLived)}).

main() -> run(19).
quick() -> run(12).

%% Stand-in for the hidden suite's binary-trees (bench/standins/run.sh): the Benchmarks Game's
%% form, depth 18, with {nil, nil} leaves built at every level.
-module(btrees).
-export([main/0]).
main() -> N = 18, Max = max(6, N),
    Stretch = check(make(Max + 1)),
    Long = make(Max),
    R = [iter(D, Max) || D <- lists:seq(4, Max, 2)],
    erlang:display({Stretch, R, check(Long)}).
iter(D, Max) -> Its = 1 bsl (Max - D + 4), {Its, D, sum(Its, D, 0)}.
sum(0, _, A) -> A;
sum(I, D, A) -> sum(I - 1, D, A + check(make(D))).
make(0) -> {nil, nil};
make(D) -> {make(D - 1), make(D - 1)}.
check({nil, _}) -> 1;
check({L, R}) -> 1 + check(L) + check(R).

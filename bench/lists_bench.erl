%% List library throughput: map/foldl/filter/sort/reverse over big lists, using OTP's lists.beam.
-module(lists_bench).
-export([main/0, quick/0]).

round_(Seed, Len) ->
    L = [(X * 7919 + Seed) rem 1000003 || X <- lists:seq(1, Len)],
    M = lists:map(fun(X) -> X * 3 + 1 end, L),
    F = lists:filter(fun(X) -> X band 1 =:= 0 end, M),
    S = lists:sort(F),
    R = lists:reverse(S),
    Z = lists:zip(R, lists:seq(1, length(R))),
    lists:foldl(fun({A, B}, Acc) -> (Acc + A * B) rem 1000000007 end, 0, Z).

run(Rounds, Len) ->
    Sum = lists:foldl(fun(Seed, Acc) -> (Acc + round_(Seed, Len)) rem 1000000007 end, 0,
                      lists:seq(1, Rounds)),
    erlang:display({lists_bench, Rounds, Len, Sum}).

main() -> run(60, 200000).
quick() -> run(4, 50000).

%% Real workload (issue 29): an embarrassingly parallel map, one process per element doing
%% independent CPU work (sorting and summing a pseudo-random list built from its seed), the
%% results gathered in order. What counts is the speedup from +S 1 to +S 2.
-module(real_pmap).
-export([main/0, quick/0]).

main() -> run(32, 12000).

quick() -> run(8, 3000).

run(Tasks, Size) ->
    Results = pmap(fun(Seed) -> work(Seed, Size) end, lists:seq(1, Tasks)),
    io:format("real_pmap: ~p tasks of ~p: checksum ~p~n", [Tasks, Size, erlang:phash2(Results)]).

pmap(F, List) ->
    Self = self(),
    Refs = [begin Ref = make_ref(), spawn_link(fun() -> Self ! {Ref, F(X)} end), Ref end
            || X <- List],
    [receive {Ref, R} -> R end || Ref <- Refs].

%% A linear congruential sequence (deterministic on every VM), sorted, deduplicated and folded.
work(Seed, Size) ->
    Xs = lcg(Seed, Size, []),
    Sorted = lists:usort(Xs),
    Tree = lists:foldl(fun(X, T) -> gb_trees:enter(X rem 4096, X, T) end, gb_trees:empty(), Xs),
    {length(Sorted), lists:sum(lists:sublist(Sorted, 100)), gb_trees:size(Tree),
     lists:foldl(fun(X, A) -> (A * 31 + X) rem 1000000007 end, 0, Sorted)}.

lcg(_X, 0, Acc) -> Acc;
lcg(X, N, Acc) ->
    Y = (X * 1103515245 + 12345) band 16#7fffffff,
    lcg(Y, N - 1, [Y | Acc]).

%% Quicksort written with list comprehensions, the textbook way: each level walks the tail
%% twice (one comprehension per side) and joins the halves with ++. Calls of the
%% compiler-generated comprehension functions, small-integer comparisons, list building and
%% the garbage of a 200,000-element list sorted ten times.
-module(qsort_lc).
-export([main/0, quick/0]).

qsort([]) -> [];
qsort([P | T]) -> qsort([X || X <- T, X < P]) ++ [P] ++ qsort([X || X <- T, X >= P]).

%% A linear congruential generator kept within small integers.
randoms(0, _, Acc) -> Acc;
randoms(N, S, Acc) ->
    S1 = (S * 1103515245 + 12345) band 16#7fffffff,
    randoms(N - 1, S1, [S1 rem 1000000 | Acc]).

run(Rounds, N) ->
    L = randoms(N, 42, []),
    Sorted = lists:foldl(fun(_, _) -> qsort(L) end, [], lists:seq(1, Rounds)),
    erlang:display({qsort_lc, Rounds, N, length(Sorted), lists:sum(Sorted) rem 1000003,
                    Sorted =:= lists:sort(L)}).

main() -> run(8, 200000).
quick() -> run(1, 20000).

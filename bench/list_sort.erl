%% Sorting lists of integers: a hand-written quicksort (first element as pivot, partition
%% with two accumulators) and a top-down merge sort, both over the same pseudo-random list,
%% plus lists:sort/1 (OTP's lists.beam); the three results must agree.
-module(list_sort).
-export([main/0, quick/0]).

%% Park-Miller minimal standard generator: X * 16807 stays a small integer.
randoms(0, _, Acc) -> Acc;
randoms(N, X, Acc) ->
    X1 = X * 16807 rem 2147483647,
    randoms(N - 1, X1, [X1 rem 1000000 | Acc]).

qsort([]) -> [];
qsort([P | T]) ->
    {Lo, Hi} = partition(P, T, [], []),
    qsort(Lo) ++ [P | qsort(Hi)].

partition(_, [], Lo, Hi) -> {Lo, Hi};
partition(P, [X | T], Lo, Hi) when X < P -> partition(P, T, [X | Lo], Hi);
partition(P, [X | T], Lo, Hi) -> partition(P, T, Lo, [X | Hi]).

msort([]) -> [];
msort([_] = L) -> L;
msort(L) ->
    {A, B} = split(L, [], []),
    merge(msort(A), msort(B)).

split([], A, B) -> {A, B};
split([X | T], A, B) -> split(T, B, [X | A]).

merge([], B) -> B;
merge(A, []) -> A;
merge([X | A], [Y | _] = B) when X =< Y -> [X | merge(A, B)];
merge(A, [Y | B]) -> [Y | merge(A, B)].

%% Position-weighted sum, so a misplaced element changes it.
weigh([], _, Acc) -> Acc;
weigh([X | T], I, Acc) -> weigh(T, I + 1, (Acc + X * I) rem 1000000007).

round_(Seed, Len) ->
    L = randoms(Len, Seed, []),
    Q = qsort(L),
    M = msort(L),
    S = lists:sort(L),
    true = Q =:= S andalso M =:= S,
    weigh(S, 1, 0).

run(Rounds, Len) ->
    Sum = lists:foldl(fun(Seed, Acc) -> (Acc + round_(Seed, Len)) rem 1000000007 end, 0,
                      lists:seq(1, Rounds)),
    erlang:display({list_sort, Rounds, Len, Sum}).

main() -> run(8, 100000).
quick() -> run(2, 20000).

%% Maps: build a map of N integer keys (inserted in a scrambled order), then rounds of
%% updating every key (M#{K := V}), looking every key up (pattern match and maps:get/3 with
%% present and absent keys) and removing and re-inserting a tenth of them. Above 32 keys
%% these are hash array mapped tries.
-module(maps_bench).
-export([main/0, quick/0]).

%% A permutation of 1..N (N and the multiplier are coprime for the sizes used).
key(I, N) -> (I * 7919) rem N + 1.

insert(0, _, M) -> M;
insert(I, N, M) -> K = key(I, N), insert(I - 1, N, M#{K => I}).

update(0, _, M) -> M;
update(I, N, M) ->
    K = key(I, N),
    #{K := V} = M,
    update(I - 1, N, M#{K := V + I rem 7}).

lookup(0, _, _, Acc) -> Acc;
lookup(I, N, M, Acc) ->
    K = key(I, N),
    #{K := V} = M,
    Missing = maps:get(-K, M, 0),
    lookup(I - 1, N, M, (Acc + V + Missing) rem 1000000007).

%% Removes every tenth key, then puts it back with a new value.
churn(M, N) ->
    Ks = lists:seq(1, N, 10),
    M1 = lists:foldl(fun(K, Acc) -> maps:remove(K, Acc) end, M, Ks),
    lists:foldl(fun(K, Acc) -> Acc#{K => K} end, M1, Ks).

rounds(0, _, M, Acc) -> {M, Acc};
rounds(R, N, M, Acc) ->
    M1 = churn(update(N, N, M), N),
    rounds(R - 1, N, M1, lookup(N, N, M1, Acc)).

run(Rounds, N) ->
    {M, Sum} = rounds(Rounds, N, insert(N, N, #{}), 0),
    erlang:display({maps_bench, Rounds, N, map_size(M), Sum}).

main() -> run(5, 100000).
quick() -> run(1, 10000).

%% ordered_set against a model: thousands of seeded random inserts, deletes, replacements and
%% walks (first/next/last/prev, select chunks, slot), checked against a gb_trees model and
%% printed as the table itself so erl and beamvm must agree on the order of mixed key types.
-module(ets_ordered_model).
-export([main/0]).

key(R) ->
    case R rem 5 of
        0 -> R div 5;
        1 -> float(R div 7);
        2 -> list_to_atom("k" ++ integer_to_list(R rem 97));
        3 -> {t, R rem 53};
        4 -> integer_to_list(R rem 71)
    end.

step(T, M, 0) -> {T, M};
step(T, M, N) ->
    R = rand:uniform(100000),
    K = key(R),
    M2 = case R rem 4 of
             3 -> ets:delete(T, K), gb_delete(K, M);
             _ -> ets:insert(T, {K, N}), gb_store(K, N, M)
         end,
    step(T, M2, N - 1).

%% the model keys by ==, as ordered_set does: normalise numbers by their value
norm(K) when is_number(K) -> {num, K * 1.0};
norm(K) -> {other, K}.
gb_store(K, V, M) -> gb_trees:enter(norm(K), {K, V}, M).
gb_delete(K, M) -> gb_trees:delete_any(norm(K), M).

walk(_, '$end_of_table', _, Acc) -> lists:reverse(Acc);
walk(T, K, F, Acc) -> walk(T, ets:F(T, K), F, [K | Acc]).

chunks('$end_of_table') -> [];
chunks({L, C}) -> [length(L) | chunks(ets:select(C))].

main() ->
    rand:seed(exsss, {7, 8, 9}),
    T = ets:new(m, [ordered_set]),
    {T, M} = step(T, gb_trees:empty(), 20000),
    List = ets:tab2list(T),
    Model = [{K, V} || {_, {K, V}} <- gb_trees:to_list(M)],
    io:format("size ~p ~p~n", [ets:info(T, size), length(Model)]),
    io:format("same keys ~p~n", [[K || {K, _} <- List] == [K || {K, _} <- Model]]),
    io:format("same values ~p~n", [[V || {_, V} <- List] =:= [V || {_, V} <- Model]]),
    io:format("table ~w~n", [List]),
    Fwd = walk(T, ets:first(T), next, []),
    Back = walk(T, ets:last(T), prev, []),
    io:format("walks ~p ~p~n", [Fwd =:= [K || {K, _} <- List], lists:reverse(Back) =:= Fwd]),
    io:format("chunks ~w~n", [chunks(ets:select(T, [{'$1', [], ['$1']}], 100))]),
    io:format("reverse ~p~n", [lists:append(rchunks(ets:select_reverse(T, [{'$1', [], ['$1']}], 77)))
                                 =:= lists:reverse(List)]),
    io:format("slots ~p~n", [[ets:slot(T, I) || I <- [0, 100, 1000, ets:info(T, size) - 1]]]),
    io:format("next of absent ~p~n", [[ets:next(T, X) || X <- [-1, 0.5, 'k50x', {t, 2.5}, "zz"]]]),
    io:format("prev of absent ~p~n", [[ets:prev(T, X) || X <- [-1, 0.5, 'k50x', {t, 2.5}, "zz"]]]),
    ets:delete(T).

rchunks('$end_of_table') -> [];
rchunks({L, C}) -> [L | rchunks(ets:select_reverse(C))].

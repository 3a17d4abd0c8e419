-module(maps_merge_keys).
%% maps:merge/2, maps:keys/1, maps:values/1, maps:to_list/1 and maps:from_list/1 on flat maps (32 keys or fewer), where beamvm
%% merges the two sorted key sets in one pass and shares a key tuple when the result has
%% exactly one side's keys: overlapping and disjoint keys, 1 and 1.0 as distinct keys,
%% record-like tuple keys (as OTP's compiler uses them), results across the 32-key boundary,
%% and a key set equal to either side's. Maps above 32 keys are shown as sorted lists (their
%% printed order depends on atom hashing).
-export([main/0]).

main() ->
    Var = fun(I) -> {b_var, I} end,
    M1 = maps:from_list([{Var(I), I} || I <- lists:seq(1, 20)]),
    M2 = maps:from_list([{Var(I), -I} || I <- lists:seq(10, 30)]),
    show(overlap, maps:merge(M1, M2)),
    show(overlap_swapped, maps:merge(M2, M1)),
    show(disjoint_small, maps:merge(#{a => 1, c => 3}, #{b => 2, d => 4})),
    show(second_subset, maps:merge(M1, maps:from_list([{Var(I), x} || I <- [1, 7, 20]]))),
    show(first_subset, maps:merge(#{Var(5) => x, Var(6) => y}, M1)),
    show(same_keys, maps:merge(M1, maps:map(fun(_, V) -> V * 2 end, M1))),
    show(self, maps:merge(M1, M1) =:= M1),
    show(empty_left, maps:merge(#{}, M1) =:= M1),
    show(empty_right, maps:merge(M1, #{}) =:= M1),
    show(int_float, maps:merge(#{1 => a, 1.0 => b, 2 => c}, #{1 => x, 2.0 => y})),
    show(mixed_kinds, maps:merge(#{a => 1, 1 => 2, "s" => 3, <<"b">> => 4, {t, 1} => 5},
                                 #{[] => 6, 1 => 7, {t, 1.0} => 8, z => 9})),
    show(exactly_32, maps:merge(M1, maps:from_list([{Var(I), I} || I <- lists:seq(21, 32)]))),
    show(to_33, maps:merge(M1, maps:from_list([{Var(I), I} || I <- lists:seq(21, 33)]))),
    show(to_64, maps:merge(maps:from_list([{Var(I), I} || I <- lists:seq(1, 32)]),
                           maps:from_list([{Var(I), I} || I <- lists:seq(33, 64)]))),
    Merged = maps:merge(M1, M2),
    show(keys, maps:keys(Merged)),
    show(values, maps:values(Merged)),
    show(keys_mixed, maps:keys(#{b => 1, 1.0 => 2, 1 => 3, {a} => 4, "x" => 5})),
    show(values_mixed, maps:values(#{b => 1, 1.0 => 2, 1 => 3, {a} => 4, "x" => 5})),
    show(keys_empty, {maps:keys(#{}), maps:values(#{})}),
    show(to_list, maps:to_list(Merged)),
    show(to_list_mixed, maps:to_list(#{b => 1, 1.0 => 2, 1 => 3, {a} => 4, "x" => 5})),
    show(to_list_empty, maps:to_list(#{})),
    %% from_list: ascending, descending, shuffled, duplicates (the last wins), 1 and 1.0,
    %% exactly 32 and 33 distinct keys, 40 pairs with 20 distinct keys.
    show(from_asc, maps:from_list([{Var(I), I} || I <- lists:seq(1, 10)])),
    show(from_desc, maps:from_list([{Var(I), I} || I <- lists:seq(10, 1, -1)])),
    show(from_shuffled, maps:from_list([{(I * 7) rem 23, I} || I <- lists:seq(1, 23)])),
    show(from_dups, maps:from_list([{a, 1}, {b, 2}, {a, 3}, {1, x}, {1.0, y}, {1, z}, {b, 4}])),
    show(from_32, maps:from_list([{Var(I), I} || I <- lists:seq(32, 1, -1)])),
    show(from_33, maps:from_list([{Var(I), I} || I <- lists:seq(33, 1, -1)])),
    show(from_40_dups, maps:from_list([{I rem 20, I} || I <- lists:seq(1, 40)])),
    show(from_empty, maps:from_list([])),
    %% Lookups and updates by nested record-like keys (flat maps search them in key order).
    Nested = [{b_var, {x, 2}}, {b_var, 3}, {b_var, {x, 1}}, {b_var, {y, 1.0}}, {b_var, {y, 1}},
              {b_var, {x, {z, 1}}}, {b_var, {x, {z, 1.0}}}, {b_literal, 3}, {b_var, -1}, {b_var, a}],
    NM = maps:from_list([{K, I} || {K, I} <- lists:zip(Nested, lists:seq(1, length(Nested)))]),
    show(nested_keys, maps:keys(NM)),
    show(nested_get, [maps:get(K, NM) || K <- Nested]),
    show(nested_missing, [maps:find(K, NM) || K <- [{b_var, {x, 3}}, {b_var, {y, 2}}, {b_var, 3.0},
                                                    {b_var, {x, {z, 2}}}, {b_var, b}]]),
    show(nested_update, lists:foldl(fun(K, M) -> M#{K := done} end, NM, Nested)),
    show(nested_put, lists:foldl(fun(K, M) -> M#{K => new} end, NM,
                                 [{b_var, {x, 3}}, {b_var, {y, 1}}, {b_var, 1.0}])),
    show(nested_remove, lists:foldl(fun maps:remove/2, NM, [{b_var, {x, 1}}, {b_var, {y, 1.0}}])),
    show(errors, [catch maps:merge(x, #{}), catch maps:merge(#{}, y), catch maps:keys(z),
                  catch maps:values(w), catch maps:from_list([{a, 1} | b]),
                  catch maps:from_list([{a, 1}, {b}]), catch maps:from_list(x),
                  catch maps:from_list([{K, K} || K <- lists:seq(1, 40)] ++ [bad])]).

show(Name, M) when is_map(M), map_size(M) > 32 -> io:format("~p: ~p~n", [Name, lists:sort(maps:to_list(M))]);
show(Name, T) -> io:format("~p: ~p~n", [Name, T]).

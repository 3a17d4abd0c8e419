%% gb_trees and gb_sets from OTP's stdlib (balanced trees built from tuples).
-module(stdlib_trees).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    T = lists:foldl(fun(K, Acc) -> gb_trees:insert(K, K * 10, Acc) end, gb_trees:empty(),
                    id([5, 2, 8, 1, 9, 3])),
    t(gbt_to_list, fun() -> gb_trees:to_list(T) end),
    t(gbt_size, fun() -> gb_trees:size(T) end),
    t(gbt_lookup, fun() -> {gb_trees:lookup(8, T), gb_trees:lookup(7, T)} end),
    t(gbt_get, fun() -> gb_trees:get(3, T) end),
    t(gbt_insert_dup, fun() -> gb_trees:insert(5, x, T) end),
    t(gbt_enter, fun() -> gb_trees:to_list(gb_trees:enter(5, x, T)) end),
    t(gbt_delete, fun() -> gb_trees:keys(gb_trees:delete(1, T)) end),
    t(gbt_delete_any, fun() -> gb_trees:size(gb_trees:delete_any(100, T)) end),
    t(gbt_smallest_largest, fun() -> {gb_trees:smallest(T), gb_trees:largest(T)} end),
    t(gbt_take_smallest, fun() -> {K, V, _} = gb_trees:take_smallest(T), {K, V} end),
    t(gbt_values, fun() -> gb_trees:values(T) end),
    t(gbt_map, fun() -> gb_trees:values(gb_trees:map(fun(K, V) -> K + V end, T)) end),
    t(gbt_iterator, fun() -> I = gb_trees:iterator_from(4, T), {K, _, I2} = gb_trees:next(I),
                             {K2, _, _} = gb_trees:next(I2), {K, K2} end),
    t(gbt_structure, fun() -> gb_trees:from_orddict([{1, a}, {2, b}, {3, c}]) end),
    t(gbt_big, fun() -> Big = lists:foldl(fun(K, A) -> gb_trees:enter(K rem 997, K, A) end,
                                          gb_trees:empty(), lists:seq(1, 20000)),
                        {gb_trees:size(Big), gb_trees:get(500, Big)} end),
    S = gb_sets:from_list(id([c, a, b, a])),
    t(gbs_to_list, fun() -> gb_sets:to_list(S) end),
    t(gbs_member, fun() -> {gb_sets:is_member(a, S), gb_sets:is_member(z, S)} end),
    t(gbs_add, fun() -> gb_sets:to_list(gb_sets:add(0, S)) end),
    t(gbs_union, fun() -> gb_sets:to_list(gb_sets:union(S, gb_sets:from_list([d, a]))) end),
    t(gbs_intersection, fun() -> gb_sets:to_list(gb_sets:intersection(S, gb_sets:from_list([b, z]))) end),
    t(gbs_difference, fun() -> gb_sets:to_list(gb_sets:subtract(S, gb_sets:singleton(b))) end),
    t(gbs_filter, fun() -> gb_sets:to_list(gb_sets:filter(fun(X) -> X =/= c end, S)) end),
    t(gbs_size, fun() -> {gb_sets:size(S), gb_sets:is_empty(gb_sets:new())} end),
    t(gbs_fold, fun() -> gb_sets:fold(fun(X, A) -> [X | A] end, [], S) end),
    ok.

%% proplists, orddict and ordsets from OTP's stdlib.
-module(stdlib_collections).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    P = id([{a, 1}, b, {c, 3}, {a, 2}, {d, false}]),
    t(pl_get_value, fun() -> {proplists:get_value(a, P), proplists:get_value(z, P), proplists:get_value(z, P, def)} end),
    t(pl_get_bool, fun() -> {proplists:get_bool(b, P), proplists:get_bool(d, P), proplists:get_bool(z, P)} end),
    t(pl_get_all, fun() -> proplists:get_all_values(a, P) end),
    t(pl_lookup, fun() -> {proplists:lookup(c, P), proplists:lookup(b, P), proplists:lookup(q, P)} end),
    t(pl_delete, fun() -> proplists:delete(a, P) end),
    t(pl_keys, fun() -> proplists:get_keys(P) end),
    t(pl_compact, fun() -> {proplists:compact([{x, true}, y]), proplists:unfold([y])} end),
    t(pl_expand, fun() -> proplists:expand([{foo, [bar, baz]}], [fie, foo, fum]) end),
    D0 = orddict:new(),
    D = orddict:store(b, 2, orddict:store(a, 1, orddict:store(c, 3, D0))),
    t(od_store, fun() -> D end),
    t(od_fetch, fun() -> {orddict:fetch(b, D), orddict:find(z, D), orddict:is_key(a, D)} end),
    t(od_fetch_missing, fun() -> orddict:fetch(z, D) end),
    t(od_erase, fun() -> orddict:erase(b, D) end),
    t(od_update_counter, fun() -> orddict:update_counter(a, 10, D) end),
    t(od_append, fun() -> orddict:append(x, 1, orddict:append(x, 0, D)) end),
    t(od_merge, fun() -> orddict:merge(fun(_, A, B) -> A + B end, D, [{a, 100}, {z, 0}]) end),
    t(od_fold, fun() -> orddict:fold(fun(K, V, A) -> [{V, K} | A] end, [], D) end),
    t(od_from_list, fun() -> orddict:from_list([{z, 1}, {a, 2}, {z, 3}]) end),
    S1 = ordsets:from_list(id([5, 1, 3, 1, 9])), S2 = ordsets:from_list(id([3, 4, 5])),
    t(os_from_list, fun() -> S1 end),
    t(os_union, fun() -> ordsets:union(S1, S2) end),
    t(os_intersection, fun() -> ordsets:intersection(S1, S2) end),
    t(os_subtract, fun() -> ordsets:subtract(S1, S2) end),
    t(os_add_del, fun() -> {ordsets:add_element(2, S1), ordsets:del_element(5, S1)} end),
    t(os_member, fun() -> {ordsets:is_element(3, S1), ordsets:is_subset([1, 3], S1), ordsets:is_disjoint(S1, [2])} end),
    t(os_union_list, fun() -> ordsets:union([[1], [3, 2], [0]]) end),
    ok.

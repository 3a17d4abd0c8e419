%% queue, sets, dict and array from OTP's stdlib.
-module(stdlib_queue_sets).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    Q = queue:from_list(id([1, 2, 3])),
    t(q_in_out, fun() -> {{value, V}, Q2} = queue:out(queue:in(4, Q)), {V, queue:to_list(Q2)} end),
    t(q_in_r, fun() -> queue:to_list(queue:in_r(0, Q)) end),
    t(q_out_r, fun() -> {R, _} = queue:out_r(Q), R end),
    t(q_empty_out, fun() -> queue:out(queue:new()) end),
    t(q_len, fun() -> {queue:len(Q), queue:is_empty(Q), queue:member(2, Q)} end),
    t(q_reverse, fun() -> queue:to_list(queue:reverse(Q)) end),
    t(q_join_split, fun() -> {A, B} = queue:split(2, queue:join(Q, Q)), {queue:to_list(A), queue:to_list(B)} end),
    t(q_peek, fun() -> {queue:peek(Q), queue:peek_r(Q), queue:get(Q)} end),
    t(q_get_empty, fun() -> queue:get(queue:new()) end),
    t(q_fifo, fun() -> Big = lists:foldl(fun queue:in/2, queue:new(), lists:seq(1, 10000)),
                       drain(Big, 0) end),
    S = sets:from_list(id([b, a, c, a])),
    t(sets_size, fun() -> sets:size(S) end),
    t(sets_to_list, fun() -> lists:sort(sets:to_list(S)) end),
    t(sets_member, fun() -> {sets:is_element(a, S), sets:is_element(z, S)} end),
    t(sets_union, fun() -> lists:sort(sets:to_list(sets:union(S, sets:from_list([d])))) end),
    t(sets_v2, fun() -> V2 = sets:from_list([3, 1, 2], [{version, 2}]), {sets:size(V2), lists:sort(sets:to_list(V2))} end),
    t(sets_subtract, fun() -> lists:sort(sets:to_list(sets:subtract(S, sets:from_list([a])))) end),
    D = dict:from_list(id([{k1, 1}, {k2, 2}])),
    t(dict_fetch, fun() -> {dict:fetch(k1, D), dict:find(k3, D)} end),
    t(dict_store, fun() -> lists:sort(dict:to_list(dict:store(k3, 3, D))) end),
    t(dict_append, fun() -> dict:fetch(l, dict:append(l, 2, dict:append(l, 1, D))) end),
    t(dict_update_counter, fun() -> dict:fetch(k1, dict:update_counter(k1, 5, D)) end),
    t(dict_size, fun() -> dict:size(D) end),
    t(dict_fetch_missing, fun() -> dict:fetch(nope, D) end),
    A = array:from_list(id([a, b, c])),
    t(array_get, fun() -> {array:get(0, A), array:get(2, A), array:size(A)} end),
    t(array_set, fun() -> array:to_list(array:set(5, z, A)) end),
    t(array_default, fun() -> array:get(10, array:new([{default, none}])) end),
    t(array_sparse, fun() -> array:sparse_to_orddict(array:set(100, x, array:new())) end),
    t(array_map, fun() -> array:to_list(array:map(fun(I, V) -> {I, V} end, A)) end),
    t(array_foldl, fun() -> array:foldl(fun(I, _, Acc) -> I + Acc end, 0, array:new(1000)) end),
    t(array_bad_index, fun() -> array:get(-1, A) end),
    ok.

drain(Q, Acc) ->
    case queue:out(Q) of
        {{value, V}, Q2} -> drain(Q2, Acc + V);
        {empty, _} -> Acc
    end.

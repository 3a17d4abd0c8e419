%% OTP's maps module (many functions are BIFs, others are Erlang code in maps.beam).
-module(stdlib_maps).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    M = id(#{a => 1, b => 2, c => 3}),
    t(get, fun() -> {maps:get(a, M), maps:get(z, M, default)} end),
    t(get_missing, fun() -> maps:get(z, M) end),
    t(get_badmap, fun() -> maps:get(a, id(notamap)) end),
    t(find, fun() -> {maps:find(b, M), maps:find(z, M)} end),
    t(put, fun() -> maps:put(d, 4, M) end),
    t(put_existing, fun() -> maps:put(a, 100, M) end),
    t(remove, fun() -> {maps:remove(a, M), maps:remove(zz, M)} end),
    t(update, fun() -> maps:update(b, 20, M) end),
    t(update_missing, fun() -> maps:update(q, 1, M) end),
    t(update_with, fun() -> maps:update_with(c, fun(V) -> V * 10 end, M) end),
    t(update_with_init, fun() -> maps:update_with(n, fun(V) -> V end, 0, M) end),
    t(keys_values, fun() -> {maps:keys(M), maps:values(M)} end),
    t(to_list, fun() -> maps:to_list(M) end),
    t(from_list, fun() -> maps:from_list([{x, 1}, {y, 2}, {x, 3}]) end),
    t(from_keys, fun() -> maps:from_keys([a, b], 0) end),
    t(size, fun() -> {maps:size(M), map_size(id(#{}))} end),
    t(is_key, fun() -> {maps:is_key(a, M), maps:is_key(1, M)} end),
    t(merge, fun() -> maps:merge(M, #{c => 30, d => 40}) end),
    t(merge_with, fun() -> maps:merge_with(fun(_K, A, B) -> A + B end, M, #{a => 10, e => 5}) end),
    t(map, fun() -> maps:map(fun(_K, V) -> V * V end, M) end),
    t(filter, fun() -> maps:filter(fun(_K, V) -> V > 1 end, M) end),
    t(filtermap, fun() -> maps:filtermap(fun(a, _) -> false; (_, V) -> {true, -V} end, M) end),
    t(fold, fun() -> maps:fold(fun(K, V, Acc) -> [{K, V} | Acc] end, [], M) end),
    t(with_without, fun() -> {maps:with([a, c, z], M), maps:without([a, z], M)} end),
    t(take, fun() -> {maps:take(a, M), maps:take(z, M)} end),
    t(groups_from_list, fun() -> maps:groups_from_list(fun(X) -> X rem 3 end, lists:seq(1, 7)) end),
    t(iterator, fun() -> I = maps:iterator(M), {K, V, _} = maps:next(I), {K, V} end),
    t(intersect, fun() -> maps:intersect(M, #{b => x, z => y}) end),
    t(mixed_keys, fun() -> maps:keys(#{1 => a, 1.0 => b, "s" => c, {t} => d, [] => e, x => f, <<>> => g}) end),
    t(large, fun() -> Big = maps:from_list([{K, K * K} || K <- lists:seq(1, 1000)]),
                      {maps:size(Big), maps:get(777, Big), lists:sum(maps:values(Big))} end),
    ok.

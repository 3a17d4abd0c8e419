%% Maps above 32 keys (OTP's hash array mapped trie) with mixed key types, 33..10,000 keys:
%% iteration and list orders, printed structure, every maps BIF and map instruction, errors,
%% term order, external format bytes, hashing, and the flat <-> trie boundary.
%% Keys hold no atoms, pids, refs or funs: OTP places those by atom index or address, which
%% depends on the VM's history (see vm/map_hash.hpp); atoms appear only as values.
-module(maps_large).
-export([main/0, id/1]).
-compile({nowarn_deprecated_function, [{erlang, phash, 2}]}).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% Mixed keys: small and big integers, floats, binaries, strings, tuples, lists, nested maps.
key(I) ->
    case I rem 9 of
        0 -> I;
        1 -> -I * 1000003;
        2 -> I * 1.5;
        3 -> <<"bin", (integer_to_binary(I))/binary>>;
        4 -> integer_to_list(I);
        5 -> {I, integer_to_binary(I, 16)};
        6 -> [I, I + 1.0];
        7 -> (1 bsl 70) + I;
        8 -> #{I => [I]}
    end.

big(N) -> maps:from_list([{key(I), I} || I <- lists:seq(1, N)]).

main() ->
    M40 = big(40),
    t(display_40, fun() -> M40 end),
    t(keys_40, fun() -> maps:keys(M40) end),
    t(values_40, fun() -> maps:values(M40) end),
    t(to_list_40, fun() -> maps:to_list(M40) end),
    t(next_order_40, fun() -> next_keys(maps:iterator(M40)) end),
    t(fold_40, fun() -> maps:fold(fun(_, V, A) -> [V | A] end, [], M40) end),
    t(size_40, fun() -> {map_size(M40), maps:size(M40)} end),
    t(io_lib_w, fun() -> lists:flatten(io_lib:format("~w", [big(35)])) end),
    t(io_lib_p, fun() -> lists:flatten(io_lib:format("~p", [big(34)])) end),
    [begin
         M = big(N),
         t({orders, N}, fun() -> {map_size(M), erlang:phash2(maps:keys(M)), erlang:phash2(maps:values(M)),
                                  erlang:phash2(maps:to_list(M)), erlang:phash2(next_keys(maps:iterator(M)))} end),
         t({etf, N}, fun() -> B = term_to_binary(M), {byte_size(B), erlang:phash2(B),
                                                       erlang:phash2(term_to_binary(M, [deterministic])),
                                                       binary_to_term(B) =:= M} end),
         t({hash, N}, fun() -> {erlang:phash2(M), erlang:phash2(M, 1000), erlang:phash(M, 1 bsl 32)} end),
         t({lookups, N}, fun() -> lists:all(fun(I) -> maps:get(key(I), M) =:= I end, lists:seq(1, N)) end),
         t({order_independent, N}, fun() -> maps:from_list(lists:reverse(maps:to_list(M))) =:= M end)
     end || N <- [33, 64, 100, 257, 1000, 10000]],
    M100 = big(100),
    t(get, fun() -> {maps:get(key(7), M100), maps:get(missing, M100, default)} end),
    t(get_badkey, fun() -> maps:get(missing, M100) end),
    t(find, fun() -> {maps:find(key(8), M100), maps:find(nope, M100)} end),
    t(is_key, fun() -> {maps:is_key(key(9), M100), maps:is_key(1.0, big(40)), is_map_key(key(3), M100)} end),
    t(put_new, fun() -> M = maps:put("new_key", v, M100), {map_size(M), erlang:phash2(maps:keys(M))} end),
    t(put_same, fun() -> maps:put(key(5), 5, M100) =:= M100 end),
    t(update, fun() -> M = maps:update(key(5), five, M100), {maps:get(key(5), M), map_size(M)} end),
    t(update_badkey, fun() -> maps:update(nope, 1, M100) end),
    t(remove, fun() -> M = maps:remove(key(50), M100), {map_size(M), maps:is_key(key(50), M), erlang:phash2(maps:keys(M))} end),
    t(remove_absent, fun() -> maps:remove(nope, M100) =:= M100 end),
    t(take, fun() -> {V, M} = maps:take(key(60), M100), {V, map_size(M)} end),
    t(take_absent, fun() -> maps:take(nope, M100) end),
    t(merge_large, fun() -> M = maps:merge(M100, big(150)), {map_size(M), erlang:phash2(maps:to_list(M))} end),
    t(merge_wins, fun() -> M = maps:merge(M100, #{key(1) => second}), {maps:get(key(1), M), map_size(M)} end),
    t(merge_small_first, fun() -> M = maps:merge(#{key(1) => first, extra => 1}, M100), {maps:get(key(1), M), map_size(M)} end),
    t(merge_two_flat, fun() -> maps:merge(maps:from_list([{I, a} || I <- lists:seq(1, 20)]),
                                          maps:from_list([{I, b} || I <- lists:seq(15, 40)])) end),
    t(from_keys, fun() -> maps:from_keys([key(I) || I <- lists:seq(1, 45)], 0) end),
    t(from_list_dups, fun() -> maps:from_list([{I rem 50, I} || I <- lists:seq(1, 200)]) end),
    t(filter, fun() -> maps:keys(maps:filter(fun(_, V) -> V rem 3 =:= 0 end, M100)) end),
    t(map, fun() -> maps:values(maps:map(fun(_, V) -> V * 2 end, big(40))) end),
    t(with, fun() -> maps:with([key(I) || I <- lists:seq(1, 40)], M100) end),
    t(without, fun() -> maps:keys(maps:without([key(I) || I <- lists:seq(1, 60)], M100)) end),
    t(update_with, fun() -> maps:get(key(4), maps:update_with(key(4), fun(V) -> V + 1 end, M100)) end),
    t(badmap, fun() -> maps:get(1, id(not_a_map)) end),
    t(badmap_keys, fun() -> maps:keys(id([1])) end),
    %% Map instructions on tries.
    t(syntax_assoc, fun() -> M = M100#{new => 1, key(3) => three}, {map_size(M), maps:get(key(3), M)} end),
    t(syntax_exact, fun() -> M = M100#{key(3) := three, key(4) := four}, {map_size(M), maps:get(key(4), M)} end),
    t(syntax_exact_badkey, fun() -> (id(M100))#{nope := 1} end),
    t(syntax_badmap, fun() -> (id(nope))#{a => 1} end),
    t(match, fun() -> #{9 := A, <<"bin12">> := B} = id(M100), {A, B} end),
    t(match_fail, fun() -> case id(M100) of #{nope := _} -> yes; #{} -> no end end),
    t(guard_key, fun() -> F = fun(M) when is_map_key(18, M) -> yes; (_) -> no end, {F(M100), F(big(10))} end),
    t(literal_40, fun() -> literal() end),
    t(literal_keys, fun() -> maps:keys(literal()) end),
    %% Boundary: puts and removes convert between flat and trie exactly at 32/33 keys.
    M32 = maps:from_list([{I, I} || I <- lists:seq(1, 32)]),
    t(put_33, fun() -> M32#{33 => 33} end),
    t(remove_to_32, fun() -> maps:remove(33, M32#{33 => 33}) end),
    t(remove_collapse, fun() -> maps:remove(10, maps:remove(24, maps:from_list([{I, I} || I <- lists:seq(1, 34)]))) end),
    t(remove_chain, fun() -> maps:remove(24, maps:from_list([{I, I} || I <- lists:seq(1, 34)])) end),
    t(shrink_grow, fun() -> M = lists:foldl(fun maps:remove/2, M100, [key(I) || I <- lists:seq(1, 70)]),
                            {M, lists:foldl(fun(I, A) -> A#{key(I) => I} end, M, lists:seq(1, 70)) =:= M100} end),
    t(grow_one_by_one, fun() -> M = lists:foldl(fun(I, A) -> A#{key(I) => I} end, #{}, lists:seq(1, 300)),
                                {M =:= big(300), erlang:phash2(maps:keys(M))} end),
    %% Term order between tries: size, then keys in order, then values.
    A = maps:from_list([{I, 1} || I <- lists:seq(1, 33)]),
    B = maps:from_list([{I, 1} || I <- lists:seq(1, 32) ++ [34]]),
    C = A#{5 := 1.0},
    D = A#{5 := 2},
    t(order, fun() -> {A < B, B < A, A == C, A =:= C, A < D, C < D, D > C, A < big(40), big(40) < A} end),
    t(sort_maps, fun() -> [erlang:phash2(X) || X <- lists:sort([D, B, big(34), C, A, #{}, M32])] end),
    t(float_keys_distinct, fun() -> M = maps:from_list([{I, int} || I <- lists:seq(1, 20)] ++ [{I * 1.0, flt} || I <- lists:seq(1, 20)]),
                                    {map_size(M), maps:get(3, M), maps:get(3.0, M)} end),
    t(eq_float_key, fun() -> maps:from_list([{I, 1} || I <- lists:seq(1, 40)]) == maps:from_list([{I * 1.0, 1} || I <- lists:seq(1, 40)]) end),
    ok.

next_keys(I) ->
    case maps:next(I) of
        none -> [];
        {K, _, I2} -> [K | next_keys(I2)]
    end.

literal() ->
    #{1 => a, 2 => b, 3 => c, 4 => d, 5 => e, 6 => f, 7 => g, 8 => h, 9 => i, 10 => j,
      11 => a, 12 => b, 13 => c, 14 => d, 15 => e, 16 => f, 17 => g, 18 => h, 19 => i, 20 => j,
      21 => a, 22 => b, 23 => c, 24 => d, 25 => e, 26 => f, 27 => g, 28 => h, 29 => i, 30 => j,
      <<"a">> => 1, <<"b">> => 2, "c" => 3, {4} => 4, 1.5 => 5, [] => 6, -7 => 7, 99999999999999999999 => 8}.

%% =:= and =/= over nested terms whose parts have several representations (heap, refc and
%% sub binaries; flat and trie maps; bignums; floats and integers; -0.0), in tuples, lists
%% and maps at any depth; and flat-map lookups, updates and removals with compound keys.
%% Each pair is also compared with == and ordered, so equality and order agree with erl's.
-module(eq_exact_nested).
-export([main/0]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% The same value built in different ways: as a literal, and computed at run time.
refc_bin() -> binary:copy(<<0:8000>>).
sub_bin() -> <<_:8, S:1000/binary, _/binary>> = id(<<1, 0:8000, 2>>), S.
big_map(N) -> maps:from_list([{I, {I, [I]}} || I <- lists:seq(1, N)]).

pairs() ->
    Big = id(1 bsl 70),
    [{same_tuple, {a, 1, "x"}, id({a, 1, "x"})},
     {atoms_differ, {a, b}, {a, c}},
     {int_vs_float, {x, [1, 2]}, {x, [1, 2.0]}},
     {zero_floats, [0.0], [id(-0.0)]},
     {bignum, {Big, Big}, {id(1 bsl 70), 1 bsl 70}},
     {bignum_sign, {Big}, {-Big}},
     {refc_vs_sub, {refc_bin()}, {sub_bin()}},
     {sub_vs_heap, [sub_bin(), <<1, 2>>], [binary:copy(sub_bin()), <<1, 2>>]},
     {bin_vs_bits, <<1:7>>, <<1:8>>},
     {flat_maps, #{a => {1, 2}, b => [x]}, id(#{b => [x], a => {1, 2}})},
     {map_values_differ, #{k => {1, 2}}, #{k => {1, 2.0}}},
     {trie_maps, big_map(40), maps:from_list(lists:reverse(maps:to_list(big_map(40))))},
     {trie_vs_flat, big_map(40), big_map(32)},
     {arity, {1, 2}, {1, 2, 3}},
     {tuple_vs_list, {1, 2}, [1, 2]},
     {improper, [1 | 2], [1 | 2.0]},
     {deep_list, lists:seq(1, 500), lists:seq(1, 500)},
     {deep_nest, nest(300, x), nest(300, x)},
     {deep_nest_differ, nest(300, x), nest(300, y)},
     {funs, fun id/1, fun id/1},
     {fun_env, [fun() -> Big end], [fun() -> Big end]},
     {refs, make_ref(), make_ref()},
     {pids, {self()}, {id(self())}},
     {mixed_deep, {[#{k => <<"v">>}], {Big, 1.5}}, {[#{k => binary:copy(<<"v">>)}], {1 bsl 70, 1.5}}},
     %% Tries are compared node by node: equal key sets must give equal shapes, whatever
     %% puts and removes built them.
     {trie_after_removes, maps:without(lists:seq(41, 300), big_map(300)), big_map(40)},
     {trie_grown_and_shrunk, lists:foldl(fun maps:remove/2, (big_map(40))#{a => 1, b => 2}, [a, b]), big_map(40)},
     {trie_value_differs, big_map(40), (big_map(40))#{17 := {17, [17.0]}}},
     {trie_key_differs, big_map(40), maps:remove(1, (big_map(40))#{41 => {1, [1]}})},
     {trie_nested, #{m => big_map(50), n => [big_map(33)]},
      #{n => [maps:from_list(maps:to_list(big_map(33)))], m => maps:from_list(lists:reverse(maps:to_list(big_map(50))))}},
     {trie_copied, big_map(1000), binary_to_term(term_to_binary(big_map(1000)))},
     {trie_compound_keys, maps:from_list([{{K, [K]}, <<K>>} || K <- lists:seq(1, 60)]),
      maps:from_list([{{K, [K]}, binary:copy(<<K>>)} || K <- lists:seq(60, 1, -1)])},
     {zero_float_keys_flat, #{0.0 => a}, #{id(-0.0) => a}},
     {zero_float_keys_trie, (big_map(40))#{0.0 => a}, (big_map(40))#{id(-0.0) => a}},
     {flat_same_size_keys_differ, #{a => 1, b => 2}, #{a => 1, c => 2}},
     {flat_keys_shared, (id(#{a => 1, b => [2]}))#{b := [2]}, #{a => 1, b => [id(2)]}},
     {bignum_lengths, {1 bsl 64}, {1 bsl 128}},
     {bignum_limbs_differ, {(1 bsl 64) + 1}, {(1 bsl 64) + 2}},
     {floats_differ, [1.5, 2.5], [1.5, 2.25]},
     {strings, "a string of some length", "a string of some length"},
     {strings_differ, "a string of some length", "a string of some lengtH"},
     {list_heads_compound, [{1}, {2}, [3]], [{1}, {2}, [3.0]]}].

nest(0, Leaf) -> Leaf;
nest(N, Leaf) -> {N, [nest(N - 1, Leaf)]}.

main() ->
    [t(L, fun() -> {A =:= B, A =/= B, A == B, A < B, B < A} end) || {L, A, B} <- pairs()],
    Keys = [{var, I} || I <- lists:seq(1, 25)] ++ [<<"k">>, [1, 2], 1.0, 1, {1, 2.0}],
    M = maps:from_list([{K, N} || {N, K} <- lists:enumerate(Keys)]),
    t(lookup_all, fun() -> [maps:get(K, M) || K <- Keys] end),
    t(lookup_copies, fun() -> [maps:get(binary_to_term(term_to_binary(K)), M) || K <- Keys] end),
    t(lookup_missing, fun() -> [maps:find(K, M) || K <- [{var, 26}, {1, 2}, 1.0e0 * 2, <<"K">>, [1, 2.0]]] end),
    t(update_existing, fun() -> M2 = M#{{var, 7} := updated, 1 := one}, {maps:get({var, 7}, M2), maps:get(1, M2), maps:get(1.0, M2), map_size(M2)} end),
    t(put_new, fun() -> M2 = maps:put({var, 0}, new, M), {maps:get({var, 0}, M2), map_size(M2), hd(maps:keys(M2))} end),
    t(remove, fun() -> M2 = maps:remove({var, 15}, maps:remove(1.0, M)), {map_size(M2), maps:is_key({var, 15}, M2), maps:is_key(1, M2)} end),
    t(match_keys, fun() -> #{{var, 3} := V3, [1, 2] := VL} = M, {V3, VL} end),
    %% Tuple keys of immediates are found by a scan; others by the ordering's binary search.
    TK = [{}, {a}, {a, 1}, {a, 2}, {b, 1}, {a, 1, x}, {a, 1, y}, {1, 2, 3, 4}, {1, 2, 3, 5},
          {1, 2, 3, 4, 5}, {a, 1 bsl 70}, {a, [1]}, {a, 1.0}, {[], self()}],
    TM = maps:from_list([{K, N} || {N, K} <- lists:enumerate(TK)]),
    t(tuple_keys_all, fun() -> [maps:get(K, TM) || K <- TK] end),
    t(tuple_keys_copies, fun() -> [maps:get(binary_to_term(term_to_binary(K)), TM) || K <- TK] end),
    t(tuple_keys_missing, fun() -> [maps:find(K, TM) || K <- [{a, 3}, {c, 1}, {a, 1, z}, {a, 1.0e0 * 2},
                                                            {1, 2, 3, 6}, {a, 1 bsl 71}, {[], 1}, {{}}]] end),
    t(tuple_keys_match, fun() -> #{{a, 1} := A, {1, 2, 3, 4} := B, {a, 1.0} := C} = TM, {A, B, C} end),
    t(tuple_keys_is_key, fun() -> [is_map_key(K, TM) || K <- [{a, 1}, {a, 1.0}, {a, 3}, {}]] end),
    ok.

%% Large maps (above 32 keys OTP switches from a sorted flat map to a hash array mapped trie):
%% iteration order, printed form and updates must match OTP exactly.
-module(maps_hashed).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    t(hashed_map_keys, fun() -> maps:keys(maps:from_list([{K, K} || K <- lists:seq(1, 40)])) end),
    t(hashed_map_display, fun() -> maps:from_list([{K, K * K} || K <- lists:seq(1, 34)]) end),
    t(hashed_map_update, fun() -> Big = maps:from_list([{K, K} || K <- lists:seq(1, 100)]),
                                  B2 = Big#{50 := fifty, 200 => new}, {maps:get(50, B2), maps:get(200, B2), map_size(B2)} end),
    t(hashed_map_equal, fun() -> maps:from_list([{K, 1} || K <- lists:seq(1, 50)]) =:= maps:from_list([{K, 1} || K <- lists:seq(50, 1, -1)]) end),
    t(flat_to_hashed_boundary, fun() -> {maps:keys(maps:from_list([{K, K} || K <- lists:seq(1, 32)])) =:= lists:seq(1, 32),
                                         maps:keys(maps:from_list([{K, K} || K <- lists:seq(1, 33)])) =:= lists:seq(1, 33)} end),
    t(hashed_map_remove, fun() -> Big = maps:from_list([{K, K} || K <- lists:seq(1, 40)]),
                                  maps:keys(maps:without(lists:seq(1, 20), Big)) end),
    t(hashed_map_fold, fun() -> maps:fold(fun(K, V, A) -> A + K * V end, 0, maps:from_list([{K, K} || K <- lists:seq(1, 500)])) end),
    %% Keys hold no atoms: OTP places an atom in the trie by its atom-table index, which depends
    %% on the order atoms were created since boot (vm/map_hash.hpp), so it cannot be compared.
    t(hashed_map_tuple_keys, fun() -> maps:keys(maps:from_list([{{K, "x"}, K} || K <- lists:seq(1, 35)])) end),
    t(hashed_map_string_keys, fun() -> maps:values(maps:from_list([{integer_to_list(K), K} || K <- lists:seq(1, 35)])) end),
    %% Moved from stdlib_maps: a 50-key map iterates in hash order, not key order.
    t(large_keys_sorted, fun() -> Big = maps:from_list([{K, K} || K <- lists:seq(50, 1, -1)]),
                                  maps:keys(Big) =:= lists:seq(1, 50) end),
    ok.

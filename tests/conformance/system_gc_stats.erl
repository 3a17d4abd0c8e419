%% statistics(garbage_collection) and erts_debug:flat_size/1.
%% statistics(garbage_collection) is {Collections, WordsReclaimed, 0} for the whole VM: both
%% grow when a process makes garbage and collects (the numbers themselves depend on the heap
%% sizes and are not printed). erts_debug:flat_size/1 is the size of a term in OTP's words
%% (compile's `time` option reports it); every term kind is checked against erl.
-module(system_gc_stats).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

id(X) -> X.

churn(0) -> ok;
churn(N) -> _ = id(lists:seq(1, 5000)), erlang:garbage_collect(), churn(N - 1).

main() ->
    t(gc_shape, fun() -> {N, W, Z} = statistics(garbage_collection), {is_integer(N), is_integer(W), Z} end),
    t(gc_grows, fun() ->
        {N0, W0, _} = statistics(garbage_collection),
        churn(20),
        {N1, W1, _} = statistics(garbage_collection),
        {N1 - N0 >= 20, W1 - W0 >= 20 * 10000}
    end),
    Bin = list_to_binary(lists:seq(1, 200)),
    <<_:3, Odd/bits>> = Bin,
    <<_:2/binary, Slice:50/binary, _/binary>> = Bin,
    Small = <<1,2,3,4,5,6,7,8,9,10>>,
    <<_:1/binary, SmallSlice:3/binary, _/binary>> = Small,
    <<_:5, Bits13:13/bits, _/bits>> = Small,
    X = id(7),
    Terms = [{atom, a}, {small, 42}, {list, [1,2,3]}, {string, "abc"}, {tuple, {1,2}}, {empty_tuple, {}},
             {nested_empty, {{}}}, {bignum, 1 bsl 100}, {neg_bignum, -(1 bsl 200)}, {float, 1.5},
             {heap_bin, <<1,2,3>>}, {refc_bin, Bin}, {odd_sub, Odd}, {slice, Slice},
             {small_slice, SmallSlice}, {bits13, Bits13}, {flat_map, #{a => 1, b => 2}},
             {empty_map, #{}}, {trie_map, maps:from_list([{I, I} || I <- lists:seq(1, 40)])},
             {big_trie, maps:from_list([{I, {I}} || I <- lists:seq(1, 400)])},
             {fun0, fun() -> ok end}, {closure, fun(Y) -> X + Y end}, {export_fun, fun lists:map/2},
             {pid, self()}, {ref, make_ref()}, {shared, {[Bin], [Odd | Slice]}},
             {deep, lists:foldl(fun(I, Acc) -> [I | Acc] end, [], lists:seq(1, 100000))}],
    [t(K, fun() -> erts_debug:flat_size(V) end) || {K, V} <- Terms],
    ok.

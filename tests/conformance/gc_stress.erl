%% Garbage collector stress: more than 1 GB allocated in total while the live set stays small,
%% plus a live set that grows and shrinks, binaries, bignums, maps and deep structures that must
%% survive many collections intact.
-module(gc_stress).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% Each round builds a 1000-element list of 3-tuples (1000 * (2 + 4) words = 48 KB) and keeps
%% only a checksum: 25,000 rounds allocate about 1.2 GB.
churn(0, Acc) -> Acc;
churn(N, Acc) ->
    L = [{N, I, N + I} || I <- lists:seq(1, 1000)],
    churn(N - 1, (Acc + element(3, lists:nth(500, L))) rem 1000000007).

%% Keeps a window of the last 50 results alive while allocating, so live data crosses
%% collections and gets promoted.
window(0, Win) -> lists:sum([X || {X, _} <- Win]);
window(N, Win) ->
    Item = {N, lists:seq(1, 50)},
    Win2 = lists:sublist([Item | Win], 50),
    window(N - 1, Win2).

bignum_churn(0, Acc) -> Acc;
bignum_churn(N, Acc) -> bignum_churn(N - 1, (Acc * 3 + N) rem (1 bsl 200 + 7)).

binary_churn(0, Acc) -> Acc;
binary_churn(N, Acc) ->
    B = <<N:32, (binary:copy(<<N:8>>, 200))/binary>>,
    binary_churn(N - 1, Acc + byte_size(B) + binary:last(B)).

map_churn(0, M) -> M;
map_churn(N, M) ->
    K = N rem 300,
    map_churn(N - 1, M#{K => [N | maps:get(K, M, [])]}).

main() ->
    Keep = id(lists:seq(1, 1000)),
    Deep = id(lists:foldl(fun(X, A) -> {X, A} end, nil, lists:seq(1, 10000))),
    t(churn, fun() -> churn(id(25000), 0) end),
    t(window, fun() -> window(id(100000), []) end),
    t(bignums, fun() -> bignum_churn(id(200000), 1) rem 1000000 end),
    t(binaries, fun() -> binary_churn(id(50000), 0) end),
    t(maps, fun() -> M = map_churn(id(60000), #{}), {map_size(M), length(maps:get(7, M)), hd(maps:get(0, M))} end),
    t(big_live_list, fun() -> L = lists:seq(1, 2000000), lists:sum(L) + length(lists:reverse(L)) end),
    t(kept_intact, fun() -> Keep =:= lists:seq(1, 1000) end),
    t(deep_kept, fun() -> element(1, Deep) end),
    t(strings, fun() -> length(lists:flatten([integer_to_list(X) || X <- lists:seq(1, 100000)])) end),
    ok.

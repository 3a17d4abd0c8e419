%% A closure and other terms built under one heap check: erlc's allocation list counts each
%% fun's fixed part ({funs, N}) apart from its free variables (in {words, N}). If the check
%% covers less than the closure really takes, the terms built after it end where the next
%% call pushes its return address, and the collector later meets a code pointer inside a
%% tuple. OTP's own erl_lint:expr_bin/4 has this shape; bs_construct_SUITE crashed in it.
-module(fun_alloc_heap).
-export([main/0, id/1]).

id(X) -> X.

%% make_fun3 (two free variables) and put_tuple2 share one allocate_heap, then a call that
%% is not a tail call, so its return address is pushed right below the new terms.
fold_with_closure(Es, Vt, St) ->
    F = fun(E, {Acc, N}) -> {[E + Vt | Acc], N + St} end,
    {L, N} = lists:foldl(F, {[], St}, Es),
    {N, L}.

%% About K words of garbage (pairs of words and one 3-word tuple for odd K).
pad(K) when K < 2 -> [];
pad(3) -> {id(x), id(y)};
pad(K) -> [K | pad(K - 2)].

%% After a collection the heap gap is fixed; K words of garbage later it is K words smaller,
%% so one K leaves exactly what the allocate_heap above asks for.
probe(K) ->
    erlang:garbage_collect(),
    _ = id(pad(K)),
    {N, L} = fold_with_closure([K, K + 1], 3, K),
    {N, L} =:= {3 * K, [K + 4, K + 3]}.

main() ->
    erlang:display({fold_with_closure, fold_with_closure([1, 2, 3], 10, 5)}),
    Bad = [K || K <- lists:seq(0, 3000), not probe(K)],
    erlang:display({probes_wrong, Bad}),
    ok.

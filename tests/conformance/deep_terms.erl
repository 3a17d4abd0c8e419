%% Terms nested a million levels deep, in tuple, list-head, map and fun positions, through
%% the natives that walk terms: comparison and sorting, hashing, the external term format,
%% sizes, copying between processes, and match specifications. Natives must not use the C
%% stack for nesting (a crash here takes the whole VM down).
-module(deep_terms).
-export([main/0]).

nest(tuple, N) -> lists:foldl(fun(_, Acc) -> {Acc} end, a, lists:seq(1, N));
nest(head, N) -> lists:foldl(fun(_, Acc) -> [Acc] end, a, lists:seq(1, N));
nest(map, N) -> lists:foldl(fun(_, Acc) -> #{k => Acc} end, a, lists:seq(1, N));
nest(mixed, N) -> lists:foldl(fun(I, Acc) when I rem 2 =:= 0 -> {x, Acc}; (_, Acc) -> [Acc, y] end, a, lists:seq(1, N)).

main() ->
    N = 1000000,
    [check(Kind, N) || Kind <- [tuple, head, map, mixed]],
    ok.

check(Kind, N) ->
    A = nest(Kind, N),
    B = nest(Kind, N),
    C = nest(Kind, N - 1),
    io:format("~p compare: ~p ~p ~p ~p~n", [Kind, A == B, A =:= B, A < C, C < A]),
    io:format("~p sort: ~p~n", [Kind, lists:sort([A, C, B]) =:= [C, A, B]]),
    io:format("~p hash: ~p ~p~n", [Kind, erlang:phash2(A) =:= erlang:phash2(B), erlang:phash2(A, 1 bsl 27) =:= erlang:phash2(B, 1 bsl 27)]),
    Bin = term_to_binary(A),
    io:format("~p ext: ~p ~p~n", [Kind, byte_size(Bin), binary_to_term(Bin) =:= A]),
    io:format("~p size: ~p~n", [Kind, erts_debug:flat_size(A)]),
    Self = self(),
    spawn(fun() -> Self ! {copy, A} end),
    receive {copy, Copy} -> io:format("~p copy: ~p~n", [Kind, Copy =:= B]) end,
    io:format("~p map key: ~p~n", [Kind, maps:get(B, #{A => found})]),
    io:format("~p ms: ~p~n", [Kind, erlang:match_spec_test({A}, [{{'$1'}, [{'=:=', '$1', {const, B}}], [ok]}], table)]).

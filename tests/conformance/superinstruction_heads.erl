%% Fused runs of the loader's third round (loader/superinstructions.cpp), at their edges:
%% is_nonempty_list_get_list_eq (a list whose head is a given character: [], improper lists,
%% non-lists, other heads, the head a float equal to the character), allocate_move3 and
%% allocate_move4 (a frame saving three or four arguments across a call), test_heap_put_list_return
%% (a body-recursive list builder), is_integer_ge_small (integers, bignums, floats, atoms);
%% is_nonempty_list_get_list2 (a list's first two elements: lists of one element, improper
%% tails) and test_heap_put_list_call_only and _move_call_only (a loop consing onto its
%% accumulator).
-module(superinstruction_heads).
-export([main/0]).
-export([tag/1, lt/1, keep3/3, keep4/4, double/1, at_least/1, digit/1, pairs/1, rev/2, second_of/1, acc/2, firsts/1]).

tag([$< | T]) -> {open, T};
tag([$> | T]) -> {close, T};
tag([a | T]) -> {atom_a, T};
tag([7 | T]) -> {seven, T};
tag(Other) -> {other, Other}.

keep3(A, B, C) ->
    X = id(A),
    {X, A, B, C}.
keep4(A, B, C, D) ->
    X = id(B),
    {X, A, B, C, D}.
id(X) -> X.

lt([$< | T]) -> {lt, T};
lt(X) -> {no, X}.

double([H | T]) -> [2 * H | double(T)];
double([]) -> [].

at_least(X) when is_integer(X), X >= 10 -> yes;
at_least(X) when is_integer(X), X >= -5 -> low;
at_least(X) -> {no, X}.
digit(X) when is_integer(X), X >= $0 -> X - $0;
digit(X) -> {no, X}.

pairs([A, B | T]) -> [{A, B} | pairs(T)];
pairs(Other) -> [{rest, Other}].

rev([H | T], Acc) -> rev(T, [H | Acc]);
rev(Other, Acc) -> {Other, Acc}.

firsts([A, B | T]) -> firsts_k(B, A, T);
firsts(X) -> {no, X}.
firsts_k(B, A, T) -> {A, B, T}.

second_of([_, B | _]) -> B;
second_of(X) -> {no, X}.

acc(N, Acc) when N > 0 -> acc(N - 1, [N | Acc]);
acc(_, Acc) -> Acc.

main() ->
    io:format("~p~n", [[tag(L) || L <- ["<a", ">", [a, b], [7], [7.0], "x", [], "<", [$< | tail], 7, <<"<">>]]]),
    io:format("~p~n", [[lt(L) || L <- ["<a", "<", ">", [60.0], [], [$< | tail], "x", 60, <<"<">>]]]),
    io:format("~p~n", [{keep3(1, 2, 3), keep4(a, b, c, d)}]),
    io:format("~p~n", [{double([1, 2, 3]), length(double(lists:seq(1, 50000))), double([])}]),
    io:format("~p~n", [try double([1 | 2]) catch error:R -> R end]),
    io:format("~p~n", [[pairs(L) || L <- [[1, 2, 3, 4], [1, 2, 3], [1], [], [1, 2 | x], [1 | x], x]]]),
    io:format("~p~n", [[firsts(L) || L <- [[1, 2], [1, 2, 3], [1], [1 | x], [1, 2 | x], [], x]]]),
    io:format("~p~n", [[second_of(L) || L <- [[1, 2], [1, 2, 3], [1], [1 | x], [1, 2 | x], [], x]]]),
    io:format("~p~n", [{acc(5, []), acc(0, [z]), length(acc(100000, []))}]),
    io:format("~p~n", [[rev(L, []) || L <- [[1, 2, 3], [], [a | b], lists:seq(1, 5)]]]),
    io:format("~p~n", [[digit(X) || X <- [$0, $9, $0 - 1, 1 bsl 70, -(1 bsl 70), 48.0, 100.5, a, "0"]]]),
    io:format("~p~n", [[at_least(X) || X <- [10, 9, 11, -5, -6, 1 bsl 70, -(1 bsl 70), 10.0, 100.5, a, "10"]]]).

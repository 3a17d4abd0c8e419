%% Fused runs of the loader's third round (loader/superinstructions.cpp), at their edges:
%% is_nonempty_list_get_list_eq (a list whose head is a given character: [], improper lists,
%% non-lists, other heads, the head a float equal to the character), allocate_move3 and
%% allocate_move4 (a frame saving three or four arguments across a call), test_heap_put_list_return
%% (a body-recursive list builder), is_integer_ge_small (integers, bignums, floats, atoms).
-module(superinstruction_heads).
-export([main/0]).
-export([tag/1, lt/1, keep3/3, keep4/4, double/1, at_least/1, digit/1]).

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

main() ->
    io:format("~p~n", [[tag(L) || L <- ["<a", ">", [a, b], [7], [7.0], "x", [], "<", [$< | tail], 7, <<"<">>]]]),
    io:format("~p~n", [[lt(L) || L <- ["<a", "<", ">", [60.0], [], [$< | tail], "x", 60, <<"<">>]]]),
    io:format("~p~n", [{keep3(1, 2, 3), keep4(a, b, c, d)}]),
    io:format("~p~n", [{double([1, 2, 3]), length(double(lists:seq(1, 50000))), double([])}]),
    io:format("~p~n", [try double([1 | 2]) catch error:R -> R end]),
    io:format("~p~n", [[digit(X) || X <- [$0, $9, $0 - 1, 1 bsl 70, -(1 bsl 70), 48.0, 100.5, a, "0"]]]),
    io:format("~p~n", [[at_least(X) || X <- [10, 9, 11, -5, -6, 1 bsl 70, -(1 bsl 70), 10.0, 100.5, a, "10"]]]).

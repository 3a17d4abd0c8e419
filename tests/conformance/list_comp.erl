%% List comprehensions: generators, filters, pattern generators, nesting.
-module(list_comp).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

qsort([]) -> [];
qsort([P | T]) -> qsort([X || X <- T, X < P]) ++ [P] ++ qsort([X || X <- T, X >= P]).

perms([]) -> [[]];
perms(L) -> [[H | T] || H <- L, T <- perms(L -- [H])].

pythag(N) ->
    [{A, B, C} || A <- lists:seq(1, N), B <- lists:seq(A, N), C <- lists:seq(B, N),
                  A * A + B * B =:= C * C].

main() ->
    L = id(lists:seq(1, 10)),
    t(squares, fun() -> [X * X || X <- L] end),
    t(filter, fun() -> [X || X <- L, X rem 3 =:= 0] end),
    t(two_filters, fun() -> [X || X <- L, X > 2, X < 6] end),
    t(cartesian, fun() -> [{X, Y} || X <- [a, b], Y <- [1, 2, 3]] end),
    t(dependent, fun() -> [{X, Y} || X <- [1, 2, 3], Y <- lists:seq(1, X)] end),
    t(pattern_gen, fun() -> [V || {ok, V} <- id([{ok, 1}, error, {ok, 2}, {ok}, {ok, 3}])] end),
    t(nested, fun() -> [[Y || Y <- lists:seq(1, X)] || X <- [1, 2, 3]] end),
    t(empty, fun() -> [X || X <- id([])] end),
    t(string, fun() -> [C - 32 || C <- id("hello"), C =/= $l] end),
    t(qsort, fun() -> qsort(id([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])) end),
    t(perms, fun() -> perms(id([1, 2, 3])) end),
    t(pythag, fun() -> pythag(id(20)) end),
    t(guard_expr, fun() -> [X || X <- id([1, a, 2.0, "s", {t}]), is_number(X)] end),
    t(bad_generator, fun() -> [X || X <- id(notalist)] end),
    t(outer_binding, fun() -> Y = id(100), [X + Y || X <- [1, 2]] end),
    t(big, fun() -> length([X || X <- lists:seq(1, 100000), X band 1 =:= 0]) end),
    t(from_binary, fun() -> [B || <<B>> <= id(<<1, 2, 3>>)] end),
    ok.

%% Tail recursion (constant stack) and deep body recursion (1,000,000 frames: the stack must
%% grow far beyond any initial size).
-module(recursion).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

len([]) -> 0;
len([_ | T]) -> 1 + len(T).

sum_tail([], Acc) -> Acc;
sum_tail([H | T], Acc) -> sum_tail(T, Acc + H).

count_down(0) -> done;
count_down(N) -> count_down(N - 1).

map_body(_, []) -> [];
map_body(F, [H | T]) -> [F(H) | map_body(F, T)].

even(0) -> true;
even(N) -> odd(N - 1).
odd(0) -> false;
odd(N) -> even(N - 1).

ackermann(0, N) -> N + 1;
ackermann(M, 0) -> ackermann(M - 1, 1);
ackermann(M, N) -> ackermann(M - 1, ackermann(M, N - 1)).

fib(0) -> 0;
fib(1) -> 1;
fib(N) -> fib(N - 1) + fib(N - 2).

hanoi(0, _, _, _) -> 0;
hanoi(N, A, B, C) -> hanoi(N - 1, A, C, B) + 1 + hanoi(N - 1, C, B, A).

build_deep(0) -> leaf;
build_deep(N) -> {node, build_deep(N - 1)}.

depth(leaf) -> 0;
depth({node, T}) -> 1 + depth(T).

main() ->
    Million = id(lists:seq(1, 1000000)),
    t(deep_len, fun() -> len(Million) end),
    t(tail_sum, fun() -> sum_tail(Million, 0) end),
    t(count_down, fun() -> count_down(id(10000000)) end),
    t(deep_map, fun() -> lists:last(map_body(fun(X) -> X * 2 end, Million)) end),
    t(mutual, fun() -> {even(id(1000001)), odd(id(999999))} end),
    t(ackermann, fun() -> ackermann(2, id(3)) end),
    t(ackermann_3, fun() -> ackermann(3, id(5)) end),
    t(fib, fun() -> fib(id(22)) end),
    t(hanoi, fun() -> hanoi(id(16), a, b, c) end),
    t(deep_term, fun() -> depth(build_deep(id(500000))) end),
    t(deep_term_compare, fun() -> build_deep(id(100000)) =:= build_deep(id(100000)) end),
    t(lists_foldr_deep, fun() -> lists:foldr(fun(X, A) -> X + A end, 0, Million) end),
    t(deep_append, fun() -> length(Million ++ [x]) end),
    ok.

%% Naive doubly recursive Fibonacci: calls, returns and small-integer arithmetic.
-module(fib).
-export([main/0, quick/0]).

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).

run(N) -> erlang:display({fib, N, fib(N)}).

main() -> run(41).
quick() -> run(27).

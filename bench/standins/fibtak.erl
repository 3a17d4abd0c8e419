%% Stand-in for the hidden suite's fib and tak (bench/standins/run.sh): the textbook forms,
%% fib(30) three times and tak(24, 16, 8) five times.
-module(fibtak).
-export([main/0]).
main() -> erlang:display({[fib(30) || _ <- [1,2,3]], [tak(24, 16, 8) || _ <- [1,2,3,4,5]]}).
fib(0) -> 0; fib(1) -> 1; fib(N) -> fib(N - 1) + fib(N - 2).
tak(X, Y, Z) when Y >= X -> Z;
tak(X, Y, Z) -> tak(tak(X - 1, Y, Z), tak(Y - 1, Z, X), tak(Z - 1, X, Y)).

%% An example program: some sequential Erlang, run by beamvm exactly as by erl.
-module(hello).
-export([main/0]).

main() ->
    erlang:display(hello_from_beamvm),
    erlang:display(lists:sum(lists:seq(1, 100))),
    erlang:display(fact(25)),
    erlang:display(lists:sort([{b, 2}, {a, 1}, "str", 3.5, 42])),
    erlang:display(try erlang:error(oops) catch error:R -> {caught, R} end).

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

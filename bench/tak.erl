%% Takeuchi's function: deep non-tail recursion with three small-integer arguments, nothing
%% allocated. Called for a range of argument triples so no call can be hoisted or shared.
-module(tak).
-export([main/0, quick/0]).

tak(X, Y, Z) when Y < X -> tak(tak(X - 1, Y, Z), tak(Y - 1, Z, X), tak(Z - 1, X, Y));
tak(_, _, Z) -> Z.

%% Sum of tak(X, Y, Z) over X in [Y+1 .. Y+Span] for each of Rounds shifts of Y and Z.
run(Rounds, Span) ->
    Sum = lists:foldl(fun(R, Acc) ->
                              Y = 10 + R rem 3, Z = R rem 5,
                              Acc + lists:sum([tak(Y + D, Y, Z) || D <- lists:seq(1, Span)])
                      end, 0, lists:seq(1, Rounds)),
    erlang:display({tak, Rounds, Span, Sum}).

main() -> run(10, 5).
quick() -> run(1, 4).

%% Fused runs that end in a call, taking in the line record before the call
%% (loader/superinstructions.cpp): trim_call, allocate_move_call, move_call, move2_call. A stack
%% trace through each must name the caller's line as erl does. Also the fused clause head
%% is_nonempty_list_allocate_move_get_list (its failure path: [], improper lists, non-lists),
%% test_arity_get, and an is_tuple before a select on tuple size, with non-tuples.
-module(superinstruction_calls).
-export([main/0]).
-export([trimmed/3, saved/2, moved/2, moved1/1, sum_into/2, second/1, size_case/1, line_move/2, line_trim/3]).

%% trim + line + call: Y is dead at the second call, the frame keeps Z.
trimmed(X, Y, Z) ->
    A = id(X),
    B = id(Y),
    C = may_fail(A + B),
    {C, Z}.

%% allocate + move + line + call.
saved(X, Y) ->
    R = may_fail(X),
    {R, Y}.

%% move + line + call and move + move + line + call: arguments rotated before a call that fails.
moved(X, Y) ->
    R = may_fail2(Y,
                  X),
    [R | X].
moved1(X) ->
    R = may_fail(
          X),
    [R].

%% move + line + call: Y comes back from its y register right before the failing call (and
%% allocate + move + line + call before it).
line_move(X, Y) ->
    _ = id(X),
    C = may_fail(Y),
    {C, Y}.

%% trim + line + call: the frame shrinks right before the failing call.
line_trim(X, Y, Z) ->
    _ = id(X),
    C = may_fail(Y),
    {C, Z}.

id(X) -> X.
may_fail(N) when is_integer(N), N > 0 -> N * 2;
may_fail(N) -> error({bad, N}).
may_fail2(A, B) when is_integer(A) -> A + B;
may_fail2(A, B) -> error({bad2, A, B}).

%% The clause head: is_nonempty_list, allocate, move, get_list.
sum_into([H | T], Acc) ->
    S = add(H, Acc),
    sum_into(T, S);
sum_into([], Acc) -> Acc;
sum_into(Other, Acc) -> {tail, Other, Acc}.
add(A, B) -> A + B.

%% test_arity + one get_tuple_element.
second({_, B}) -> B;
second({_, B, _}) -> {three, B};
second(X) -> {no, X}.

%% is_tuple + select_tuple_arity (the same failure label).
size_case(T) ->
    case T of
        {} -> zero;
        {_} -> one;
        {_, _} -> two;
        {_, _, _} -> three;
        _ -> other
    end.

trace(F) ->
    try F() of V -> {ok, V}
    catch error:R:St -> {R, [{Fn, Ar, Loc} || {_, Fn, Ar, Loc} <- St, Fn =/= trace]}
    end.

main() ->
    io:format("~p~n", [trimmed(1, 2, z)]),
    io:format("~p~n", [trace(fun() -> trimmed(-5, 2, z) end)]),
    io:format("~p~n", [trace(fun() -> saved(3, y) end)]),
    io:format("~p~n", [trace(fun() -> saved(x, y) end)]),
    io:format("~p~n", [trace(fun() -> moved([1], 2) end)]),
    io:format("~p~n", [trace(fun() -> moved(1, a) end)]),
    io:format("~p~n", [trace(fun() -> moved1(a) end)]),
    io:format("~p~n", [{line_move(a, 2), line_trim(a, 3, z)}]),
    io:format("~p~n", [trace(fun() -> line_move(a, -2) end)]),
    io:format("~p~n", [trace(fun() -> line_trim(a, -3, z) end)]),
    io:format("~p~n", [[sum_into(L, 0) || L <- [[1, 2, 3], [], [1, 2 | 3], 7, [1 | x], lists:seq(1, 1000)]]]),
    io:format("~p~n", [trace(fun() -> sum_into([1, a], 0) end)]),
    io:format("~p~n", [[second(T) || T <- [{a, b}, {a, b, c}, {a}, [a, b], b, {}]]]),
    io:format("~p~n", [[size_case(T) || T <- [{}, {a}, {a, b}, {a, b, c}, {a, b, c, d}, [], a, <<>>, #{}]]]).

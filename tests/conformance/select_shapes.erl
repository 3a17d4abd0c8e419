%% The loader's forms of select_val and select_tuple_arity (loader/transform.cpp): arities close
%% together (a jump table), far apart (a search), 3 and 4 values (a scan), 5 and more atoms (a
%% hash), dense and sparse integers, and each with values outside its cases.
-module(select_shapes).
-export([main/0]).

arity_dense({_}) -> one;
arity_dense({_, _}) -> two;
arity_dense({_, _, _}) -> three;
arity_dense({_, _, _, _, _}) -> five;
arity_dense(_) -> other.

arity_sparse({}) -> zero;
arity_sparse({_}) -> one;
arity_sparse({_, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _}) -> twenty;
arity_sparse(_) -> other.

arity_records({point, _, _}) -> point;
arity_records({rect, _, _, _, _}) -> rect;
arity_records({circle, _, _, _}) -> circle;
arity_records(_) -> other.

three(a) -> 1; three(b) -> 2; three(c) -> 3; three(_) -> 0.
four(a) -> 1; four(b) -> 2; four(c) -> 3; four(d) -> 4; four(_) -> 0.
five(a) -> 1; five(b) -> 2; five(c) -> 3; five(d) -> 4; five(e) -> 5; five(_) -> 0.
ints_dense(1) -> a; ints_dense(2) -> b; ints_dense(3) -> c; ints_dense(5) -> e; ints_dense(_) -> z.
ints_sparse(-7) -> a; ints_sparse(0) -> b; ints_sparse(1000) -> c; ints_sparse(1 bsl 40) -> d; ints_sparse(_) -> z.

main() ->
    Tuples = [{}, {1}, {1, 2}, {1, 2, 3}, {1, 2, 3, 4}, {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5, 6},
              list_to_tuple(lists:seq(1, 19)), list_to_tuple(lists:seq(1, 20)),
              list_to_tuple(lists:seq(1, 21)), {point, 1, 2}, {rect, 0, 0, 1, 1}, {circle, 0, 0, 3},
              {point, 1}, [], a, 3, <<>>, #{}],
    erlang:display([arity_dense(T) || T <- Tuples]),
    erlang:display([arity_sparse(T) || T <- Tuples]),
    erlang:display([arity_records(T) || T <- Tuples]),
    Atoms = [a, b, c, d, e, f, 1, [], {a}],
    erlang:display([{three(X), four(X), five(X)} || X <- Atoms]),
    Ints = [-7, 0, 1, 2, 3, 4, 5, 6, 1000, 1 bsl 40, 1 bsl 70, 1.0, a],
    erlang:display([{ints_dense(X), ints_sparse(X)} || X <- Ints]).

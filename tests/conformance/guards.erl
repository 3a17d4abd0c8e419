%% Guards: every type test, comparison and arithmetic in guards, andalso/orelse, ;/, and guard
%% BIFs that fail silently (the clause is skipped, nothing is raised).
-module(guards).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

type(X) when is_integer(X) -> integer;
type(X) when is_float(X) -> float;
type(X) when is_atom(X) -> atom;
type(X) when is_binary(X) -> binary;
type(X) when is_bitstring(X) -> bitstring;
type(X) when is_list(X) -> list;
type(X) when is_tuple(X) -> tuple;
type(X) when is_map(X) -> map;
type(X) when is_function(X) -> function;
type(X) when is_pid(X) -> pid;
type(X) when is_reference(X) -> reference;
type(X) when is_port(X) -> port;
type(_) -> unknown.

tests(X) ->
    [is_number(X), is_boolean(X), is_function(X, 1), is_record(X, rec, 2), is_tuple(X) andalso tuple_size(X) =:= 2].

size_class(X) when byte_size(X) > 3 -> big_bin;
size_class(X) when length(X) > 3 -> long_list;
size_class(X) when tuple_size(X) > 3 -> big_tuple;
size_class(X) when map_size(X) > 0 -> nonempty_map;
size_class(_) -> other.

silent(X) when element(2, X) =:= b -> second_is_b;
silent(X) when hd(X) =:= 1 -> head_is_1;
silent(X) when X + 1 > 5 -> big_number;
silent(X) when abs(X) > 100 -> never_here;
silent(_) -> fallthrough.

complex(X, Y) when (is_integer(X) andalso X > 0) orelse (is_atom(Y) andalso Y =/= false) -> yes;
complex(X, _) when X =:= 0; X =:= zero -> zero;
complex(_, _) -> no.

range(X) when X >= 1, X =< 10 -> in;
range(X) when not (X > 0) -> nonpositive;
range(_) -> out.

bifs(X) when trunc(X) =:= 3, round(X) =:= 4, float(X) > 3.0, abs(-X) > 3 -> ok_float;
bifs(X) when X rem 2 =:= 0, X div 2 > 1, X band 1 =:= 0, X bsr 1 =:= 3 -> six;
bifs(_) -> nope.

strict(X) when X == 1 -> equal_num;
strict(_) -> not_equal.

exact(X) when X =:= 1 -> exact_one;
exact(_) -> not_exact.

main() ->
    Pid = self(), Ref = make_ref(),
    t(types, fun() -> [type(X) || X <- [1, 1 bsl 80, 1.0, a, <<1>>, <<1:1>>, [], [1], {}, #{}, fun id/1, Pid, Ref]] end),
    t(type_tests, fun() -> [tests(X) || X <- [1, true, fun(_) -> ok end, {rec, 1}, {a, b}, [x]]] end),
    t(size_class, fun() -> [size_class(X) || X <- [<<"abcd">>, [1, 2, 3, 4], {1, 2, 3, 4}, #{a => 1}, <<"ab">>, [1], #{}, 42]] end),
    t(silent_failures, fun() -> [silent(X) || X <- [{a, b}, [1, 2], 10, atom, 2, "x", {}]] end),
    t(complex, fun() -> [complex(X, Y) || {X, Y} <- [{1, false}, {-1, ok}, {-1, false}, {0, false}, {zero, 1}, {a, "s"}]] end),
    t(range, fun() -> [range(X) || X <- [1, 5, 10, 11, 0, -3, 0.5, 10.0]] end),
    t(guard_bifs, fun() -> [bifs(X) || X <- [3.6, 6, 7, 2]] end),
    t(eq_vs_exact, fun() -> {strict(id(1.0)), exact(id(1.0)), strict(id(1)), exact(id(1))} end),
    t(guard_in_case, fun() -> [case X of Y when Y > 2, Y < 5 -> mid; Y when Y >= 5 -> hi; _ -> lo end || X <- [1, 3, 7]] end),
    t(guard_in_if, fun() -> X = id(7), if X > 10 -> a; X > 5, X < 8 -> b; true -> c end end),
    t(andalso_orelse_values, fun() -> {id(true) andalso id(x), id(false) orelse id(y), id(false) andalso error(no), id(true) orelse error(no)} end),
    t(bool_ops, fun() -> {id(true) and id(false), id(true) or id(false), id(true) xor id(true), not id(false)} end),
    t(bool_op_badarg, fun() -> id(1) and id(true) end),
    t(is_function_arity, fun() -> F = fun(A, B) -> {A, B} end, [is_function(F, N) || N <- [0, 1, 2, 3]] end),
    t(node_and_self_guards, fun() -> [case X of P when is_pid(P), node(P) =:= node() -> local_pid; _ -> other end || X <- [Pid, a]] end),
    t(map_guards, fun() -> [case X of M when is_map_key(k, M), map_get(k, M) > 1 -> big_k; _ -> other end || X <- [#{k => 5}, #{k => 0}, #{}, nomap]] end),
    ok.

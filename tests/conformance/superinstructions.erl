%% Sequences the loader fuses into superinstructions (loader/superinstructions.cpp) and the
%% specialised selects, comparisons and inline guard BIFs, at their edges: a fused move whose
%% second source is the first one's destination, tuple elements read into the tuple's own
%% register, tuple matches of the wrong size, dense and sparse integer cases with negative values and holes, comparisons
%% against immediates and non-immediates, element/2 and map_get/2 out of range or on the
%% wrong type (the BIF's errors).
-module(superinstructions).
-export([main/0]).
-export([px/1, tagged/1, own_tag/1]).

%% move2 / move2_call: arguments rotated through registers.
rot(A, B, C) -> rot2(B, C, A).
rot2(A, B, C) -> {A, B, C}.
swap_call(X, Y) -> pair(Y, X).
pair(A, B) -> [A, B].

%% get_two_tuple_elements, including the tuple's register as a destination.
sum_pair({A, B}) -> A + B.
first_two(T) -> {element(1, T), element(2, T)}.
tree_sum({L, R}) -> tree_sum(L) + tree_sum(R);
tree_sum(N) when is_integer(N) -> N.
%% test_arity_get_two: a clause per shape, so a tuple of the wrong size or a non-tuple falls
%% through to the next clause; in own_reg the first element lands in the tuple's register.
shape({A, B}) -> {two, A, B};
shape({A, _, C}) -> {three, A, C};
shape(X) -> {other, X}.
own_reg(T) -> case T of {A, B} -> own_reg2(A, B); _ -> none end.
own_reg2(A, B) -> {A, B}.

%% select_val_table / select_val_linear / the binary search.
dense(-2) -> minus_two; dense(-1) -> minus_one; dense(0) -> zero; dense(1) -> one;
dense(3) -> three; dense(4) -> four; dense(_) -> other.
few(a) -> 1; few(b) -> 2; few(_) -> 0.
few_int(7) -> seven; few_int(-7) -> minus_seven; few_int(_) -> none.
sparse(1) -> one; sparse(1000) -> thousand; sparse(-1000) -> minus_thousand;
sparse(1 bsl 40) -> big_small; sparse(1 bsl 70) -> bignum; sparse(2.0) -> float; sparse(_) -> other.

%% Comparisons against immediates and small constants.
cmp(X) when X =:= ok -> ok_atom;
cmp(X) when X =:= 3 -> three;
cmp(X) when X =/= [] , X < 10 -> below_ten;
cmp(X) when X >= 10.0 -> ten_or_more;
cmp(_) -> other.

%% Inline guard BIFs and their fallbacks.
elem(N, T) -> try element(N, T) catch error:R -> {error, R} end.
mget(K, M) -> try map_get(K, M) catch error:R -> {error, R} end.
mkey(K, M) -> try is_map_key(K, M) catch error:R -> {error, R} end.
tsize(T) -> try tuple_size(T) catch error:R -> {error, R} end.
guarded(T) when element(2, T) =:= x -> yes;
guarded(_) -> no.

%% test_heap_put_list / test_heap_put_tuple2 under GC pressure.
build(0, Acc) -> Acc;
build(N, Acc) -> build(N - 1, [{N, N * 2, [N]} | Acc]).

%% Arithmetic on the tagged words at the small-integer limits.
add(A, B) -> A + B.
sub(A, B) -> A - B.

%% '++' with improper and empty lists.
app(A, B) -> try A ++ B catch error:R -> {error, R} end.

%% allocate_move / allocate_move2: a new frame saving one or two arguments; the frame's heap
%% check may collect (a large live list) before the moves read their x registers.
keep1(X) -> Y = id(X), {X, Y}.
keep2(X, Z) -> Y = id(X), {X, Z, Y}.
grow(0, Acc) -> Acc;
grow(N, Acc) -> keep2(N, length(Acc)), grow(N - 1, [keep1(N) | Acc]).
id(X) -> X.

%% is_tagged_tuple_get: a record (or tagged tuple) matched and one field read, into the tuple's
%% own register too; wrong tag, wrong size and non-tuples fall through.
%% (Exported, so the compiler knows nothing of their arguments and reads the fields.)
-record(pt, {x, y}).
px(#pt{x = X}) -> X;
px(_) -> none.
tagged({item, V, _}) -> V;
tagged(_) -> none.
own_tag(T) -> case T of {tag, V} -> V; _ -> none end.

main() ->
    io:format("~p~n", [rot(1, 2, 3)]),
    io:format("~p~n", [swap_call(a, b)]),
    io:format("~p~n", [{sum_pair({3, 4}), first_two({p, q, r}), tree_sum({{1, 2}, {3, {4, 5}}})}]),
    io:format("~p~n", [[shape(T) || T <- [{1, 2}, {1, 2, 3}, {1}, {}, [1, 2], <<1, 2>>, 7, {{a}, [b]}]]]),
    io:format("~p~n", [[own_reg(T) || T <- [{x, y}, {x}, {x, y, z}, q]]]),
    io:format("~p~n", [[dense(X) || X <- lists:seq(-4, 6)]]),
    io:format("~p~n", [[few(X) || X <- [a, b, c, 1]] ++ [few_int(X) || X <- [7, -7, 0, 7.0]]]),
    io:format("~p~n", [[sparse(X) || X <- [1, 1000, -1000, 1 bsl 40, 1 bsl 70, 2.0, 2, 1.0]]]),
    io:format("~p~n", [[cmp(X) || X <- [ok, 3, 3.0, 9, -5, [], 10, 10.0, 11, 9.5, "a", ok2]]]),
    io:format("~p~n", [[elem(N, T) || {N, T} <- [{1, {a}}, {2, {a}}, {0, {a}}, {-1, {a}}, {a, {a}},
                                                 {1, [a]}, {1 bsl 70, {a}}, {3, {a, b, c}}]]]),
    M = maps:from_list([{K, K * K} || K <- lists:seq(1, 40)]),
    io:format("~p~n", [[mget(K, Mp) || {K, Mp} <- [{3, M}, {41, M}, {a, #{a => 1}}, {b, #{a => 1}}, {a, nomap}]]]),
    io:format("~p~n", [[mkey(K, Mp) || {K, Mp} <- [{3, M}, {41, M}, {a, #{a => 1}}, {a, [x]}]]]),
    io:format("~p~n", [[tsize(T) || T <- [{}, {a, b}, [a], <<>>]]]),
    io:format("~p~n", [[guarded(T) || T <- [{a, x}, {a, y}, {a}, x]]]),
    L = build(20000, []),
    io:format("~p~n", [{length(L), lists:sum([A + B || {A, B, _} <- L]), lists:last(L)}]),
    Max = (1 bsl 59) - 1, Min = -(1 bsl 59),
    io:format("~p~n", [[add(Max, 1), add(Max, 0), add(Min, -1), sub(Min, 1), sub(Max, -1), sub(0, Min), add(1.5, 2),
                        try sub(a, 1) catch error:R -> R end]]),
    io:format("~p~n", [[app([1, 2], [3]), app([], x), app([1 | 2], [3]), app(a, []), app("ab", "cd")]]),
    io:format("~p~n", [{keep1(a), keep2(b, c), length(grow(30000, []))}]),
    io:format("~p~n", [[px(T) || T <- [#pt{x = 1, y = 2}, {pt, 1}, {qt, 1, 2}, {pt, 1, 2, 3}, pt, [pt, 1, 2]]]]),
    io:format("~p~n", [[tagged(T) || T <- [{item, 5, x}, {item, 5}, {other, 5, x}, {item, 5, x, y}, item, "ab"]]]),
    io:format("~p~n", [[own_tag(T) || T <- [{tag, 1}, {tag}, {gat, 1}, {tag, 1, 2}, 3]]]).

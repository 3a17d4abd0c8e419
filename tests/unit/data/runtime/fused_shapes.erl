%% Code shapes the loader fuses into superinstructions (loader/superinstructions.cpp); the
%% runtime_fused_shapes test loads this module and looks for each fused instruction.
-module(fused_shapes).
-export([sums/1, floats/3, halves/1, pair_sum/1, take/3, keep/2, tag_value/1]).
-export([saved/2, trimmed/3, each/2, second/1, lt/1, keep3/3, keep4/4, double/1, digit/1, firsts/1, acc/2]).

%% Float code is compiled to float registers only where the compiler knows the operands are
%% floats: the local functions below are called with floats only.
floats(X, Y, Z) when is_float(X), is_float(Y), is_float(Z) ->
    {mix(X, Y), orbit(0.0, 0.0, X, Y, 50), product_minus(X, Y, Z), product_over(X, Y, Z)}.

%% Likewise the binary loops: called with binaries only, they keep one match context.
sums(Bin) when is_binary(Bin) -> {bytes(Bin, 0), words(Bin, 0)}.

bytes(<<B, Rest/binary>>, Acc) -> bytes(Rest, Acc + B);
bytes(<<>>, Acc) -> Acc.

words(<<W:16, Rest/binary>>, Acc) -> words(Rest, Acc + W);
words(_, Acc) -> Acc.

mix(X, Y) ->
    A = X * Y,
    B = X + Y,
    C = X - Y,
    D = X / Y,
    {A, B, C, D, A * B + C / D}.

orbit(Zr, Zi, _Cr, _Ci, 0) -> {Zr, Zi};
orbit(Zr, Zi, Cr, Ci, N) ->
    Zr2 = Zr * Zr,
    Zi2 = Zi * Zi,
    if
        Zr2 + Zi2 > 4.0 -> {escaped, N};
        true -> orbit(Zr2 - Zi2 + Cr, 2.0 * Zr * Zi + Ci, Cr, Ci, N - 1)
    end.

product_minus(X, Y, Z) -> X * Y - Z.
product_over(X, Y, Z) -> X * Y / Z.

halves(X) -> {X div 8, X rem 2}.

pair_sum({A, B}) -> A + B.

take(I, M, Acc) when I > M -> Acc;
take(I, M, Acc) -> receive {item, I} -> take(I + 1, M, Acc + I) end.

%% A new frame saving its arguments (allocate_move2), and a tagged tuple matched with one field
%% read (is_tagged_tuple_get).
keep(X, Y) -> Z = id(X), {X, Y, Z}.
id(X) -> X.

tag_value({tag, V}) -> V;
tag_value(_) -> none.

%% Runs ending in a call, the line record before the call taken in: allocate_move_call (a frame
%% saving one argument, then a call) and trim_call (a frame shrunk before its last call).
saved(X, Y) ->
    R = id(X),
    {R, Y}.

trimmed(X, Y, Z) ->
    A = id(X),
    B = id(Y),
    C = id(A + B),
    {C, Z}.

%% A list clause head that saves an argument: is_nonempty_list_allocate_move_get_list.
each([H | T], X) ->
    _ = id(H),
    each(T, X);
each([], _) -> ok.

%% A tuple of known size with one field read: test_arity_get.
second({_, B}) -> B;
second(_) -> none.

%% A list whose head is a given character (is_nonempty_list_get_list_eq), frames saving three
%% and four arguments (allocate_move3, allocate_move4), a body-recursive list builder's last step
%% (test_heap_put_list_return), an integer at least a constant (is_integer_ge_small).
lt([$< | T]) -> T;
lt(_) -> none.

keep3(A, B, C) ->
    X = id(A),
    {X, A, B, C}.
keep4(A, B, C, D) ->
    X = id(B),
    {X, A, B, C, D}.

double([H | T]) -> [2 * H | double(T)];
double([]) -> [].

digit(X) when is_integer(X), X >= $0 -> X - $0;
digit(_) -> none.

%% A list's first two elements (is_nonempty_list_get_list2) and a loop consing onto its
%% accumulator (test_heap_put_list_move_call_only).
firsts([A, B | T]) -> firsts_k(B, A, T);
firsts(_) -> none.
firsts_k(B, A, T) -> {A, B, T}.

acc(N, Acc) when N > 0 -> acc(N - 1, [N | Acc]);
acc(_, Acc) -> Acc.

%% Spectral norm of the infinite matrix A(i,j) = 1 / ((i+j)(i+j+1)/2 + i + 1), truncated to
%% N x N, by power iteration: vectors are lists of floats, each product a loop over lists.
%% Float arithmetic and integer-to-float conversion in the inner loop.
-module(spectral_norm).
-export([main/0, quick/0]).

a(I, J) -> 1.0 / ((I + J) * (I + J + 1) div 2 + I + 1).

%% (A u)_i and (A^T u)_i for every i.
times(U, N) -> [row(I, 0, U, 0.0) || I <- lists:seq(0, N - 1)].
times_t(U, N) -> [col(I, 0, U, 0.0) || I <- lists:seq(0, N - 1)].

row(_, _, [], Acc) -> Acc;
row(I, J, [Uj | U], Acc) -> row(I, J + 1, U, Acc + a(I, J) * Uj).

col(_, _, [], Acc) -> Acc;
col(I, J, [Uj | U], Acc) -> col(I, J + 1, U, Acc + a(J, I) * Uj).

%% A^T A u
ata(U, N) -> times_t(times(U, N), N).

iterate(0, U, V, _) -> {U, V};
iterate(K, U, _, N) ->
    V = ata(U, N),
    iterate(K - 1, ata(V, N), V, N).

dot(Xs, Ys) -> lists:foldl(fun({X, Y}, Acc) -> Acc + X * Y end, 0.0, lists:zip(Xs, Ys)).

run(N) ->
    {U, V} = iterate(10, lists:duplicate(N, 1.0), [], N),
    Norm = math:sqrt(dot(U, V) / dot(V, V)),
    erlang:display({spectral_norm, N, round(Norm * 1.0e12)}).

main() -> run(800).
quick() -> run(100).

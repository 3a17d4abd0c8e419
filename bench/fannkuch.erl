%% Fannkuch-redux: for every permutation of 1..N, count the prefix reversals ("pancake
%% flips") until 1 comes first. Permutations are generated with Heap's algorithm on a tuple
%% (setelement swaps); the flips work on the permutation as a list (reverse a prefix, append).
%% Checksum: the permutation count, the largest flip count, and an alternating sum of flips
%% in generation order.
-module(fannkuch).
-export([main/0, quick/0]).

%% Visits every permutation of the first K positions of T; returns the final tuple and the
%% accumulator {Count, MaxFlips, Checksum}.
heap(1, T, Acc) -> {T, visit(T, Acc)};
heap(K, T, Acc) ->
    {T1, Acc1} = heap(K - 1, T, Acc),
    heap_loop(1, K, T1, Acc1).

heap_loop(K, K, T, Acc) -> {T, Acc};
heap_loop(I, K, T, Acc) ->
    J = case K band 1 of 0 -> I; 1 -> 1 end,
    {T1, Acc1} = heap(K - 1, swap(T, J, K), Acc),
    heap_loop(I + 1, K, T1, Acc1).

swap(T, I, J) ->
    A = element(I, T), B = element(J, T),
    setelement(J, setelement(I, T, B), A).

visit(T, {Count, Max, Sum}) ->
    F = flips(tuple_to_list(T), 0),
    Signed = case Count band 1 of 0 -> F; 1 -> -F end,
    {Count + 1, max(Max, F), Sum + Signed}.

flips([1 | _], N) -> N;
flips([H | _] = L, N) -> flips(reverse_prefix(H, L, []), N + 1).

reverse_prefix(0, Rest, Acc) -> Acc ++ Rest;
reverse_prefix(K, [X | Rest], Acc) -> reverse_prefix(K - 1, Rest, [X | Acc]).

%% Each round starts from 1..N rotated left by the round number: the same permutations in
%% another order. (The checksum's sign follows the permutation's parity, which Heap's
%% algorithm flips at every step, so the rounds agree when the rotation is even.)
run(Rounds, N) ->
    Results = [begin
                   {Front, Back} = lists:split(R rem N, lists:seq(1, N)),
                   {_, Acc} = heap(N, list_to_tuple(Back ++ Front), {0, 0, 0}),
                   Acc
               end || R <- lists:seq(0, Rounds - 1)],
    erlang:display({fannkuch, Rounds, N, Results}).

main() -> run(6, 9).
quick() -> run(1, 8).

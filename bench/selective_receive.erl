%% Selective receive over a long mailbox: a worker process sends itself N tagged messages
%% {item, K, V}, then receives them by key in a scrambled order, so each receive scans past
%% the messages still queued before the one it names (on average half the queue). Measures
%% the receive loop's scan (loop_rec / tuple and key tests / loop_rec_end), no scheduling.
-module(selective_receive).
-export([main/0, quick/0]).

%% A permutation of 1..N (N and 7919 are coprime for the sizes used).
key(I, N) -> (I * 7919) rem N + 1.

fill(0, _) -> ok;
fill(K, N) -> self() ! {item, K, K * 3 rem 101}, fill(K - 1, N).

take(0, _, Acc) -> Acc;
take(I, N, Acc) ->
    K = key(I, N),
    receive {item, K, V} -> take(I - 1, N, Acc + V * (I rem 13)) end.

round_(N) -> fill(N, N), take(N, N, 0).

run(Rounds, N) ->
    Parent = self(),
    Worker = spawn(fun() -> Parent ! {self(), [round_(N) || _ <- lists:seq(1, Rounds)]} end),
    receive {Worker, Sums} -> erlang:display({selective_receive, Rounds, N, lists:sum(Sums)}) end.

main() -> run(15, 8000).
quick() -> run(2, 2000).

%% Parallel compute: K independent fib jobs spawned at once, results collected. With +S 1 they
%% share one scheduler; with +S 2 they should take about half the time (bench/run.sh --sched N).
-module(parallel).
-export([main/0, quick/0]).

main() -> run(16, 36).
quick() -> run(4, 20).

run(K, N) ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, self(), fib(N)} end) || _ <- lists:seq(1, K)],
    Results = [receive {done, P, V} -> V end || P <- Pids],
    erlang:display({parallel, K, N, lists:sum(Results)}).

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).

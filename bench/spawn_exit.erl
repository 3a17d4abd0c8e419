%% Spawn/exit: spawns N short-lived processes in batches, monitors each and waits for every
%% 'DOWN'. Measures process creation, exit and monitor signals.
-module(spawn_exit).
-export([main/0, quick/0]).

main() -> run(1000000).
quick() -> run(5000).

run(N) ->
    Sum = batches(N, 0),
    erlang:display({spawn_exit, N, Sum}).

%% Batches of 1,000 keep the number of live processes bounded.
batches(0, Acc) -> Acc;
batches(N, Acc) ->
    B = min(N, 1000),
    Refs = [element(2, spawn_monitor(fun() -> exit(I rem 3) end)) || I <- lists:seq(1, B)],
    batches(N - B, Acc + collect(Refs, 0)).

collect([], Acc) -> Acc;
collect([R | Rs], Acc) -> receive {'DOWN', R, process, _, Why} -> collect(Rs, Acc + Why) end.

%% Idle: 1,000 processes wait in receive and main waits 2 s. A VM whose schedulers sleep when
%% nothing is runnable uses almost no CPU; tools/stress.sh measures user+sys CPU seconds.
-module(idle).
-export([main/0]).

main() ->
    Ps = [spawn(fun() -> receive stop -> ok end end) || _ <- lists:seq(1, 1000)],
    receive after 2000 -> ok end,
    Refs = [monitor(process, P) || P <- Ps],
    [P ! stop || P <- Ps],
    [receive {'DOWN', R, process, _, normal} -> ok end || R <- Refs],
    erlang:display({idle, length(Ps)}).

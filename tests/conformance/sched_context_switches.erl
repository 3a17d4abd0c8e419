%% statistics(context_switches): {Count, 0}, Count an integer that grows by at least one per
%% time a process is scheduled in: 200 round trips with an echo process schedule each side in
%% 200 times. (The counts themselves differ from erl's: they depend on the boot.)
-module(sched_context_switches).
-export([main/0]).

main() ->
    {C0, Z0} = erlang:statistics(context_switches),
    Self = self(),
    Echo = spawn(fun Loop() -> receive {P, M} -> P ! M, Loop(); stop -> ok end end),
    ok = ping(Echo, Self, 200),
    Echo ! stop,
    {C1, Z1} = erlang:statistics(context_switches),
    io:format("~p~n", [{is_integer(C0), Z0, Z1, C1 - C0 >= 400}]).

ping(_, _, 0) -> ok;
ping(E, S, N) ->
    E ! {S, N},
    receive N -> ping(E, S, N - 1) end.

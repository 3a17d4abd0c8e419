%% erlang:trace/3 inheritance: set_on_spawn and set_on_first_spawn through spawn chains,
%% set_on_link and set_on_first_link through link/1 and spawn_link, with the spawned and
%% getting_linked events the inheriting processes then emit, and their flags afterwards.
-module(trace_proc_set_on).
-export([main/0]).
-include("trace_proc_util.hrl").

flags(P) ->
    {flags, F} = erlang:trace_info(P, flags),
    {tracer, T} = erlang:trace_info(P, tracer),
    io:format("  flags of ~p: ~p, tracer ~p~n", [norm(P), lists:sort(F), norm(T)]).

%% Agent A starts an agent child (spawn or spawn_link) and returns it.
child(A, How) -> do(A, fun() -> erlang:How(fun agent/0) end).

chain(Label, Flags, How) ->
    A = start_agent(),
    name([{self(), main}, {A, a}]),
    1 = erlang:trace(A, true, Flags),
    C1 = child(A, How),
    C2 = child(C1, How),
    C3 = child(A, How),
    show(Label, collect([A, C1, C2, C3])),
    [flags(P) || P <- [A, C1, C2, C3]],
    kill_all([C3, C2, C1, A]).

linking(Label, Flags) ->
    A = start_agent(),
    B = start_agent(),
    C = start_agent(),
    D = start_agent(),
    name([{self(), main}, {A, a}, {B, b}, {C, c}, {D, d}]),
    1 = erlang:trace(A, true, Flags),
    do(A, fun() -> link(B) end),
    do(B, fun() -> link(C) end),
    do(A, fun() -> link(D) end),
    show(Label, collect([A, B, C, D])),
    [flags(P) || P <- [A, B, C, D]],
    kill_all([D, C, B, A]).

%% Kills them and prints the exit events of the traced ones, sorted: a kill reaches the
%% processes linked to the killed one as well, in no fixed order.
kill_all(Ps) ->
    [begin
         M = monitor(process, P),
         unlink(P),
         exit(P, kill),
         receive {'DOWN', M, _, _, _} -> ok end
     end || P <- Ps],
    io:format("  killed: ~p~n", [lists:sort([norm(M) || M <- collect([])])]).

main() ->
    process_flag(trap_exit, true),
    chain("set_on_spawn", [procs, set_on_spawn], spawn),
    chain("set_on_first_spawn", [procs, set_on_first_spawn], spawn),
    chain("set_on_spawn and set_on_first_spawn", [procs, set_on_spawn, set_on_first_spawn], spawn),
    chain("set_on_spawn without procs", [send, set_on_spawn], spawn),
    chain("set_on_link through spawn_link", [procs, set_on_link], spawn_link),
    chain("set_on_first_link through spawn_link", [procs, set_on_first_link], spawn_link),
    linking("set_on_link through link/1", [procs, set_on_link]),
    linking("set_on_first_link through link/1", [procs, set_on_first_link]),
    linking("set_on_link without procs", ['receive', set_on_link]),
    ok.

%% erlang:trace/3 `running`, `running_procs`, `exiting` and `scheduler_id`: in and out with the
%% function the process is in, out_exited with 0, the scheduler number before the timestamp.
%% A process may be scheduled out and in again any number of times while it runs, so each step
%% prints its events with repeats of the same pair folded into one.
-module(trace_proc_running).
-export([main/0]).
-include("trace_proc_util.hrl").

%% Consecutive {in, X}, {out, X} pairs repeated are folded (preemption is not deterministic).
fold([E, F, E, F | Rest]) -> fold([E, F | Rest]);
fold([E | Rest]) -> [E | fold(Rest)];
fold([]) -> [].

events(Msgs) -> fold([norm(M) || M <- Msgs, element(1, M) =:= trace]).

run(Label, Flags, Action) ->
    A = start_agent(),
    ping(A),
    name([{self(), main}, {A, a}]),
    1 = erlang:trace(A, true, Flags),
    Action(A),
    Msgs = collect([A]),
    io:format("~s:~n", [Label]),
    [io:format("  ~p~n", [E]) || E <- events(Msgs)],
    kill(A),
    collect([]).  % what the kill itself traced

stop(A) ->
    M = monitor(process, A),
    A ! stop,
    receive {'DOWN', M, _, _, _} -> ok end.

kill(A) ->
    M = monitor(process, A),
    exit(A, kill),
    receive {'DOWN', M, _, _, _} -> ok end.

main() ->
    Work = fun(A) -> do(A, fun() -> ok end) end,
    run("running: one request", [running], Work),
    run("running_procs: one request", [running_procs], Work),
    run("running: the process ends", [running], fun stop/1),
    run("running: the process is killed", [running], fun kill/1),
    run("exiting: the process ends", [exiting], fun stop/1),
    run("exiting: the process is killed", [exiting], fun kill/1),
    run("running, exiting, procs: the process ends", [running, exiting, procs], fun stop/1),
    run("running, exiting, procs: the process is killed", [running, exiting, procs], fun kill/1),
    A = start_agent(),
    ping(A),
    1 = erlang:trace(A, true, [running, scheduler_id]),
    do(A, fun() -> ok end),
    [{trace, A, in, _, S1}, {trace, A, out, _, S2} | _] = collect([A]),
    io:format("scheduler_id: ~p ~p~n", [is_integer(S1) andalso S1 > 0, is_integer(S2) andalso S2 > 0]),
    1 = erlang:trace(A, false, [running, scheduler_id]),
    1 = erlang:trace(A, true, [procs, scheduler_id, monotonic_timestamp]),
    kill(A),
    [{trace_ts, A, exit, killed, S3, T}] = collect([]),
    io:format("scheduler_id before the timestamp: ~p ~p~n", [is_integer(S3), is_integer(T)]),
    ok.

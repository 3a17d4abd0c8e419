%% erlang:trace/3 tracers: {tracer, Pid}, {tracer, erl_tracer, Pid}, {tracer, Port} (the trace
%% messages reach the port in the external term format: here cat echoes them back), one tracer
%% per process, trace(P, false, ...), and what happens once the tracer is gone.
-module(trace_proc_tracer).
-export([main/0]).
-include("trace_proc_util.hrl").

%% A tracer process that forwards what it gets to the test process.
forwarder(To) -> receive M -> To ! {forwarded, M}, forwarder(To) end.

forwarded() -> receive {forwarded, M} -> norm(M) end.

info(P) ->
    {flags, F} = erlang:trace_info(P, flags),
    {tracer, T} = erlang:trace_info(P, tracer),
    io:format("  flags ~p tracer ~p~n", [lists:sort(F), norm(T)]).

error_of(F) ->
    try F() of V -> V catch C:R -> {C, R} end.

main() ->
    %% The one-tracer-per-process refusals are logged by erts with a time stamp: not printed.
    logger:set_primary_config(level, none),
    process_flag(trap_exit, true),
    Self = self(),
    A = start_agent(),
    T1 = spawn_link(fun() -> forwarder(Self) end),
    T2 = spawn_link(fun() -> forwarder(Self) end),
    name([{self(), main}, {A, a}, {T1, t1}, {T2, t2}]),
    io:format("{tracer, Pid}: ~p~n", [erlang:trace(A, true, [send, {tracer, T1}])]),
    info(A),
    do(A, fun() -> self() ! x, receive x -> ok end end),
    io:format("  ~p~n  ~p~n", [forwarded(), forwarded()]),
    io:format("another tracer: ~p~n", [error_of(fun() -> erlang:trace(A, true, [procs, {tracer, T2}]) end)]),
    io:format("the default tracer (self): ~p~n", [error_of(fun() -> erlang:trace(A, true, [procs]) end)]),
    io:format("the same tracer again: ~p~n", [erlang:trace(A, true, ['receive', {tracer, T1}])]),
    info(A),
    io:format("flags off, by another process: ~p~n", [erlang:trace(A, false, ['receive'])]),
    info(A),
    io:format("all off: ~p~n", [erlang:trace(A, false, [all])]),
    info(A),
    io:format("{tracer, erl_tracer, Pid}: ~p~n", [erlang:trace(A, true, [send, {tracer, erl_tracer, T2}])]),
    info(A),
    do(A, fun() -> self() ! y, receive y -> ok end end),
    io:format("  ~p~n  ~p~n", [forwarded(), forwarded()]),
    %% The tracer dies: the process is no longer traced once it next has an event.
    unlink(T2),
    exit(T2, kill),
    receive {'EXIT', T2, _} -> ok after 0 -> ok end,
    M2 = monitor(process, T2),
    receive {'DOWN', M2, _, _, _} -> ok end,
    do(A, fun() -> self() ! z, receive z -> ok end end),
    io:format("after the tracer died and an event:~n"),
    info(A),
    io:format("a new tracer then: ~p~n", [erlang:trace(A, true, [send, {tracer, T1}])]),
    info(A),
    1 = erlang:trace(A, false, [all]),
    %% new processes with a tracer that dies
    0 = erlang:trace(new, true, [procs, {tracer, T1}]),
    io:format("new: ~p ~p~n", [erlang:trace_info(new, flags), norm(erlang:trace_info(new, tracer))]),
    unlink(T1),
    exit(T1, kill),
    M1 = monitor(process, T1),
    receive {'DOWN', M1, _, _, _} -> ok end,
    io:format("new once the tracer is gone: ~p ~p~n", [erlang:trace_info(new, flags), erlang:trace_info(new, tracer)]),
    %% A port as the tracer.
    Port = open_port({spawn, "cat"}, [binary]),
    io:format("{tracer, Port}: ~p~n", [erlang:trace(A, true, [procs, {tracer, Port}])]),
    io:format("  tracer is the port: ~p~n", [erlang:trace_info(A, tracer) =:= {tracer, Port}]),
    do(A, fun() -> register(trace_proc_tracer_a, self()), unregister(trace_proc_tracer_a) end),
    io:format("  ~p~n", [norm(from_port(Port, <<>>, 2))]),
    1 = erlang:trace(A, false, [all]),
    port_close(Port),
    io:format("a closed port: ~p~n", [error_of(fun() -> erlang:trace(A, true, [procs, {tracer, Port}]) end)]),
    info(A),
    io:format("a dead pid: ~p~n", [error_of(fun() -> erlang:trace(A, true, [procs, {tracer, T1}]) end)]),
    info(A),
    do(A, fun() -> register(trace_proc_tracer_a, self()), unregister(trace_proc_tracer_a) end),
    io:format("after an event:~n"),
    info(A),
    io:format("not a tracer: ~p~n", [error_of(fun() -> erlang:trace(A, true, [procs, {tracer, foo}]) end)]),
    ok.

%% N terms in the external format, as the port echoes them (in pieces of any size).
from_port(_Port, <<>>, 0) -> [];
from_port(Port, Buf, N) when byte_size(Buf) > 0 ->
    try binary_to_term(Buf, [used]) of
        {T, Used} ->
            <<_:Used/binary, Rest/binary>> = Buf,
            [T | from_port(Port, Rest, N - 1)]
    catch error:badarg -> more(Port, Buf, N)
    end;
from_port(Port, Buf, N) -> more(Port, Buf, N).

more(Port, Buf, N) ->
    receive {Port, {data, D}} -> from_port(Port, <<Buf/binary, D/binary>>, N) end.

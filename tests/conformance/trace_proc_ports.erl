%% erlang:trace/3 on ports: trace(Port, ...), trace(new_ports, ...) and the port events erl
%% gives a spawn port: open, getting_linked, 'receive' of its commands, close and connect,
%% send of its data and replies, getting_unlinked, closed. (running_ports, the port's
%% scheduling, is not among them: beamvm's ports are not scheduled tasks.)
-module(trace_proc_ports).
-export([main/0]).
-include("trace_proc_util.hrl").

%% Waits for Port's data, then for the trace messages made so far.
data(Port) ->
    receive {Port, {data, D}} -> D end.

port_events() ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    [norm(M) || M <- flush()].

main() ->
    %% beamvm opens its standard output port on first use: before new ports are traced.
    io:format("start~n"),
    name([{self(), main}]),
    0 = erlang:trace(new_ports, true, [ports, send, 'receive']),
    io:format("new_ports: ~p~n", [erlang:trace_info(new_ports, flags)]),
    P = open_port({spawn, "cat"}, []),
    io:format("flags: ~p~n", [erlang:trace_info(P, flags)]),
    io:format("tracer: ~p~n", [norm(erlang:trace_info(P, tracer))]),
    io:format("open: ~p~n", [port_events()]),
    P ! {self(), {command, "x"}},
    "x" = data(P),
    io:format("Port ! {Pid, {command, _}}: ~p~n", [port_events()]),
    port_command(P, "y"),
    "y" = data(P),
    io:format("port_command/2: ~p~n", [port_events()]),
    Q = start_agent(),
    name([{self(), main}, {Q, q}]),
    P ! {self(), {connect, Q}},
    receive {P, connected} -> ok end,
    io:format("connect: ~p~n", [port_events()]),
    unlink(P),
    io:format("unlink: ~p~n", [port_events()]),
    link(P),
    io:format("link: ~p~n", [port_events()]),
    unlink(P),
    port_close(P),
    io:format("port_close/1: ~p~n", [port_events()]),
    0 = erlang:trace(new_ports, false, [all]),
    io:format("new_ports off: ~p~n", [erlang:trace_info(new_ports, flags)]),
    P2 = open_port({spawn, "cat"}, []),
    io:format("untraced port: ~p~n", [erlang:trace_info(P2, flags)]),
    io:format("trace(Port, true, [ports, procs]): ~p~n", [erlang:trace(P2, true, [ports, procs])]),
    io:format("flags: ~p~n", [erlang:trace_info(P2, flags)]),
    P2 ! {self(), close},
    receive {P2, closed} -> ok end,
    io:format("Port ! {Pid, close}: ~p~n", [port_events()]),
    io:format("trace_info of a closed port: ~p~n", [erlang:trace_info(P2, flags)]),
    io:format("trace of a closed port: ~p~n", [catch element(1, catch erlang:trace(P2, true, [ports]))]),
    io:format("trace_info(Port, bad): ~p~n", [catch erlang:trace_info(P2, bad)]),
    ok.

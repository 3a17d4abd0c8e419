%% UDP round trips (issue 23): one echo socket served by one process in {active, true}; Clients
%% processes, each with a socket of its own, send a Size-byte datagram and wait (passive recv)
%% for the echo, Rounds times. A datagram that is not answered within LOST_MS counts as lost
%% and the client goes on (loopback does not drop datagrams under this load, but a lost one
%% must not hang the run). Rate: answered round trips per second, all clients together.
%% bench/net_run.sh calls run/3.
-module(net_udp_rtt).
-export([run/3]).

-define(LOST_MS, 1000).
-define(WAIT_MS, 120000).

run(Size, Clients, Rounds) ->
    {ok, Server} = gen_udp:open(0, [binary, {active, true}, {ip, {127, 0, 0, 1}},
                                    {recbuf, 1 bsl 20}]),
    {ok, Port} = inet:port(Server),
    Echo = spawn_link(fun() -> echo(Server) end),
    ok = gen_udp:controlling_process(Server, Echo),
    Parent = self(),
    Payload = list_to_binary([I band 255 || I <- lists:seq(1, Size)]),
    T0 = erlang:monotonic_time(microsecond),
    Pids = [spawn_link(fun() -> Parent ! {done, self(), client(Port, Payload, Rounds)} end)
            || _ <- lists:seq(1, Clients)],
    Answered = [receive {done, P, N} -> N after ?WAIT_MS -> exit(client_timeout) end
                || P <- Pids],
    T1 = erlang:monotonic_time(microsecond),
    unlink(Echo),
    exit(Echo, kill),
    N = lists:sum(Answered),
    io:format("check net_udp_rtt size ~p clients ~p rounds ~p all_answered ~p~n",
              [Size, Clients, Rounds, N =:= Clients * Rounds]),
    io:format("rate ~.1f round_trips/s~n", [N / ((T1 - T0) / 1.0e6)]).

echo(S) ->
    receive
        {udp, S, Ip, Port, Data} -> ok = gen_udp:send(S, Ip, Port, Data), echo(S)
    end.

client(Port, Payload, Rounds) ->
    {ok, S} = gen_udp:open(0, [binary, {active, false}, {ip, {127, 0, 0, 1}}]),
    N = rounds(S, Port, Payload, Rounds, 0),
    gen_udp:close(S),
    N.

rounds(_, _, _, 0, Ok) -> Ok;
rounds(S, Port, Payload, N, Ok) ->
    ok = gen_udp:send(S, {127, 0, 0, 1}, Port, Payload),
    case gen_udp:recv(S, 0, ?LOST_MS) of
        {ok, {_, Port, Payload}} -> rounds(S, Port, Payload, N - 1, Ok + 1);
        {ok, _Other} -> rounds(S, Port, Payload, N - 1, Ok);
        {error, timeout} -> rounds(S, Port, Payload, N - 1, Ok)
    end.

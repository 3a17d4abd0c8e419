%% TCP echo throughput (issue 23): Conns loopback connections, {packet, 4}, {active, once} on
%% both ends; each client sends a Size-byte message, waits for its echo, compares it with what
%% it sent, Rounds times. Connections are made before the clock starts; the time covers the
%% echo rounds of all clients at once. Rate: MB (10^6 bytes) of payload echoed per second;
%% each of those bytes crosses loopback twice (there and back).
%% run/4 takes gen_tcp's inet_backend for both ends: inet (the default, the inet driver) or
%% socket (gen_tcp over the socket module).
%% bench/net_run.sh calls run/3,4; the check line is the same on every VM, the rate line not.
-module(net_tcp_echo).
-export([run/3, run/4]).

%% No receive waits longer than this: a lost message fails the run instead of hanging it.
-define(WAIT_MS, 30000).

run(Size, Conns, Rounds) -> run(Size, Conns, Rounds, inet).

run(Size, Conns, Rounds, Backend) ->
    {ok, L} = gen_tcp:listen(0, [{inet_backend, Backend}, binary, {packet, 4}, {active, false}, {reuseaddr, true},
                                 {ip, {127, 0, 0, 1}}, {backlog, 1024}]),
    {ok, Port} = inet:port(L),
    spawn_link(fun() -> accept_loop(L, Conns) end),
    Parent = self(),
    Payload = payload(Size),
    Clients = [spawn_link(fun() -> client(Parent, Backend, Port, Payload, Rounds) end)
               || _ <- lists:seq(1, Conns)],
    [receive {connected, C} -> ok after ?WAIT_MS -> exit(connect_timeout) end || C <- Clients],
    T0 = erlang:monotonic_time(microsecond),
    [C ! go || C <- Clients],
    Echoed = [receive {done, C, N} -> N after ?WAIT_MS * 4 -> exit(echo_timeout) end
              || C <- Clients],
    T1 = erlang:monotonic_time(microsecond),
    gen_tcp:close(L),
    io:format("check net_tcp_echo ~p size ~p connections ~p rounds ~p echoed_ok ~p~n",
              [Backend, Size, Conns, Rounds, lists:sum(Echoed)]),
    Bytes = Size * Rounds * Conns,
    io:format("rate ~.2f MB/s~n", [Bytes / ((T1 - T0) / 1.0e6) / 1.0e6]).

%% Bytes that are not all the same, so that a misplaced chunk shows in the comparison.
payload(Size) -> list_to_binary([I band 255 || I <- lists:seq(1, Size)]).

accept_loop(_, 0) -> ok;
accept_loop(L, N) ->
    {ok, S} = gen_tcp:accept(L, ?WAIT_MS),
    Pid = spawn(fun() -> receive go -> ok end, echo(S) end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    accept_loop(L, N - 1).

echo(S) ->
    ok = inet:setopts(S, [{active, once}]),
    receive
        {tcp, S, Data} -> ok = gen_tcp:send(S, Data), echo(S);
        {tcp_closed, S} -> ok;
        {tcp_error, S, _} -> gen_tcp:close(S)
    after ?WAIT_MS * 4 -> gen_tcp:close(S)
    end.

client(Parent, Backend, Port, Payload, Rounds) ->
    {ok, S} = gen_tcp:connect({127, 0, 0, 1}, Port, [{inet_backend, Backend}, binary, {packet, 4}, {active, false}],
                              ?WAIT_MS),
    Parent ! {connected, self()},
    receive go -> ok end,
    Ok = rounds(S, Payload, Rounds, 0),
    gen_tcp:close(S),
    Parent ! {done, self(), Ok}.

%% Returns how many echoes came back equal to the payload.
rounds(_, _, 0, Ok) -> Ok;
rounds(S, Payload, N, Ok) ->
    ok = gen_tcp:send(S, Payload),
    ok = inet:setopts(S, [{active, once}]),
    receive
        {tcp, S, Payload} -> rounds(S, Payload, N - 1, Ok + 1);
        {tcp, S, _Other} -> rounds(S, Payload, N - 1, Ok)
    after ?WAIT_MS -> exit(no_echo)
    end.

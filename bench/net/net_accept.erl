%% Connection accept rate (issue 23): Connectors processes each connect to one listening socket
%% Total / Connectors times, one connection after the other; an acceptor process accepts each
%% and hands it to a process of its own (as a server does), which waits for the client's close
%% and closes its end. A connection counts when the client has seen its end closed by the
%% server (recv gives {error, closed}), so the whole life of the connection is inside the time.
%% Rate: connections per second. bench/net_run.sh calls run/2.
-module(net_accept).
-export([run/2]).

-define(WAIT_MS, 30000).

run(Total, Connectors) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true},
                                 {ip, {127, 0, 0, 1}}, {backlog, 1024}]),
    {ok, Port} = inet:port(L),
    Acceptor = spawn_link(fun() -> accept_loop(L) end),
    Parent = self(),
    PerConnector = Total div Connectors,
    T0 = erlang:monotonic_time(microsecond),
    Pids = [spawn_link(fun() -> Parent ! {done, self(), connect_loop(Port, PerConnector, 0)} end)
            || _ <- lists:seq(1, Connectors)],
    Done = [receive {done, P, N} -> N after ?WAIT_MS * 4 -> exit(connect_timeout) end
            || P <- Pids],
    T1 = erlang:monotonic_time(microsecond),
    unlink(Acceptor),
    exit(Acceptor, kill),
    gen_tcp:close(L),
    N = lists:sum(Done),
    io:format("check net_accept connectors ~p connections_closed_by_server ~p~n",
              [Connectors, N]),
    io:format("rate ~.1f connections/s~n", [N / ((T1 - T0) / 1.0e6)]).

accept_loop(L) ->
    {ok, S} = gen_tcp:accept(L),
    Pid = spawn(fun() -> receive go -> ok end, serve(S) end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    accept_loop(L).

%% The server's side of a connection: wait for the client's one byte, close.
serve(S) ->
    _ = gen_tcp:recv(S, 1, ?WAIT_MS),
    gen_tcp:close(S).

%% Returns how many connections this connector saw through: connected, sent its byte, and
%% then saw the server close.
connect_loop(_, 0, Ok) -> Ok;
connect_loop(Port, N, Ok) ->
    {ok, S} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {active, false}], ?WAIT_MS),
    ok = gen_tcp:send(S, <<"x">>),
    R = gen_tcp:recv(S, 0, ?WAIT_MS),
    gen_tcp:close(S),
    connect_loop(Port, N - 1, case R of {error, closed} -> Ok + 1; _ -> Ok end).

%% An example TCP server: echoes every line a client sends, to any number of clients at once
%% (one process per connection), on the loopback address. Runs until the VM is stopped.
%%   build/beamvm -noshell -pa ebin -run echo_server main 5555
%% Port 0 lets the system choose; the port taken is printed. Try it with examples/echo_client.erl
%% or `nc 127.0.0.1 5555`.
-module(echo_server).
-export([main/1]).

main([PortArg]) ->
    Port = list_to_integer(PortArg),
    Self = self(),
    %% The socket belongs to the process that opened it: -run's caller returns, so a process
    %% of its own listens and accepts.
    spawn(fun() -> listen(Port, Self) end),
    receive {listening, Taken} -> io:format("echo_server listening on 127.0.0.1:~p~n", [Taken])
    end.

listen(Port, Parent) ->
    {ok, Listen} = gen_tcp:listen(Port, [binary, {packet, line}, {active, false},
                                         {reuseaddr, true}, {ip, {127, 0, 0, 1}}]),
    {ok, Taken} = inet:port(Listen),
    Parent ! {listening, Taken},
    accept(Listen).

accept(Listen) ->
    {ok, Socket} = gen_tcp:accept(Listen),
    Handler = spawn(fun() -> receive ready -> echo(Socket) end end),
    ok = gen_tcp:controlling_process(Socket, Handler),
    Handler ! ready,
    accept(Listen).

%% {active, once}: one line arrives as a message, then the socket waits for us again.
echo(Socket) ->
    ok = inet:setopts(Socket, [{active, once}]),
    receive
        {tcp, Socket, Line} ->
            ok = gen_tcp:send(Socket, Line),
            echo(Socket);
        {tcp_closed, Socket} ->
            ok
    end.

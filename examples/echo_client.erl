%% The client of examples/echo_server.erl: sends each argument as a line and prints what
%% comes back.
%%   build/beamvm -noshell -pa ebin -run echo_client main 5555 hello world -s erlang halt
-module(echo_client).
-export([main/1]).

main([PortArg | Words]) ->
    {ok, Socket} = gen_tcp:connect({127, 0, 0, 1}, list_to_integer(PortArg),
                                   [binary, {packet, line}, {active, false}], 5000),
    lists:foreach(fun(Word) ->
                          ok = gen_tcp:send(Socket, [Word, $\n]),
                          {ok, Echo} = gen_tcp:recv(Socket, 0, 5000),
                          io:format("echoed: ~s", [Echo])
                  end, Words),
    ok = gen_tcp:close(Socket).

%% Sequence-numbered packets over loopback TCP: a listener on 127.0.0.1 (an ephemeral port)
%% echoes every {packet, 4} frame back on a process per connection; each client step opens a
%% connection, sends 100 numbered frames, reads the echoes in order and closes it.
-module(soak_tcp).
-export([start/1]).

start(Clients) ->
    {ok, L} = gen_tcp:listen(0, [binary, {packet, 4}, {active, false}, {reuseaddr, true},
                                 {ip, {127, 0, 0, 1}}]),
    {ok, Port} = inet:port(L),
    Acceptor = soak_worker:start(tcp_acceptor, fun() -> (soak_worker:new())#{listen => L} end,
                                 fun accept/1),
    ok = gen_tcp:controlling_process(L, Acceptor),
    Cs = [{{tcp_client, I}, soak_worker:start({tcp_client, I},
                                              fun() -> (soak_worker:new())#{port => Port, i => 0} end,
                                              fun client/1)}
          || I <- lists:seq(1, Clients)],
    Cs ++ [{tcp_acceptor, Acceptor}].

accept(#{listen := L} = S) ->
    case gen_tcp:accept(L, 200) of
        {ok, Sock} ->
            Echo = spawn(fun() -> receive go -> echo(Sock) end end),
            ok = gen_tcp:controlling_process(Sock, Echo),
            Echo ! go,
            soak_worker:count(accepted, 1, S);
        {error, timeout} -> S;
        {error, Reason} -> soak_worker:error({accept, Reason}, S)
    end.

%% An echo that fails says so on stderr (the soak turns logger off): the client then sees the
%% connection close early, and the report says why.
echo(Sock) ->
    case gen_tcp:recv(Sock, 0) of
        {ok, Frame} ->
            case gen_tcp:send(Sock, Frame) of
                ok -> echo(Sock);
                Error -> io:format(standard_error, "soak_tcp echo: send ~p~n", [Error])
            end;
        {error, closed} -> ok;
        Error -> io:format(standard_error, "soak_tcp echo: recv ~p~n", [Error])
    end.

client(#{port := Port, i := I} = S0) ->
    S = S0#{i := I + 1},
    case gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {packet, 4}, {active, false}], 10000) of
        {ok, Sock} ->
            Frames = [<<I:32, K:32, (binary:copy(<<K>>, K * 7))/binary>> || K <- lists:seq(1, 100)],
            S1 = exchange(Sock, Frames, S),
            ok = gen_tcp:close(Sock),
            soak_worker:count(connections, 1, S1);
        {error, Reason} ->
            soak_worker:error({connect, Reason}, S)
    end.

%% Send all the frames, then read the echoes back in order.
exchange(Sock, Frames, S) ->
    [ok = gen_tcp:send(Sock, F) || F <- Frames],
    lists:foldl(fun(<<_:32, K:32, _/binary>> = F, Acc) ->
                    case gen_tcp:recv(Sock, 0, 10000) of
                        {ok, F} -> soak_worker:count(frames, 1, Acc);
                        {ok, Other} -> soak_worker:error({frame_mismatch, byte_size(F), byte_size(Other)}, Acc);
                        {error, Reason} -> soak_worker:error({recv, K, Reason}, Acc)
                    end
                end, S, Frames).

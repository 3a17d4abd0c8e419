%% gen_tcp faults and lifecycle (issue 23): refused connects, accept timeouts and several
%% acceptors, half-close, peer close and reset in passive and active mode (show_econnreset,
%% linger 0), exit_on_close false, a socket closed by another process, controlling_process,
%% the owner's death, a process killed in the middle of a send, send_timeout on a full queue,
%% emfile. Loopback only; sockets print as `sock`.
-module(net_tcp_faults).
-export([main/0]).

anon(P) when is_port(P) -> sock;
anon(P) when is_pid(P) -> pid;
anon(T) when is_tuple(T) -> list_to_tuple(anon(tuple_to_list(T)));
anon([H | T]) -> [anon(H) | anon(T)];
anon(X) -> X.

show(Label, V) -> io:format("~s: ~p~n", [Label, anon(V)]).

next() -> receive M -> M after 3000 -> timeout end.

listen(Opts) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127, 0, 0, 1}} | Opts]),
    {ok, P} = inet:port(L),
    {L, P}.

pair(COpts, SOpts) ->
    {L, P} = listen(SOpts),
    {ok, C} = gen_tcp:connect({127, 0, 0, 1}, P, [binary | COpts]),
    {ok, S} = gen_tcp:accept(L),
    gen_tcp:close(L),
    {C, S}.

main() ->
    connects(),
    accepts(),
    half_close(),
    peer_close(),
    resets(),
    ownership(),
    busy(),
    limits(),
    ok.

connects() ->
    {L, P} = listen([]),
    gen_tcp:close(L),
    show("refused", gen_tcp:connect({127, 0, 0, 1}, P, [], 1000)),
    show("bad address", catch gen_tcp:connect({127, 0, 0, 1, 5}, P, [])),
    show("bad port", catch gen_tcp:connect({127, 0, 0, 1}, 70000, [])),
    show("bad option", catch gen_tcp:connect({127, 0, 0, 1}, P, [{active, maybe}])),
    show("closed socket send", begin
                                   {C, S} = pair([{active, false}], []),
                                   gen_tcp:close(C),
                                   gen_tcp:close(S),
                                   gen_tcp:send(C, <<"x">>)
                               end).

accepts() ->
    {L, P} = listen([]),
    show("accept timeout", gen_tcp:accept(L, 50)),
    Self = self(),
    Acceptors = [spawn(fun() -> Self ! {accepted, N, element(1, gen_tcp:accept(L, 2000))} end) || N <- [1, 2, 3]],
    timer:sleep(50),
    Cs = [element(2, gen_tcp:connect({127, 0, 0, 1}, P, [])) || _ <- [1, 2]],
    Got = lists:sort([receive {accepted, _, R} -> R after 3000 -> timeout end || _ <- [1, 2]]),
    show("two of three accepted", Got),
    show("third times out", receive {accepted, _, R3} -> R3 after 3000 -> timeout end),
    [gen_tcp:close(C) || C <- Cs],
    Killed = spawn(fun() -> gen_tcp:accept(L) end),
    timer:sleep(20),
    exit(Killed, kill),
    timer:sleep(20),
    {ok, C4} = gen_tcp:connect({127, 0, 0, 1}, P, []),
    show("accept after a dead acceptor", element(1, gen_tcp:accept(L, 1000))),
    gen_tcp:close(C4),
    _ = Acceptors,
    gen_tcp:close(L),
    show("accept on closed", gen_tcp:accept(L, 10)).

half_close() ->
    {C, S} = pair([{active, false}], []),
    ok = gen_tcp:send(C, <<"request">>),
    ok = gen_tcp:shutdown(C, write),
    show("server reads", gen_tcp:recv(S, 0)),
    show("server sees eof", gen_tcp:recv(S, 0)),
    show("client send after shutdown", gen_tcp:send(C, <<"more">>)),
    show("shutdown on closed", gen_tcp:shutdown(S, write)),
    gen_tcp:close(C).

peer_close() ->
    {C, S} = pair([{active, true}], []),
    ok = gen_tcp:send(S, <<"bye">>),
    gen_tcp:close(S),
    show("active data then closed", [next(), next()]),
    show("active port closed", erlang:port_info(C, name)),
    {C2, S2} = pair([{active, true}, {exit_on_close, false}], []),
    gen_tcp:close(S2),
    show("exit_on_close false", next()),
    show("still open", element(1, erlang:port_info(C2, name))),
    show("send after peer close", gen_tcp:send(C2, <<"x">>)),
    gen_tcp:close(C2),
    {C3, S3} = pair([{active, false}], []),
    gen_tcp:close(S3),
    show("passive recv on closed", gen_tcp:recv(C3, 0)),
    show("passive recv again", gen_tcp:recv(C3, 0)),
    gen_tcp:close(C3).

resets() ->
    {C, S} = pair([{active, false}, {show_econnreset, true}], []),
    ok = inet:setopts(S, [{linger, {true, 0}}]),
    gen_tcp:close(S),
    timer:sleep(50),
    show("reset shown", gen_tcp:recv(C, 0)),
    gen_tcp:close(C),
    {C2, S2} = pair([{active, false}], []),
    ok = inet:setopts(S2, [{linger, {true, 0}}]),
    gen_tcp:close(S2),
    timer:sleep(50),
    show("reset as closed", gen_tcp:recv(C2, 0)),
    gen_tcp:close(C2),
    {C3, S3} = pair([{active, true}, {show_econnreset, true}], []),
    ok = inet:setopts(S3, [{linger, {true, 0}}]),
    gen_tcp:close(S3),
    show("active reset", [next(), next()]),
    gen_tcp:close(C3).

ownership() ->
    Self = self(),
    {C, S} = pair([{active, true}], []),
    Other = spawn(fun() -> receive go -> ok end, Self ! {other_got, next()} end),
    show("controlling_process", gen_tcp:controlling_process(C, Other)),
    show("not owner any more", gen_tcp:controlling_process(C, self())),
    ok = gen_tcp:send(S, <<"to other">>),
    Other ! go,
    show("other received", receive {other_got, M} -> M after 3000 -> timeout end),
    timer:sleep(50),
    show("owner died: socket closed", erlang:port_info(C, name)),
    show("peer sees close", gen_tcp:recv(S, 0, 1000)),
    gen_tcp:close(S),
    {C2, S2} = pair([{active, false}], []),
    Closer = spawn(fun() -> Self ! {closed_by_other, gen_tcp:close(C2)} end),
    show("closed by another process", receive {closed_by_other, R} -> R after 3000 -> timeout end),
    show("owner uses it", gen_tcp:recv(C2, 0, 100)),
    _ = Closer,
    gen_tcp:close(S2),
    {C3, S3} = pair([{active, false}, {sndbuf, 4096}], [{recbuf, 4096}]),
    Big = binary:copy(<<"z">>, 4000000),
    Sender = spawn(fun() -> gen_tcp:send(C3, Big) end),
    timer:sleep(50),
    exit(Sender, kill),
    timer:sleep(50),
    show("killed mid-send: socket closed with its owner", erlang:port_info(C3, name)),
    show("peer gets data then close", drain(S3, 0)),
    gen_tcp:close(S3).

drain(S, N) ->
    case gen_tcp:recv(S, 0, 2000) of
        {ok, B} -> drain(S, N + byte_size(B));
        E -> {E, N > 0}
    end.

busy() ->
    {C, S} = pair([{active, false}, {send_timeout, 200}, {sndbuf, 4096}], [{recbuf, 4096}]),
    Big = binary:copy(<<"y">>, 100000),
    show("send_timeout", send_until(C, Big, 0)),
    show("nosuspend when busy", erlang:port_command(C, <<"z">>, [nosuspend])),
    gen_tcp:close(C),
    gen_tcp:close(S),
    {C2, S2} = pair([{active, false}, {send_timeout, 200}, {send_timeout_close, true}, {sndbuf, 4096}],
                    [{recbuf, 4096}]),
    show("send_timeout_close", send_until(C2, Big, 0)),
    show("then", gen_tcp:send(C2, <<"x">>)),
    gen_tcp:close(C2),
    gen_tcp:close(S2).

send_until(C, B, N) when N < 1000 ->
    case gen_tcp:send(C, B) of
        ok -> send_until(C, B, N + 1);
        E -> {E, N > 0}
    end;
send_until(_, _, N) -> {never_blocked, N}.

%% Descriptors run out: listen answers emfile; closing them makes room again. (Listening
%% sockets, so no connection waits on a full backlog.)
limits() ->
    {Error, Count} = listen_until_error(0),
    show("descriptors run out", {Error, Count > 0}),
    show("connect when out", element(1, gen_tcp:connect({127, 0, 0, 1}, 1, []))),
    [gen_tcp:close(S) || S <- get_socks()],
    put(socks, []),
    show("after closing", element(1, gen_tcp:listen(0, []))).

listen_until_error(N) when N < 100000 ->
    case gen_tcp:listen(0, [{ip, {127, 0, 0, 1}}]) of
        {ok, S} -> put(socks, [S | get_socks()]), listen_until_error(N + 1);
        {error, E} -> {E, N}
    end.

get_socks() -> case get(socks) of undefined -> []; L -> L end.

%% The select protocol of socket.erl over prim_socket's natives: nowait operations answering
%% {select, SelectInfo}, the {'$socket', Socket, select, Ref} message, cancel/2, the abort
%% messages a close sends to waiting processes, queued readers and acceptors, and gen_tcp /
%% gen_udp with {inet_backend, socket} (an echo over loopback). Deterministic output only.
-module(socket_select).
-export([main/0]).

main() ->
    nowait_recv(),
    nowait_accept(),
    cancel(),
    abort_on_close(),
    queued_readers(),
    queued_acceptors(),
    big_send(),
    gen_tcp_echo(),
    gen_udp_echo(),
    ok.

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

pair() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, Addr),
    {ok, A} = socket:accept(L),
    {L, C, A}.

close_all(Ss) -> [socket:close(S) || S <- Ss], ok.

nowait_recv() ->
    io:format("--- nowait recv~n"),
    {L, C, A} = pair(),
    {select, {select_info, Tag, Ref}} = socket:recv(A, 4, nowait),
    show(select_tag, Tag),
    show(info_readers, maps:get(num_readers, socket:info(A))),
    show(rstates, maps:get(rstates, socket:info(A))),
    ok = socket:send(C, <<"ab">>),
    receive {'$socket', A, select, Ref} -> show(select_msg, ok)
    after 2000 -> show(select_msg, timeout) end,
    R = socket:recv(A, 4, nowait),
    show(partial, element(1, R)),
    ok = socket:send(C, <<"cd">>),
    case R of
        {select, {{select_info, _, Ref2}, Part}} ->
            show(part, Part),
            receive {'$socket', A, select, Ref2} -> show(select_msg2, ok)
            after 2000 -> show(select_msg2, timeout) end,
            show(rest, socket:recv(A, 2, nowait));
        Other -> show(unexpected, Other)
    end,
    ok = socket:send(C, <<"xyz">>),
    timer:sleep(50),
    show(immediate, socket:recv(A, 0, nowait)),
    show(poll_empty, socket:recv(A, 0, 0)),
    close_all([C, A, L]).

nowait_accept() ->
    io:format("--- nowait accept~n"),
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    {select, {select_info, Tag, Ref}} = socket:accept(L, nowait),
    show(select_tag, Tag),
    show(rstates, maps:get(rstates, socket:info(L))),
    {ok, C} = socket:open(inet, stream, tcp),
    show(connect_nowait, case socket:connect(C, Addr, nowait) of
                             ok -> ok;
                             {select, {select_info, connect, _}} -> select
                         end),
    receive {'$socket', L, select, Ref} -> show(select_msg, ok)
    after 2000 -> show(select_msg, timeout) end,
    {ok, A} = socket:accept(L, nowait),
    show(accepted, maps:with([domain, type, protocol], socket:info(A))),
    close_all([C, A, L]).

cancel() ->
    io:format("--- cancel~n"),
    {L, C, A} = pair(),
    {select, SI} = socket:recv(A, 1, nowait),
    show(cancel, socket:cancel(A, SI)),
    show(cancel_again, case socket:cancel(A, SI) of
                           {error, {invalid, {select_info, recv, _}}} -> invalid_select_info;
                           Other -> Other
                       end),
    show(readers_after, maps:get(num_readers, socket:info(A))),
    ok = socket:send(C, <<"q">>),
    receive {'$socket', A, select, _} -> show(stray_select, yes)
    after 100 -> show(stray_select, no) end,
    show(recv, socket:recv(A, 1, 1000)),
    {select, SI2} = socket:accept(L, nowait),
    show(cancel_accept, socket:cancel(L, SI2)),
    show(cancel_bad, try socket:cancel(A, {select_info, foo, make_ref()}) catch C1:R1 -> {C1, R1} end),
    close_all([C, A, L]),
    show(cancel_closed, socket:cancel(A, SI)).

abort_on_close() ->
    io:format("--- abort on close~n"),
    {L, C, A} = pair(),
    Self = self(),
    Reader = spawn(fun() -> Self ! {reader, socket:recv(A, 1)} end),
    wait_readers(A, 1),
    Queued = spawn(fun() -> Self ! {queued, socket:recv(A, 1)} end),
    wait_readers(A, 2),
    show(readers, maps:get(num_readers, socket:info(A))),
    show(close, socket:close(A)),
    receive {reader, R1} -> show(reader, R1) after 2000 -> show(reader, timeout) end,
    receive {queued, R2} -> show(queued, R2) after 2000 -> show(queued, timeout) end,
    Acceptor = spawn(fun() -> Self ! {acceptor, socket:accept(L)} end),
    wait_acceptors(L, 1),
    show(close_listener, socket:close(L)),
    receive {acceptor, R3} -> show(acceptor, R3) after 2000 -> show(acceptor, timeout) end,
    _ = [Reader, Queued, Acceptor],
    close_all([C]).

queued_readers() ->
    io:format("--- queued readers~n"),
    {L, C, A} = pair(),
    Self = self(),
    [spawn(fun() -> Self ! {got, N, socket:recv(A, 2, 3000)} end) || N <- [1, 2, 3]],
    wait_readers(A, 3),
    show(readers, maps:get(num_readers, socket:info(A))),
    ok = socket:send(C, <<"aabbcc">>),
    Got = [receive {got, N, R} -> {N, R} after 3000 -> timeout end || _ <- [1, 2, 3]],
    show(all_got, lists:sort([R || {_, R} <- Got])),
    show(readers_after, maps:get(num_readers, socket:info(A))),
    %% A waiting reader that dies leaves the queue.
    P = spawn(fun() -> socket:recv(A, 1) end),
    wait_readers(A, 1),
    exit(P, kill),
    wait_readers(A, 0),
    show(readers_dead, maps:get(num_readers, socket:info(A))),
    close_all([C, A, L]).

queued_acceptors() ->
    io:format("--- queued acceptors~n"),
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    Self = self(),
    [spawn(fun() ->
               {ok, S} = socket:accept(L, 3000),
               {ok, B} = socket:recv(S, 1, 3000),
               Self ! {accepted, B}
           end) || _ <- [1, 2]],
    wait_acceptors(L, 2),
    show(acceptors, maps:get(num_acceptors, socket:info(L))),
    Cs = [begin
              {ok, C} = socket:open(inet, stream, tcp),
              ok = socket:connect(C, Addr),
              ok = socket:send(C, B),
              C
          end || B <- [<<"x">>, <<"y">>]],
    show(accepted, lists:sort([receive {accepted, B} -> B after 3000 -> timeout end || _ <- [1, 2]])),
    close_all([L | Cs]).

big_send() ->
    io:format("--- big send~n"),
    {L, C, A} = pair(),
    Size = 4 * 1024 * 1024,
    Data = binary:copy(<<"0123456789abcdef">>, Size div 16),
    Self = self(),
    spawn(fun() -> Self ! {sent, socket:send(C, Data)} end),
    Got = recv_all(A, Size, []),
    show(received, {byte_size(Got), Got =:= Data}),
    receive {sent, R} -> show(sent, R) after 5000 -> show(sent, timeout) end,
    show(nowait_send, case socket:send(C, <<"z">>, nowait) of ok -> ok; Other -> Other end),
    close_all([C, A, L]).

recv_all(_A, 0, Acc) -> iolist_to_binary(lists:reverse(Acc));
recv_all(A, N, Acc) ->
    {ok, B} = socket:recv(A, 0, 5000),
    recv_all(A, N - byte_size(B), [B | Acc]).

gen_tcp_echo() ->
    io:format("--- gen_tcp inet_backend socket~n"),
    Opts = [{inet_backend, socket}, binary, {active, false}],
    {ok, L} = gen_tcp:listen(0, Opts ++ [{ip, {127,0,0,1}}, {reuseaddr, true}]),
    {ok, Port} = inet:port(L),
    Self = self(),
    spawn(fun() ->
        {ok, C} = gen_tcp:connect({127,0,0,1}, Port, Opts ++ [{packet, 2}]),
        ok = gen_tcp:send(C, <<"ping">>),
        Self ! {client_got, gen_tcp:recv(C, 0, 2000)},
        ok = gen_tcp:close(C)
    end),
    {ok, A} = gen_tcp:accept(L, 2000),
    ok = inet:setopts(A, [{packet, 2}]),
    {ok, D} = gen_tcp:recv(A, 0, 2000),
    show(server_got, D),
    ok = gen_tcp:send(A, <<D/binary, "-pong">>),
    receive {client_got, R} -> show(client_got, R) after 3000 -> show(client_got, timeout) end,
    show(closed, gen_tcp:recv(A, 0, 2000)),
    show(getopts, inet:getopts(L, [active, packet, reuseaddr, mode])),
    ok = gen_tcp:close(A),
    %% Active mode.
    spawn(fun() ->
        {ok, C} = gen_tcp:connect({127,0,0,1}, Port, Opts),
        ok = gen_tcp:send(C, <<"active">>),
        receive after 200 -> ok end,
        gen_tcp:close(C)
    end),
    {ok, A2} = gen_tcp:accept(L, 2000),
    ok = inet:setopts(A2, [{active, once}]),
    receive {tcp, A2, B} -> show(active_data, B) after 2000 -> show(active_data, timeout) end,
    ok = inet:setopts(A2, [{active, once}]),
    receive {tcp_closed, A2} -> show(active_closed, ok) after 2000 -> show(active_closed, timeout) end,
    gen_tcp:close(A2),
    gen_tcp:close(L).

gen_udp_echo() ->
    io:format("--- gen_udp inet_backend socket~n"),
    {ok, U1} = gen_udp:open(0, [{inet_backend, socket}, binary, {ip, {127,0,0,1}}, {active, false}]),
    {ok, U2} = gen_udp:open(0, [{inet_backend, socket}, binary, {ip, {127,0,0,1}}]),
    {ok, P1} = inet:port(U1),
    {ok, P2} = inet:port(U2),
    ok = gen_udp:send(U1, {127,0,0,1}, P2, <<"dgram">>),
    receive {udp, U2, {127,0,0,1}, P1, B} -> show(active_udp, B)
    after 2000 -> show(active_udp, timeout) end,
    ok = gen_udp:send(U2, {127,0,0,1}, P1, <<"back">>),
    {ok, {{127,0,0,1}, P2, Back}} = gen_udp:recv(U1, 0, 2000),
    show(passive_udp, Back),
    show(recv_timeout, gen_udp:recv(U1, 0, 50)),
    gen_udp:close(U1), gen_udp:close(U2).

wait_readers(S, N) -> wait_count(S, num_readers, N, 200).
wait_acceptors(S, N) -> wait_count(S, num_acceptors, N, 200).

wait_count(_S, _K, _N, 0) -> timeout;
wait_count(S, K, N, T) ->
    case maps:get(K, socket:info(S)) of
        N -> ok;
        _ -> timer:sleep(10), wait_count(S, K, N, T - 1)
    end.

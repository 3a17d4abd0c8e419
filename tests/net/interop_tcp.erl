%% TCP between two VMs (issue 23): server/1 runs in one VM, client/1 in another; for each
%% packet mode of interop_frames:modes(), in that order, the client connects and
%%   1. sends its frames (gen_tcp framing for 1/2/4, hand framing otherwise; part in one send,
%%      part in 7-byte pieces with nodelay, so the receiver's parser sees packets split);
%%   2. the server receives them passively ({active, false}, recv(S, 0)) in that mode and
%%      sends back what it got as one {packet, 4} message, which the client prints;
%%   3. the server sends its frames, the client receives them in {active, once} in that mode
%%      and prints them; the client closes, the server sees the close.
%% Both sides print only what does not depend on the run (no ports), so tests/net/interop.sh
%% compares their output with an all-erl run. Every wait is bounded (RECV_MS): a missing
%% packet prints {error, timeout} and the run goes on to a clear difference, never hangs.
-module(interop_tcp).
-export([server/1, client/1]).

-define(RECV_MS, 10000).
-define(LOCAL4, {127, 0, 0, 1}).
-define(LOCAL6, {0, 0, 0, 0, 0, 0, 0, 1}).

%% [PortFile]: listens on 127.0.0.1 and ::1, writes "Port4 Port6" to PortFile (atomically),
%% serves one connection per mode, halts.
server([PortFile]) ->
    Opts = [binary, {active, false}, {reuseaddr, true}],
    {ok, L4} = gen_tcp:listen(0, [{ip, ?LOCAL4} | Opts]),
    {ok, L6} = gen_tcp:listen(0, [inet6, {ip, ?LOCAL6} | Opts]),
    {ok, P4} = inet:port(L4),
    {ok, P6} = inet:port(L6),
    ok = file:write_file(PortFile ++ ".tmp", io_lib:format("~p ~p", [P4, P6])),
    ok = file:rename(PortFile ++ ".tmp", PortFile),
    [serve_one(case Mode of {inet6, _} -> L6; _ -> L4 end, Mode)
     || Mode <- interop_frames:modes()],
    io:format("server done~n"),
    halt().

serve_one(L, Mode) ->
    case gen_tcp:accept(L, ?RECV_MS) of
        {ok, S} ->
            {ok, {Peer, _}} = inet:peername(S),
            {ok, {Local, _}} = inet:sockname(S),
            ok = inet:setopts(S, [{packet, recv_packet(Mode)}]),
            Got = recv_passive(S, interop_frames:expected(Mode, client)),
            io:format("server ~p from ~p at ~p got:~n~p~n",
                      [Mode, Peer, Local, interop_frames:show(Got)]),
            ok = inet:setopts(S, [{packet, 4}]),
            ok = gen_tcp:send(S, term_to_binary(Got)),
            ok = inet:setopts(S, [{packet, interop_frames:send_packet(Mode)}, {nodelay, true}]),
            send_frames(S, Mode, interop_frames:frames(Mode, server)),
            ok = inet:setopts(S, [{packet, raw}]),
            io:format("server ~p then: ~p~n", [Mode, gen_tcp:recv(S, 0, ?RECV_MS)]),
            gen_tcp:close(S);
        Error ->
            io:format("server ~p accept: ~p~n", [Mode, Error])
    end.

recv_packet({inet6, M}) -> M;
recv_packet(M) -> M.

%% [PortFile]
client([PortFile]) ->
    {ok, Text} = file:read_file(PortFile),
    [P4, P6] = [binary_to_integer(T) || T <- binary:split(Text, <<" ">>)],
    [client_one(Mode, P4, P6) || Mode <- interop_frames:modes()],
    io:format("client done~n"),
    halt().

client_one(Mode, P4, P6) ->
    {Addr, Port, Family} = case Mode of
                               {inet6, _} -> {?LOCAL6, P6, [inet6]};
                               _ -> {?LOCAL4, P4, []}
                           end,
    Opts = Family ++ [binary, {active, false}, {nodelay, true},
                      {packet, interop_frames:send_packet(Mode)}],
    case gen_tcp:connect(Addr, Port, Opts, ?RECV_MS) of
        {ok, S} ->
            {ok, {Peer, _}} = inet:peername(S),
            send_frames(S, Mode, interop_frames:frames(Mode, client)),
            ok = inet:setopts(S, [{packet, 4}]),
            Report = case gen_tcp:recv(S, 0, ?RECV_MS) of
                         {ok, B} -> binary_to_term(B);
                         Error -> Error
                     end,
            io:format("client ~p to ~p, server got:~n~p~n",
                      [Mode, Peer, interop_frames:show(Report)]),
            ok = inet:setopts(S, [{packet, recv_packet(Mode)}]),
            Got = recv_active(S, interop_frames:expected(Mode, server)),
            io:format("client ~p got:~n~p~n", [Mode, interop_frames:show(Got)]),
            gen_tcp:close(S);
        Error ->
            io:format("client ~p connect: ~p~n", [Mode, Error])
    end.

%% 1, 2, 4: one send per message, gen_tcp adds the header. Otherwise the frames' bytes: the
%% first half at once, up to 700 bytes more in 7-byte pieces, the rest at once.
send_frames(S, Mode, Frames) ->
    case interop_frames:send_packet(Mode) of
        raw ->
            Bin = iolist_to_binary(Frames),
            Half = byte_size(Bin) div 2,
            <<First:Half/binary, Rest/binary>> = Bin,
            ok = gen_tcp:send(S, First),
            send_pieces(S, Rest, 100);
        _ ->
            [ok = gen_tcp:send(S, F) || F <- Frames],
            ok
    end.

send_pieces(S, Rest, 0) -> ok = gen_tcp:send(S, Rest);
send_pieces(S, <<Piece:7/binary, Rest/binary>>, N) ->
    ok = gen_tcp:send(S, Piece),
    N rem 10 =:= 0 andalso timer:sleep(1),
    send_pieces(S, Rest, N - 1);
send_pieces(S, Rest, _) -> ok = gen_tcp:send(S, Rest).

%% The packets up to what interop_frames:expected/2 says; raw bytes joined into one binary.
recv_passive(S, Expected) ->
    collect(fun() -> case gen_tcp:recv(S, 0, ?RECV_MS) of
                         {ok, P} -> {ok, P};
                         Error -> Error
                     end
            end, Expected).

recv_active(S, Expected) ->
    collect(fun() ->
                    ok = inet:setopts(S, [{active, once}]),
                    receive
                        {tcp, S, P} -> {ok, P};
                        {http, S, P} -> {ok, P};          % http and http_bin modes
                        {tcp_closed, S} -> {error, closed};
                        {tcp_error, S, R} -> {error, R}
                    after ?RECV_MS -> {error, timeout}
                    end
            end, Expected).

collect(Next, {bytes, N}) -> collect_bytes(Next, N, []);
collect(Next, {packets, N}) -> collect_n(Next, N, fun(_) -> 1 end, []);
collect(Next, {eohs, N}) ->
    collect_n(Next, N, fun(http_eoh) -> 1; (_) -> 0 end, []).

collect_bytes(_, N, Acc) when N =< 0 -> [iolist_to_binary(lists:reverse(Acc))];
collect_bytes(Next, N, Acc) ->
    case Next() of
        {ok, B} -> collect_bytes(Next, N - byte_size(B), [B | Acc]);
        Error -> [iolist_to_binary(lists:reverse(Acc)), Error]
    end.

collect_n(_, N, _, Acc) when N =< 0 -> lists:reverse(Acc);
collect_n(Next, N, Counts, Acc) ->
    case Next() of
        {ok, P} -> collect_n(Next, N - Counts(P), Counts, [P | Acc]);
        Error -> lists:reverse([Error | Acc])
    end.

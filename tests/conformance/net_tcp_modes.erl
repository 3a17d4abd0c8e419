%% gen_tcp over the inet driver (issue 23): passive and active modes (true, once, N with
%% tcp_passive), list/binary mode, the header and deliver options, every receiving packet type
%% (1, 2, 4, line, asn1, cdr, sunrm, fcgi, tpkt, http, http_bin, httph), packet_size,
%% recv lengths and timeouts, unrecv. Loopback only; ports and socket ids differ between VMs,
%% so they print as `port` / `sock`.
-module(net_tcp_modes).
-export([main/0]).

anon(P) when is_port(P) -> sock;
anon(T) when is_tuple(T) -> list_to_tuple(anon(tuple_to_list(T)));
anon([H | T]) -> [anon(H) | anon(T)];
anon(X) -> X.

show(Label, V) -> io:format("~s: ~p~n", [Label, anon(V)]).

next() -> receive M -> M after 3000 -> timeout end.

%% A connected pair: the client with Opts, the server side raw/binary/passive.
pair(Opts) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127, 0, 0, 1}}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127, 0, 0, 1}, P, Opts),
    {ok, S} = gen_tcp:accept(L),
    gen_tcp:close(L),
    {C, S}.

close(C, S) -> gen_tcp:close(C), gen_tcp:close(S).

main() ->
    passive(),
    active_modes(),
    framing(),
    http(),
    options(),
    ok.

passive() ->
    {C, S} = pair([binary, {active, false}]),
    ok = gen_tcp:send(S, <<"hello world">>),
    show("recv 5", gen_tcp:recv(C, 5)),
    show("recv rest", gen_tcp:recv(C, 6)),
    show("recv timeout", gen_tcp:recv(C, 0, 50)),
    show("recv zero timeout", gen_tcp:recv(C, 0, 0)),
    ok = gen_tcp:unrecv(C, <<"back">>),
    show("after unrecv", gen_tcp:recv(C, 0)),
    ok = gen_tcp:send(S, [<<"io">>, "list", [$!]]),
    show("iolist", gen_tcp:recv(C, 7)),
    ok = inet:setopts(C, [list]),
    ok = gen_tcp:send(S, <<"abc">>),
    show("list mode", gen_tcp:recv(C, 3)),
    ok = inet:setopts(C, [binary, {header, 2}]),
    ok = gen_tcp:send(S, <<"abcdef">>),
    show("header 2", gen_tcp:recv(C, 6)),
    ok = gen_tcp:send(S, <<"x">>),
    show("header longer than data", gen_tcp:recv(C, 1)),
    show("recv while active", begin ok = inet:setopts(C, [{active, true}]), gen_tcp:recv(C, 0) end),
    close(C, S).

active_modes() ->
    {C, S} = pair([binary, {active, true}, {packet, 2}]),
    ok = inet:setopts(S, [{packet, 2}]),
    ok = gen_tcp:send(S, <<"one">>),
    show("active true", next()),
    ok = inet:setopts(C, [{active, once}]),
    ok = gen_tcp:send(S, <<"two">>),
    ok = gen_tcp:send(S, <<"three">>),
    show("once", next()),
    show("once stays passive", receive M -> M after 100 -> none end),
    show("getopts active", inet:getopts(C, [active])),
    ok = inet:setopts(C, [{active, 2}]),
    show("n 1", next()),
    ok = gen_tcp:send(S, <<"four">>),
    show("n 2", next()),
    show("passive msg", next()),
    show("getopts after n", inet:getopts(C, [active])),
    ok = inet:setopts(C, [{active, 0}]),
    show("n 0 gives passive", next()),
    ok = inet:setopts(C, [{active, 3}, {active, -1}]),
    show("n summed", inet:getopts(C, [active])),
    ok = inet:setopts(C, [{active, false}, {deliver, port}, {active, true}]),
    ok = gen_tcp:send(S, <<"five">>),
    show("deliver port", next()),
    ok = inet:setopts(C, [{deliver, term}]),
    gen_tcp:close(S),
    show("peer closed", next()),
    show("port gone", erlang:port_info(C, name)),
    gen_tcp:close(C).

framing() ->
    lists:foreach(fun frame/1,
                  [{1, [<<1, $a>>, <<2, "bc">>]},
                   {4, [<<0, 0, 0, 3, "def">>]},
                   {line, [<<"first line\nsecond ">>, <<"line\n">>, <<"no newline">>]},
                   {asn1, [<<16#30, 3, 1, 2, 3>>, <<16#04, 16#81, 2, "ab">>]},
                   {cdr, [<<"GIOP", 1, 0, 0, 0, 0, 0, 0, 2, "hi">>]},
                   {sunrm, [<<16#80, 0, 0, 3, "xyz">>]},
                   {fcgi, [<<1, 1, 0, 1, 0, 3, 2, 0, "abc", 0, 0>>]},
                   {tpkt, [<<3, 0, 0, 7, "pdu">>]}]).

frame({Type, Chunks}) ->
    {C, S} = pair([binary, {active, false}, {packet, Type}]),
    lists:foreach(fun(B) -> ok = gen_tcp:send(S, B), timer:sleep(20) end, Chunks),
    show(io_lib:format("packet ~p", [Type]), recv_all(C)),
    close(C, S).

recv_all(C) ->
    case gen_tcp:recv(C, 0, 200) of
        {ok, D} -> [D | recv_all(C)];
        E -> [E]
    end.

http() ->
    Req = <<"GET /index.html?x=1 HTTP/1.1\r\nHost: localhost\r\nX-Custom: v\r\nContent-Length: 4\r\n\r\nbody">>,
    lists:foreach(
      fun(Type) ->
              {C, S} = pair([{active, false}, {packet, Type}]),
              ok = gen_tcp:send(S, Req),
              show(io_lib:format("~p request", [Type]), http_msgs(C, 5)),
              ok = inet:setopts(C, [{packet, raw}, binary]),
              show(io_lib:format("~p body", [Type]), gen_tcp:recv(C, 4)),
              close(C, S)
      end, [http, http_bin]),
    {C, S} = pair([binary, {active, true}, {packet, http_bin}]),
    ok = gen_tcp:send(S, <<"HTTP/1.0 404 Not Found\r\nServer: x\r\n\r\n">>),
    show("active http", [next(), next(), next()]),
    ok = inet:setopts(C, [{packet, httph}]),
    ok = gen_tcp:send(S, <<"Trailer: y\r\n\r\n">>),
    show("httph", [next(), next()]),
    ok = gen_tcp:send(S, <<"garbage line\r\n">>),
    show("http error", next()),
    close(C, S).

http_msgs(_, 0) -> [];
http_msgs(C, N) ->
    case gen_tcp:recv(C, 0, 500) of
        {ok, http_eoh} -> [http_eoh];
        {ok, M} -> [M | http_msgs(C, N - 1)];
        E -> [E]
    end.

options() ->
    {C, S} = pair([binary, {active, false}, {packet, 1}, {packet_size, 4}]),
    ok = inet:setopts(S, [{packet, 1}]),
    ok = gen_tcp:send(S, <<"abc">>),
    show("within packet_size", gen_tcp:recv(C, 0)),
    ok = gen_tcp:send(S, <<"abcdef">>),
    show("past packet_size", gen_tcp:recv(C, 0)),
    show("after emsgsize", gen_tcp:recv(C, 0)),
    close(C, S),
    {C2, S2} = pair([binary, {active, false}, {packet, 1}]),
    show("send too large for packet 1", gen_tcp:send(C2, binary:copy(<<"a">>, 256))),
    show("getopts", inet:getopts(C2, [active, packet, mode, header, deliver, exit_on_close, packet_size,
                                      high_watermark, low_watermark, send_timeout, send_timeout_close,
                                      delay_send, nodelay, keepalive, reuseaddr, linger, buffer,
                                      show_econnreset, line_delimiter, tos])),
    ok = inet:setopts(C2, [{nodelay, true}, {keepalive, true}, {linger, {true, 5}}, {high_watermark, 100},
                           {low_watermark, 50}, {send_timeout, 1000}, {line_delimiter, $;},
                           {exit_on_close, false}, {delay_send, true}, {buffer, 4000}, {header, 1}]),
    show("getopts after setopts", inet:getopts(C2, [nodelay, keepalive, linger, high_watermark, low_watermark,
                                                    send_timeout, line_delimiter, exit_on_close, delay_send,
                                                    buffer, header])),
    show("bad option", inet:setopts(C2, [{active, bogus}])),
    show("bad getopt", inet:getopts(C2, [nonsense])),
    show("sockname family", element(1, element(2, inet:sockname(C2)))),
    {ok, {_, PeerPort}} = inet:peername(C2),
    {ok, {_, SockPort}} = inet:sockname(S2),
    show("peer is server", PeerPort =:= SockPort),
    close(C2, S2).

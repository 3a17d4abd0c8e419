%% gen_udp over the inet driver (issue 23): passive recv with timeouts, active true/once/N
%% with udp_passive, list/binary mode and header, deliver port, connect and disconnect,
%% sizes from 0 to 65,507 bytes, the buffer option truncating, read_packets, ancillary data
%% (recvtos/recvttl), IPv6 and local sockets, errors. Loopback only; sockets print as `sock`,
%% port numbers as `port`.
-module(net_udp).
-export([main/0]).

anon(P) when is_port(P) -> sock;
anon(T) when is_tuple(T) -> list_to_tuple(anon(tuple_to_list(T)));
anon([H | T]) -> [anon(H) | anon(T)];
anon(X) -> X.

show(Label, V) -> io:format("~s: ~p~n", [Label, anon(V)]).

%% The sender's port number is replaced by `port` in what was received.
strip({udp, S, IP, _Port, Data}) -> {udp, S, IP, port, Data};
strip({udp, S, IP, _Port, Anc, Data}) -> {udp, S, IP, port, Anc, Data};
strip({ok, {IP, _Port, Data}}) -> {ok, {IP, port, Data}};
strip({ok, {IP, _Port, Anc, Data}}) -> {ok, {IP, port, Anc, Data}};
strip(X) -> X.

next() -> strip(receive M -> M after 2000 -> timeout end).

open(Opts) -> gen_udp:open(0, [{ip, {127, 0, 0, 1}} | Opts]).

main() ->
    basics(),
    active_modes(),
    sizes(),
    connected(),
    families(),
    errors(),
    ok.

basics() ->
    {ok, A} = open([binary, {active, false}]),
    {ok, B} = open([]),
    {ok, PA} = inet:port(A),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, "hello"),
    show("passive recv", strip(gen_udp:recv(A, 0, 1000))),
    show("recv timeout", gen_udp:recv(A, 0, 50)),
    ok = inet:setopts(A, [list]),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, <<"as list">>),
    show("list mode", strip(gen_udp:recv(A, 0, 1000))),
    ok = inet:setopts(A, [binary, {header, 2}]),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, <<"header">>),
    show("header 2", strip(gen_udp:recv(A, 0, 1000))),
    ok = inet:setopts(A, [{header, 0}]),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, <<>>),
    show("empty datagram", strip(gen_udp:recv(A, 0, 1000))),
    ok = gen_udp:send(B, "localhost", PA, "by name"),
    show("by host name", strip(gen_udp:recv(A, 0, 1000))),
    show("getopts", inet:getopts(A, [active, mode, header, deliver, read_packets, broadcast])),
    gen_udp:close(A),
    gen_udp:close(B).

active_modes() ->
    {ok, A} = open([binary, {active, true}]),
    {ok, B} = open([]),
    {ok, PA} = inet:port(A),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, "one"),
    show("active true", next()),
    ok = inet:setopts(A, [{active, once}]),
    [ok = gen_udp:send(B, {127, 0, 0, 1}, PA, X) || X <- ["two", "three"]],
    show("once", next()),
    show("then passive", receive M -> strip(M) after 100 -> none end),
    show("remaining by recv", strip(gen_udp:recv(A, 0, 1000))),
    ok = inet:setopts(A, [{active, 2}]),
    [ok = gen_udp:send(B, {127, 0, 0, 1}, PA, X) || X <- ["four", "five"]],
    show("n", [next(), next(), next()]),
    ok = inet:setopts(A, [{deliver, port}, {active, true}]),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, "six"),
    show("deliver port", case next() of {S, {data, <<1, _:16, Rest/binary>>}} -> {S, Rest}; O -> O end),
    gen_udp:close(A),
    gen_udp:close(B).

sizes() ->
    {ok, A} = open([binary, {active, false}, {recbuf, 200000}, {buffer, 65536}]),
    {ok, B} = open([{sndbuf, 200000}]),
    {ok, PA} = inet:port(A),
    lists:foreach(
      fun(N) ->
              ok = gen_udp:send(B, {127, 0, 0, 1}, PA, binary:copy(<<"z">>, N)),
              {ok, {_, _, D}} = gen_udp:recv(A, 0, 1000),
              show(io_lib:format("size ~p", [N]), byte_size(D))
      end, [1, 1472, 9000, 65507]),
    show("too large", gen_udp:send(B, {127, 0, 0, 1}, PA, binary:copy(<<"z">>, 65508))),
    ok = inet:setopts(A, [{buffer, 10}]),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, <<"0123456789abcdef">>),
    show("truncated to buffer", strip(gen_udp:recv(A, 0, 1000))),
    gen_udp:close(A),
    gen_udp:close(B).

connected() ->
    {ok, A} = open([binary, {active, false}]),
    {ok, B} = open([binary, {active, false}]),
    {ok, C} = open([binary, {active, false}]),
    {ok, PA} = inet:port(A),
    {ok, PB} = inet:port(B),
    ok = gen_udp:connect(A, {127, 0, 0, 1}, PB),
    show("peername", element(1, inet:peername(A))),
    ok = gen_udp:send(A, <<"via connect">>),
    show("connected send", strip(gen_udp:recv(B, 0, 1000))),
    ok = gen_udp:send(C, {127, 0, 0, 1}, PA, <<"from a stranger">>),
    show("stranger filtered", gen_udp:recv(A, 0, 100)),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, <<"from the peer">>),
    show("peer accepted", strip(gen_udp:recv(A, 0, 1000))),
    gen_udp:close(B),
    ok = gen_udp:send(A, <<"to a closed port">>),
    show("refused", gen_udp:recv(A, 0, 500)),
    gen_udp:close(A),
    gen_udp:close(C).

families() ->
    case gen_udp:open(0, [inet6, {ip, {0, 0, 0, 0, 0, 0, 0, 1}}, binary, {active, false}]) of
        {ok, A} ->
            {ok, B} = gen_udp:open(0, [inet6, {ip, {0, 0, 0, 0, 0, 0, 0, 1}}]),
            {ok, PA} = inet:port(A),
            ok = gen_udp:send(B, {0, 0, 0, 0, 0, 0, 0, 1}, PA, "six"),
            show("ipv6", strip(gen_udp:recv(A, 0, 1000))),
            gen_udp:close(A),
            gen_udp:close(B);
        Error ->
            show("ipv6 unavailable", Error)
    end,
    Path = "/tmp/beamvm_net_udp_" ++ os:getpid(),
    file:delete(Path),
    {ok, L} = gen_udp:open(0, [local, {ifaddr, {local, Path}}, binary, {active, false}]),
    {ok, L2} = gen_udp:open(0, [local, binary]),
    ok = gen_udp:send(L2, {local, Path}, 0, <<"over a local socket">>),
    show("local", case gen_udp:recv(L, 0, 1000) of {ok, {{local, _}, 0, D}} -> {ok, D}; O -> O end),
    gen_udp:close(L),
    gen_udp:close(L2),
    file:delete(Path).

errors() ->
    {ok, A} = open([{recvtos, true}, {recvttl, true}, binary, {active, false}]),
    {ok, B} = open([{tos, 16#20}]),
    {ok, PA} = inet:port(A),
    ok = gen_udp:send(B, {127, 0, 0, 1}, PA, <<"anc">>),
    show("ancillary", strip(gen_udp:recv(A, 0, 1000))),
    gen_udp:close(B),
    show("recv on active", begin ok = inet:setopts(A, [{active, true}]), gen_udp:recv(A, 0, 10) end),
    gen_udp:close(A),
    show("send on closed", gen_udp:send(A, {127, 0, 0, 1}, 9, "x")),
    show("recv on closed", gen_udp:recv(A, 0, 10)),
    show("bad address", catch gen_udp:send(B, {1, 2, 3}, 9, "x")),
    show("bad option", catch gen_udp:open(0, [{active, maybe}])),
    {ok, C} = open([]),
    show("eaddrinuse", begin {ok, P} = inet:port(C), gen_udp:open(P, [{ip, {127, 0, 0, 1}}]) end),
    gen_udp:close(C).

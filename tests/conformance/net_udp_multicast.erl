%% gen_udp's multicast and broadcast options over the inet driver (issue 23): joining and
%% leaving a group on the loopback interface, multicast_if/ttl/loop read back, datagrams to
%% the group, the broadcast option gating sends to loopback's broadcast address, and the
%% options read back. Loopback only; sockets print as `sock`, port numbers as `port`.
-module(net_udp_multicast).
-export([main/0]).

-define(LO, {127, 0, 0, 1}).
-define(GROUP, {224, 0, 0, 251}).

anon(P) when is_port(P) -> sock;
anon(T) when is_tuple(T) -> list_to_tuple(anon(tuple_to_list(T)));
anon([H | T]) -> [anon(H) | anon(T)];
anon(X) -> X.

show(Label, V) -> io:format("~s: ~p~n", [Label, anon(V)]).

strip({udp, S, IP, _Port, Data}) -> {udp, S, IP, port, Data};
strip({ok, {IP, _Port, Data}}) -> {ok, {IP, port, Data}};
strip(X) -> X.

if_shape({ok, [{multicast_if, {_, _, _, _}}]}) -> ok;
if_shape(Other) -> Other.

main() ->
    multicast(),
    broadcast(),
    options(),
    ok.

multicast() ->
    {ok, A} = gen_udp:open(0, [binary, {active, false}, {reuseaddr, true},
                               {add_membership, {?GROUP, ?LO}}, {multicast_if, ?LO},
                               {multicast_loop, true}, {multicast_ttl, 1}]),
    {ok, PA} = inet:port(A),
    {ok, B} = gen_udp:open(0, [{multicast_if, ?LO}, {multicast_loop, true}]),
    show("getopts", inet:getopts(A, [multicast_ttl, multicast_loop])),
    show("sender getopts", inet:getopts(B, [multicast_ttl, multicast_loop])),
    %% erl reads multicast_if back from a buffer getsockopt fills only in part: its bytes
    %% vary from run to run, so only its shape is compared.
    show("multicast_if is an address", if_shape(inet:getopts(A, [multicast_if]))),
    show("send to group", gen_udp:send(B, ?GROUP, PA, "to the group")),
    show("member receives", strip(gen_udp:recv(A, 0, 1000))),
    ok = inet:setopts(A, [{active, once}]),
    ok = gen_udp:send(B, ?GROUP, PA, "active"),
    show("member receives active", receive M -> strip(M) after 1000 -> timeout end),
    show("drop", inet:setopts(A, [{drop_membership, {?GROUP, ?LO}}])),
    ok = gen_udp:send(B, ?GROUP, PA, "after leaving"),
    show("after leaving", gen_udp:recv(A, 0, 200)),
    show("drop again", inet:setopts(A, [{drop_membership, {?GROUP, ?LO}}])),
    show("join again", inet:setopts(A, [{add_membership, {?GROUP, ?LO}}])),
    ok = gen_udp:send(B, ?GROUP, PA, "rejoined"),
    show("rejoined", strip(gen_udp:recv(A, 0, 1000))),
    ok = inet:setopts(B, [{multicast_loop, false}]),
    ok = gen_udp:send(B, ?GROUP, PA, "no loop"),
    %% The loopback interface itself hands the datagram back, loop or not.
    show("loop off", strip(gen_udp:recv(A, 0, 1000))),
    show("set ttl, if", inet:setopts(B, [{multicast_ttl, 7}, {multicast_if, {0, 0, 0, 0}}])),
    show("read back", inet:getopts(B, [multicast_ttl, multicast_loop])),
    show("bad membership", catch inet:setopts(A, [{add_membership, {nope, ?LO}}])),
    show("bad ttl", catch inet:setopts(A, [{multicast_ttl, -1}])),
    gen_udp:close(A),
    gen_udp:close(B),
    case gen_udp:open(0, [inet6, {add_membership, {{16#ff02, 0, 0, 0, 0, 0, 0, 16#fb}, 1}}]) of
        {ok, C} -> show("ipv6 membership", ok), gen_udp:close(C);
        Err -> show("ipv6 membership", Err)
    end.

%% 127.255.255.255 is the loopback network's broadcast address: sending there needs the
%% broadcast option (eacces without it) and stays on this machine.
broadcast() ->
    {ok, A} = gen_udp:open(0, [{ip, {0, 0, 0, 0}}]),
    {ok, PA} = inet:port(A),
    {ok, C} = gen_udp:open(0, [{broadcast, true}, {ip, ?LO}]),
    {ok, D} = gen_udp:open(0, [{ip, ?LO}]),
    show("broadcast opts", [inet:getopts(X, [broadcast]) || X <- [C, D]]),
    show("send to broadcast", [gen_udp:send(X, {127, 255, 255, 255}, PA, "bc") || X <- [C, D]]),
    show("received", receive M -> strip(M) after 1000 -> timeout end),
    ok = inet:setopts(D, [{broadcast, true}]),
    show("after setopts", gen_udp:send(D, {127, 255, 255, 255}, PA, "bc2")),
    show("received", receive M2 -> strip(M2) after 1000 -> timeout end),
    [gen_udp:close(X) || X <- [A, C, D]].

options() ->
    {ok, A} = gen_udp:open(0, [{read_packets, 17}, {recbuf, 4096}, {buffer, 1000},
                               {sndbuf, 8192}, {reuseaddr, true}, {tos, 16#10}, {ttl, 9}]),
    show("options", inet:getopts(A, [read_packets, buffer, reuseaddr, tos, ttl, active, mode,
                                     header, deliver])),
    {ok, [{recbuf, R}, {sndbuf, S}]} = inet:getopts(A, [recbuf, sndbuf]),
    show("kernel doubled buffers", {R, S}),
    ok = inet:setopts(A, [{read_packets, 1}, {buffer, 70000}]),
    show("set", inet:getopts(A, [read_packets, buffer])),
    show("bad read_packets", catch inet:setopts(A, [{read_packets, -1}])),
    show("tcp-only option", inet:setopts(A, [{nodelay, true}])),
    gen_udp:close(A).

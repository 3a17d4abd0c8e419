%% gen_udp's edge cases over the inet driver (issue 23): ICMP refusals on a connected socket
%% (active: udp_error once; passive: the next recv), a second recv while one is pending, a
%% pending recv when the socket closes, active N over queued datagrams, statistics, the
%% header option, iolists and {IP, Port} destinations, bad addresses, inet:info states.
%% Loopback only; sockets print as `sock`, port numbers as `port`.
-module(net_udp_edges).
-export([main/0]).
anon(P) when is_port(P) -> sock;
anon(T) when is_tuple(T) -> list_to_tuple(anon(tuple_to_list(T)));
anon([H | T]) -> [anon(H) | anon(T)];
anon(X) -> X.
show(L, V) -> io:format("~s: ~p~n", [L, anon(V)]).
strip({udp, S, IP, _Port, Data}) -> {udp, S, IP, port, Data};
strip(X) -> X.
flush() -> receive M -> [strip(anon(M)) | flush()] after 300 -> [] end.
st(S) -> maps:get(states, inet:info(S)).
main() ->
    LO = {127,0,0,1},
    {ok, A} = gen_udp:open(0, [{ip, LO}, {active, true}]),
    {ok, Dead} = gen_udp:open(0, [{ip, LO}]), {ok, PD} = inet:port(Dead), gen_udp:close(Dead),
    ok = gen_udp:connect(A, LO, PD),
    show("send to dead", gen_udp:send(A, "x")),
    show("active refused", flush()),
    %% Each refusal is read once, by the reader or by the next send, whichever comes first:
    %% wait for it before sending again.
    show("send again", gen_udp:send(A, "y")),
    show("active refused 2", flush()),
    ok = inet:setopts(A, [{active, false}]),
    show("send 3", gen_udp:send(A, "z")),
    timer:sleep(50),
    show("passive refused", gen_udp:recv(A, 0, 100)),
    show("passive after", gen_udp:recv(A, 0, 100)),
    show("send to other while connected", gen_udp:send(A, LO, 9, "q")),
    gen_udp:close(A),
    {ok, B} = gen_udp:open(0, [{ip, LO}, {active, false}]),
    Self = self(),
    P = spawn(fun() -> Self ! {r, gen_udp:recv(B, 0, 5000)} end),
    timer:sleep(100),
    show("second recv while one pending", gen_udp:recv(B, 0, 100)),
    gen_udp:close(B),
    show("pending recv on close", receive {r, R} -> R after 1000 -> none end),
    exit(P, kill),
    {ok, C} = gen_udp:open(0, [{ip, LO}, {active, false}, binary]),
    {ok, PC} = inet:port(C),
    {ok, D} = gen_udp:open(0, [{ip, LO}]),
    [ok = gen_udp:send(D, LO, PC, integer_to_list(I)) || I <- lists:seq(1, 10)],
    timer:sleep(50),
    ok = inet:setopts(C, [{active, 3}]),
    show("active 3 of 10", flush()),
    ok = inet:setopts(C, [{active, 100}]),
    show("rest", length(flush())),
    show("still active n", inet:getopts(C, [active])),
    show("stat", inet:getstat(C, [recv_cnt, recv_oct, recv_max, send_cnt])),
    show("stat d", inet:getstat(D, [send_cnt, send_oct, send_max, send_avg, recv_cnt])),
    show("zero timeout empty", gen_udp:recv(D, 0, 0)),
    ok = inet:setopts(C, [{active, false}, {header, 3}, list]),
    ok = gen_udp:send(D, LO, PC, <<1,2,3,4,5>>),
    show("header list", case gen_udp:recv(C, 0, 500) of {ok, {_, _, X}} -> X; E -> E end),
    ok = inet:setopts(C, [binary]),
    ok = gen_udp:send(D, LO, PC, <<1,2,3,4,5>>),
    show("header bin", case gen_udp:recv(C, 0, 500) of {ok, {_, _, X2}} -> X2; E2 -> E2 end),
    ok = gen_udp:send(D, LO, PC, <<1,2>>),
    show("header short", case gen_udp:recv(C, 0, 500) of {ok, {_, _, X3}} -> X3; E3 -> E3 end),
    show("recv length arg", begin ok = gen_udp:send(D, LO, PC, <<"abcdef">>), case gen_udp:recv(C, 2, 500) of {ok, {_, _, X4}} -> X4; E4 -> E4 end end),
    show("send iolist", gen_udp:send(D, LO, PC, [<<"a">>, ["b", $c], <<>>])),
    show("got", case gen_udp:recv(C, 0, 500) of {ok, {_, _, X5}} -> X5; E5 -> E5 end),
    show("send tuple dest", gen_udp:send(D, {LO, PC}, "tuple")),
    show("got", case gen_udp:recv(C, 0, 500) of {ok, {_, _, X6}} -> X6; E6 -> E6 end),
    show("send bad port", try gen_udp:send(D, LO, 70000, "x") catch error:R1 -> R1 end),
    show("send port 0", gen_udp:send(D, LO, 0, "x")),
    show("send ipv6 on inet", catch gen_udp:send(D, {0,0,0,0,0,0,0,1}, 9, "x")),
    show("connect bad", catch gen_udp:connect(D, {0,0,0,0,0,0,0,1}, 9)),
    show("sockname", element(1, inet:sockname(D))),
    show("peername unconnected", inet:peername(D)),
    show("info", maps:with([states, counters], inet:info(D))),
    states(),
    ok.

states() ->
    {ok, A} = gen_udp:open(0, [{ip, {127,0,0,1}}]),
    {ok, B} = gen_udp:open(0, []),
    {ok, C} = gen_udp:open(0, [{active, false}]),
    show("states", [st(X) || X <- [A, B, C]]),
    ok = gen_udp:connect(C, {127,0,0,1}, 9),
    show("connected", st(C)),
    ok = gen_udp:connect(C, {127,0,0,1}, 10),
    show("reconnected", st(C)),
    gen_udp:close(C),
    show("closed", st(C)),
    [gen_udp:close(X) || X <- [A, B]].

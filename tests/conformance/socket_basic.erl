%% socket.erl over loopback (prim_socket's natives): open, bind, listen, accept, connect,
%% send, recv, close, names, options, info and the errors erl gives, for IPv4, IPv6 and
%% local stream and datagram sockets. Prints only what does not depend on the run (no port
%% numbers, references, pids or descriptors).
-module(socket_basic).
-export([main/0]).

main() ->
    stream(inet, #{family => inet, addr => loopback, port => 0}),
    stream(inet6, #{family => inet6, addr => loopback, port => 0}),
    Path = "/tmp/socket_basic_" ++ os:getpid(),
    stream(local, #{family => local, path => Path}),
    file:delete(Path),
    stream(local, #{family => local, path => <<0, "socket_basic">>}),
    file:delete(Path),
    dgram(inet, #{family => inet, addr => loopback, port => 0}),
    dgram(inet6, #{family => inet6, addr => loopback, port => 0}),
    options(),
    errors(),
    counts(),
    interfaces(),
    ok.

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

strip(#{family := local} = A) -> A;
strip(#{} = A) -> maps:remove(port, A);
strip(A) -> A.

stream(Domain, Addr) ->
    io:format("--- stream ~p~n", [Domain]),
    Proto = case Domain of local -> default; _ -> tcp end,
    {ok, L} = socket:open(Domain, stream, Proto),
    show(bind, socket:bind(L, Addr)),
    show(listen, socket:listen(L)),
    {ok, Name} = socket:sockname(L),
    show(sockname, case Name of
                       #{family := local, path := <<"/tmp/", _/binary>>} -> local_file;
                       _ -> strip(Name)
                   end),
    show(peername_listener, socket:peername(L)),
    Self = self(),
    Client = spawn(fun() ->
        {ok, C} = socket:open(Domain, stream, Proto),
        Self ! {connect, socket:connect(C, Name)},
        Self ! {sent, socket:send(C, <<"hello world">>)},
        Self ! {back, socket:recv(C, 11)},
        receive close -> ok end,
        Self ! {closed, socket:close(C)}
    end),
    {ok, A} = socket:accept(L),
    receive {connect, R0} -> show(connect, R0) end,
    receive {sent, R1} -> show(send, R1) end,
    show(recv5, socket:recv(A, 5)),
    show(recv6, socket:recv(A, 6)),
    show(echo, socket:send(A, <<"dlrow olleh">>)),
    receive {back, R2} -> show(client_recv, R2) end,
    show(recv_timeout, socket:recv(A, 1, 100)),
    show(recv_nowait, element(1, socket:recv(A, 1, nowait))),
    Client ! close,
    receive {closed, R3} -> show(client_close, R3) end,
    show(recv_after_peer_close, socket:recv(A, 1, 1000)),
    Info = socket:info(A),
    show(info, maps:with([domain, type, protocol, rstates, wstates, ctype, num_readers,
                          num_writers, num_acceptors], Info)),
    show(counters, maps:with([read_byte, write_byte, read_pkg, write_pkg], maps:get(counters, Info))),
    show(owner_is_self, maps:get(owner, Info) =:= self()),
    show(close, socket:close(A)),
    show(close_again, socket:close(A)),
    show(send_closed, socket:send(A, <<"x">>)),
    show(recv_closed, socket:recv(A, 1)),
    show(close_listener, socket:close(L)).

dgram(Domain, Addr) ->
    io:format("--- dgram ~p~n", [Domain]),
    {ok, S1} = socket:open(Domain, dgram, udp),
    {ok, S2} = socket:open(Domain, dgram, udp),
    ok = socket:bind(S1, Addr),
    ok = socket:bind(S2, Addr),
    {ok, A2} = socket:sockname(S2),
    {ok, A1} = socket:sockname(S1),
    show(sendto, socket:sendto(S1, <<"datagram">>, A2)),
    {ok, {From, Data}} = socket:recvfrom(S2, 0, 1000),
    show(recvfrom, {From =:= A1, Data}),
    show(sendto_big, socket:sendto(S1, <<0:8000>>, A2)),
    show(recv_trunc, socket:recv(S2, 4, 1000)),
    show(connect, socket:connect(S1, A2)),
    show(send, socket:send(S1, <<"connected">>)),
    {ok, Msg} = socket:recvmsg(S2, 1000),
    show(recvmsg, maps:without([addr], Msg)),
    show(recvmsg_addr, maps:get(addr, Msg) =:= A1),
    show(sendmsg, socket:sendmsg(S1, #{iov => [<<"a">>, <<"b">>, <<"c">>]})),
    show(recv, socket:recv(S2, 0, 1000)),
    show(recvfrom_timeout, socket:recvfrom(S2, 0, 50)),
    show(info_rstates, maps:get(rstates, socket:info(S1))),
    socket:close(S1), socket:close(S2).

options() ->
    io:format("--- options~n"),
    {ok, S} = socket:open(inet, stream, tcp),
    Opts = [{socket, reuseaddr}, {socket, keepalive}, {socket, type}, {socket, protocol},
            {socket, domain}, {socket, acceptconn}, {socket, linger}, {socket, broadcast},
            {socket, oobinline}, {tcp, nodelay}, {tcp, cork}, {ip, tos}, {ip, ttl},
            {otp, rcvbuf}, {otp, rcvctrlbuf}, {otp, sndctrlbuf}, {otp, meta},
            {otp, use_registry}, {otp, debug}, {otp, iow}, {socket, rcvtimeo},
            {socket, peek_off}, {bad, opt}, {ip, bad}],
    [show({get, O}, socket:getopt(S, O)) || O <- Opts],
    Sets = [{{socket, reuseaddr}, true}, {{socket, keepalive}, yes}, {{tcp, nodelay}, true},
            {{socket, linger}, #{onoff => true, linger => 3}}, {{ip, tos}, lowdelay},
            {{ip, ttl}, 33}, {{otp, rcvbuf}, {4, 2048}}, {{otp, meta}, {some, term}},
            {{socket, type}, dgram}, {{otp, use_registry}, false}, {{socket, rcvtimeo}, 1},
            {{ip, mtu}, 5}, {{otp, controlling_process}, spawn(fun() -> receive _ -> ok end end)},
            {{otp, meta}, not_owner_now}],
    [show({set, O}, socket:setopt(S, O, V)) || {O, V} <- Sets],
    [show({get_after, O}, socket:getopt(S, O)) ||
        O <- [{socket, reuseaddr}, {tcp, nodelay}, {socket, linger}, {ip, tos}, {ip, ttl},
              {otp, rcvbuf}, {otp, meta}]],
    show(native_get, socket:getopt_native(S, {socket, 2}, integer)),
    show(native_set, socket:setopt_native(S, {socket, 2}, 0)),
    show(native_get2, socket:getopt_native(S, {socket, 2}, boolean)),
    show(native_bin, byte_size(element(2, socket:getopt_native(S, {socket, 13}, 8)))),
    show(is_supported, [socket:is_supported(K) || K <- [ipv6, local, sctp, netns, sendfile]]),
    show(is_supported2, [socket:is_supported(options, O) ||
                            O <- [{socket, reuseaddr}, {socket, rcvtimeo}, {tcp, nodelay},
                                  {ip, tos}, {socket, peek_off}]]),
    show(supports_msg_flags, lists:sort(socket:supports(msg_flags))),
    show(supports_socket_opts, lists:sort(socket:supports(options, socket))),
    show(supports_tcp_opts, lists:sort(socket:supports(options, tcp))),
    show(supports_ip_opts, lists:sort(socket:supports(options, ip))),
    show(supports_ipv6_opts, lists:sort(socket:supports(options, ipv6))),
    show(supports_udp_opts, lists:sort(socket:supports(options, udp))),
    socket:close(S),
    show(getopt_closed, socket:getopt(S, {socket, reuseaddr})),
    show(setopt_closed, socket:setopt(S, {socket, reuseaddr}, true)).

errors() ->
    io:format("--- errors~n"),
    show(bad_domain, socket:open(foo, stream, tcp)),
    show(bad_type, socket:open(inet, foo, tcp)),
    show(bad_proto, socket:open(inet, stream, foo)),
    show(mismatch, socket:open(inet, dgram, tcp)),
    show(bad_arg, error_reason(fun() -> socket:open(inet, stream, tcp, not_a_map) end)),
    {ok, S} = socket:open(inet, stream, tcp),
    show(bad_addr, socket:bind(S, #{family => inet, addr => {1,2,3}, port => 0})),
    show(bad_keys, socket:bind(S, #{family => inet, addr => any, port => 0, bad => 1})),
    show(connect_refused, socket:connect(S, #{family => inet, addr => loopback, port => 1})),
    show(recv_not_connected, socket:recv(S, 1, 100)),
    show(send_not_connected, socket:send(S, <<"x">>)),
    show(accept_not_listening, socket:accept(S, 100)),
    show(shutdown_bad, error_reason(fun() -> socket:shutdown(S, sideways) end)),
    show(shutdown_nc, socket:shutdown(S, read)),
    show(not_socket, error_reason(fun() -> socket:close(foo) end)),
    show(badarg_recv, error_reason(fun() -> socket:recv(S, -1) end)),
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    {ok, #{port := P}} = socket:sockname(L),
    {ok, L2} = socket:open(inet, stream, tcp),
    show(addr_in_use, socket:bind(L2, #{family => inet, addr => loopback, port => P})),
    show(accept_timeout, (ok = socket:listen(L)) =:= ok andalso socket:accept(L, 50)),
    [socket:close(X) || X <- [S, L, L2]],
    ok.

counts() ->
    io:format("--- counts~n"),
    N0 = socket:number_of(),
    W0 = length(socket:which_sockets()),
    {ok, S1} = socket:open(inet, stream, tcp),
    {ok, S2} = socket:open(inet6, dgram, udp),
    show(number_of, socket:number_of() - N0),
    show(which_sockets, length(socket:which_sockets()) - W0),
    show(which_tcp, [S || S <- socket:which_sockets(tcp), S =:= S1] =:= [S1]),
    show(which_inet6, [S || S <- socket:which_sockets(inet6), S =:= S2] =:= [S2]),
    Info = socket:info(),
    show(global_counters, maps:with([num_cnt_bits], maps:get(counters, Info))),
    show(global, maps:without([counters], Info)),
    %% A socket whose owner dies is closed.
    Self = self(),
    Pid = spawn(fun() -> {ok, S} = socket:open(inet, stream, tcp), Self ! {s, S},
                         receive stop -> ok end end),
    S3 = receive {s, S} -> S end,
    show(owned, socket:number_of() - N0),
    Ref = monitor(process, Pid),
    Pid ! stop,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    wait_closed(S3, 50),
    show(owner_died, socket:number_of() - N0),
    show(dead_socket_info, maps:get(rstates, socket:info(S3))),
    show(dead_socket_send, socket:send(S3, <<"x">>)),
    socket:close(S1), socket:close(S2),
    show(after_close, socket:number_of() - N0).

wait_closed(_S, 0) -> ok;
wait_closed(S, N) ->
    case lists:member(closed, maps:get(rstates, socket:info(S))) of
        true -> ok;
        false -> timer:sleep(10), wait_closed(S, N - 1)
    end.

error_reason(F) ->
    try F() catch C:R -> {C, R} end.

%% The loopback interface through socket:ioctl and net (the same machine for both VMs).
interfaces() ->
    io:format("--- interfaces~n"),
    {ok, S} = socket:open(inet, dgram),
    [show({ioctl, R}, socket:ioctl(S, R, "lo"))
     || R <- [gifindex, gifflags, gifaddr, gifnetmask, gifmtu, gifbrdaddr, gifmap]],
    %% erl leaves the bytes after the 6-byte hardware address uninitialised.
    {ok, #{family := HwFamily, addr := <<Hw:6/binary, _/binary>>}} = socket:ioctl(S, gifhwaddr, "lo"),
    show(gifhwaddr, {HwFamily, Hw}),
    show(ioctl_unknown_if, socket:ioctl(S, gifindex, "no-such-if0")),
    {ok, Index} = socket:ioctl(S, gifindex, "lo"),
    show(gifname, socket:ioctl(S, gifname, Index)),
    {ok, Conf} = socket:ioctl(S, gifconf),
    show(gifconf_lo, [C || #{name := "lo"} = C <- Conf]),
    show(if_name2index, net:if_name2index("lo") =:= {ok, Index}),
    show(if_index2name, net:if_index2name(Index)),
    show(if_names_lo, lists:member({Index, "lo"}, element(2, net:if_names()))),
    show(gethostname, element(1, net:gethostname())),
    socket:close(S).

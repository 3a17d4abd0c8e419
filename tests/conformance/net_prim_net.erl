%% OTP's net module over prim_net's natives (issue 23): info/command, getifaddrs with every
%% filter net.erl offers (its AF_PACKET entries carry the hardware address), getaddrinfo
%% (localhost, numeric addresses and services, unknown hosts and services, bad arguments) and
%% getnameinfo (its flags, IPv4/IPv6/local addresses, bad flags). Only names the local
%% resolver answers from /etc/hosts and /etc/services, and the ".invalid" name RFC 6761
%% reserves; both emulators read the same kernel, so the interfaces print in full.
-module(net_prim_net).
-export([main/0]).

show(Label, V) -> io:format("~s: ~p~n", [Label, V]).

%% An exception as its class and reason (the stack is the emulator's own business).
try_(F) ->
    try F() catch C:R -> {C, R} end.

main() ->
    admin(),
    ifaddrs(),
    addrinfo(),
    nameinfo().

admin() ->
    show("info", net:info()),
    %% {debug, true} is left out: OTP's NIF then traces to stderr.
    [show("command", {C, net:command(C)})
     || C <- [{debug, false}, {debug, x}, {debug}, {debug, true, 1}, debug, 42,
              {other, true}]],
    show("info after", net:info()),
    show("gethostname is string", case net:gethostname() of
                                      {ok, H} -> io_lib:printable_list(H);
                                      E -> E
                                  end).

ifaddrs() ->
    show("getifaddrs()", net:getifaddrs()),
    [show(io_lib:format("getifaddrs(~p)", [F]), try_(fun() -> net:getifaddrs(F) end))
     || F <- [all, default, inet, inet6, packet, local, unspec,
              #{family => packet}, #{family => inet, flags => [loopback]},
              #{flags => any}, #{name => "lo"}, #{family => inet6, name => "lo"}]],
    %% net:getifaddrs/2 with a namespace loops forever in OTP 25.2.3 (getifaddrs/1 with a
    %% string calls getifaddrs/2 back), so the namespace is given to prim_net directly.
    show("nif_getifaddrs(#{})", length(element(2, prim_net:getifaddrs(#{})))),
    show("nif_getifaddrs(#{netns => bad})", try_(fun() -> prim_net:getifaddrs(#{netns => bad}) end)),
    show("nif_getifaddrs(#{netns => missing})",
         try_(fun() -> prim_net:getifaddrs(#{netns => "/no/such/netns"}) end)),
    show("nif_getifaddrs(#{netns, other})",
         length(element(2, prim_net:getifaddrs(#{netns => bad, other => 1})))),
    show("nif_getifaddrs(not_a_map)", try_(fun() -> prim_net:getifaddrs(not_a_map) end)),
    %% Every interface name net:if_names/0 knows has an entry.
    {ok, Ifs} = net:getifaddrs(all),
    {ok, Names} = net:if_names(),
    show("if_names covered", [N || {_, N} <- Names, not lists:any(fun(#{name := M}) -> M =:= N end, Ifs)]).

addrinfo() ->
    [show(io_lib:format("getaddrinfo(~p)", [A]), try_(fun() -> apply(net, getaddrinfo, A) end))
     || A <- [["localhost"], ["127.0.0.1"], ["::1"], ["localhost", "80"], ["127.0.0.1", "http"],
              ["::1", "22"], [undefined, "http"], ["localhost", undefined],
              ["127.0.0.1", "65535"], ["127.0.0.1", "65536"], ["localhost", "nosuchservice"],
              ["no.such.host.invalid"], ["300.1.1.1", "80"], [[256]], [foo], ["lo\0calhost"],
              [undefined, undefined]]],
    [show(io_lib:format("nif_getaddrinfo(~p)", [A]), try_(fun() -> apply(prim_net, getaddrinfo, A) end))
     || A <- [["localhost", undefined], [undefined, "echo"], [undefined, undefined]]],
    ok.

nameinfo() ->
    In4 = #{family => inet, addr => {127, 0, 0, 1}, port => 80},
    In6 = #{family => inet6, addr => {0, 0, 0, 0, 0, 0, 0, 1}, port => 22, flowinfo => 0, scope_id => 0},
    %% 127.0.0.1 is named by /etc/hosts; other addresses only numerically (no DNS query).
    [show(io_lib:format("getnameinfo(~p, ~p)", [A, F]), try_(fun() -> net:getnameinfo(A, F) end))
     || A <- [In4, In4#{port => 65535}, In4#{port => 53}],
        F <- [undefined, [], [namereqd], [dgram], [nofqdn], [numerichost], [numericserv],
              [numerichost, numericserv], [idn]]],
    [show(io_lib:format("getnameinfo(~p, ~p)", [A, F]), try_(fun() -> net:getnameinfo(A, F) end))
     || A <- [In6, In6#{port => 0}, In6#{port => 53}, #{family => inet, addr => {192, 0, 2, 1}, port => 7}],
        F <- [[numerichost], [numerichost, numericserv], [numerichost, dgram]]],
    [show(io_lib:format("getnameinfo(~p)", [A]), try_(fun() -> net:getnameinfo(A) end))
     || A <- [In4, #{family => inet, addr => loopback, port => 7},
              #{family => unspec, addr => <<>>}, #{family => 99, addr => <<1, 2, 3>>},
              #{family => inet, addr => bad, port => 1}, not_a_map]],
    show("getnameinfo bad flag", try_(fun() -> net:getnameinfo(In4, [bogus]) end)),
    show("getnameinfo bad flags", try_(fun() -> net:getnameinfo(In4, bogus) end)),
    show("prim_net:getnameinfo bad flags", try_(fun() -> prim_net:getnameinfo(In4, 42) end)),
    show("prim_net:getnameinfo improper flags", try_(fun() -> prim_net:getnameinfo(In4, [numericserv | x]) end)).

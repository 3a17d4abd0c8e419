%% The inet drivers' interface and name requests (issue 23): inet:getifaddrs/0,
%% getiflist/0, ifget/2 and ifset/2, gethostname/0, getservbyname/2 and getservbyport/2, and
%% the same requests straight through prim_inet on UDP sockets of each family. The machine's
%% own interfaces are the data: erl and beamvm run on the same machine and must agree.
-module(inet_ifaces).
-export([main/0]).

show(Label, V) -> io:format("~s: ~w~n", [Label, V]).

main() ->
    {ok, Addrs} = inet:getifaddrs(),
    show("getifaddrs", Addrs),
    show("getiflist", inet:getiflist()),
    Names = [Name || {Name, _} <- Addrs],
    All = [addr, broadaddr, dstaddr, mtu, netmask, flags, hwaddr],
    [show("ifget " ++ N, inet:ifget(N, All)) || N <- Names],
    [show("ifget " ++ N ++ " one by one", [inet:ifget(N, [O]) || O <- All]) || N <- Names],
    show("ifget as atom", inet:ifget(lo, [flags, mtu])),
    show("ifget no options", inet:ifget("lo", [])),
    show("ifget unknown interface", inet:ifget("nosuchif0", All)),
    show("ifget unknown option", inet:ifget("lo", [speed])),
    show("ifget long name", inet:ifget(lists:duplicate(300, $x), [flags])),
    show("ifset bad value", inet:ifset("lo", [{mtu, nope}])),
    show("ifset unknown interface", inet:ifset("nosuchif0", [{flags, [up]}])),
    show("ifset unknown option", inet:ifset("lo", [{speed, 1}])),
    {ok, Host} = inet:gethostname(),
    show("gethostname is the machine's", Host =:= net_adm:localhost() orelse {Host, net_adm:localhost()}),
    show("gethostname", inet:gethostname()),
    services(),
    per_family(),
    ok.

services() ->
    [show(io_lib:format("getservbyname ~p ~p", [S, P]), inet:getservbyname(S, P))
     || {S, P} <- [{http, tcp}, {https, tcp}, {ssh, tcp}, {domain, udp}, {ntp, udp},
                   {smtp, "tcp"}, {nosuchservice, tcp}, {http, nosuchproto}, {http, ''}]],
    [show(io_lib:format("getservbyport ~p ~p", [N, P]), inet:getservbyport(N, P))
     || {N, P} <- [{80, tcp}, {443, tcp}, {22, tcp}, {53, udp}, {123, udp}, {1, tcp},
                   {65000, tcp}, {80, nosuchproto}]],
    show("getservbyname string name", try inet:getservbyname("http", tcp) catch error:R -> R end),
    show("getservbyport bad port", catch inet:getservbyport(70000, tcp)).

%% The requests on sockets of each family, through prim_inet as inet does.
per_family() ->
    Path = "/tmp/inet_ifaces_" ++ os:getpid(),
    file:delete(Path),
    Socks = [{inet, gen_udp:open(0, [inet])}, {inet6, gen_udp:open(0, [inet6])},
             {local, gen_udp:open(0, [local, {ifaddr, {local, Path}}])}],
    [begin
         show(atom_to_list(F) ++ " getiflist", prim_inet:getiflist(S)),
         show(atom_to_list(F) ++ " ifget lo", prim_inet:ifget(S, "lo", [flags, addr, mtu])),
         show(atom_to_list(F) ++ " getifaddrs lo",
              case prim_inet:getifaddrs(S) of
                  {ok, L} -> lists:keyfind("lo", 1, L);
                  E -> E
              end),
         show(atom_to_list(F) ++ " gethostname", prim_inet:gethostname(S) =:= inet:gethostname()),
         show(atom_to_list(F) ++ " getservbyname", prim_inet:getservbyname(S, http, tcp)),
         gen_udp:close(S),
         show(atom_to_list(F) ++ " closed getiflist", catch prim_inet:getiflist(S))
     end || {F, {ok, S}} <- Socks],
    file:delete(Path).

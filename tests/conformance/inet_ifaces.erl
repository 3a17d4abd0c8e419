%% The interface and name requests of the inet drivers (inet_drv's GETIFLIST, IFGET, IFSET,
%% GETIFADDRS, GETHOSTNAME, GETSERVBYNAME, GETSERVBYPORT) through inet and prim_inet, and their
%% errors. Whole terms are printed: both emulators read the same kernel and service database,
%% so the machine's interfaces and names are the same on both. ifset only asks for what already
%% holds (lo up) or names no interface, so it changes nothing even when run as root.
-module(inet_ifaces).
-export([main/0]).

-define(MAGIC, 16#03f1a300).
-define(REQ_GETSERVBYNAME, 17).
-define(REQ_GETSERVBYPORT, 18).
-define(REQ_GETHOSTNAME, 12).
-define(REQ_IFGET, 22).
-define(REQ_IFSET, 23).

main() ->
    All = [addr, broadaddr, dstaddr, mtu, netmask, flags, hwaddr],
    show(getifaddrs, inet:getifaddrs()),
    show(getiflist, inet:getiflist()),
    show(ifget_lo, inet:ifget("lo", All)),
    show(ifget_lo_atom, inet:ifget(lo, [flags, mtu])),
    show(ifget_unknown, inet:ifget("nosuchif0", All)),
    show(ifget_empty, inet:ifget("lo", [])),
    show(ifget_badopt, catch inet:ifget("lo", [nosuchopt])),
    show(ifset_noop, inet:ifset("lo", [{flags, [up]}])),
    show(ifset_unknown, inet:ifset("nosuchif0", [{mtu, 1500}, {flags, [up]}])),
    show(gethostname, inet:gethostname()),
    show(getservbyname_http, inet:getservbyname(http, tcp)),
    show(getservbyname_domain_udp, inet:getservbyname(domain, udp)),
    show(getservbyname_string,
         try inet:getservbyname("ssh", "tcp") catch Class:Reason -> {Class, Reason} end),
    show(getservbyname_unknown, inet:getservbyname(nosuchservice, tcp)),
    show(getservbyname_badproto, inet:getservbyname(http, nosuchproto)),
    show(getservbyport_80, inet:getservbyport(80, tcp)),
    show(getservbyport_53_udp, inet:getservbyport(53, udp)),
    show(getservbyport_unknown, inet:getservbyport(1, nosuchproto)),
    show(getservbyport_free, inet:getservbyport(65000, tcp)),
    inet6(All),
    raw(),
    closed(),
    ok.

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

%% Through an IPv6 socket: Linux answers the IPv4-only ioctls differently there.
inet6(All) ->
    case gen_udp:open(0, [inet6]) of
        {ok, S} ->
            show(inet6_ifget_lo, inet:ifget(S, "lo", All)),
            show(inet6_getiflist, inet:getiflist(S)),
            show(inet6_getifaddrs, inet:getifaddrs(S) =:= inet:getifaddrs()),
            gen_udp:close(S);
        Error ->
            show(inet6_open, Error)
    end.

%% Malformed requests, sent as prim_inet sends requests but with bytes it never writes.
raw() ->
    {ok, S} = gen_udp:open(0, []),
    Ctl = fun(Req, Args) -> catch erlang:port_control(S, Req + ?MAGIC, Args) end,
    show(raw_hostname_args, Ctl(?REQ_GETHOSTNAME, [1])),
    show(raw_servbyname_short, Ctl(?REQ_GETSERVBYNAME, [4, "http"])),
    show(raw_servbyname_long_proto, Ctl(?REQ_GETSERVBYNAME, [4, "http", 9, "tcp"])),
    show(raw_servbyname_ok, Ctl(?REQ_GETSERVBYNAME, [4, "http", 3, "tcp"])),
    show(raw_servbyport_short, Ctl(?REQ_GETSERVBYPORT, [0, 80])),
    show(raw_servbyport_ok, Ctl(?REQ_GETSERVBYPORT, [0, 80, 3, "tcp"])),
    show(raw_ifget_empty, Ctl(?REQ_IFGET, [])),
    show(raw_ifget_badopt, Ctl(?REQ_IFGET, [2, "lo", 99])),
    show(raw_ifset_badopt, Ctl(?REQ_IFSET, [2, "lo", 99])),
    show(raw_ifset_short_mtu, Ctl(?REQ_IFSET, [2, "lo", 4, 0, 0])),
    show(raw_ifset_bad_family, Ctl(?REQ_IFSET, [2, "lo", 1, 9, 127, 0, 0, 1])),
    gen_udp:close(S).

%% A port of the inet driver with no socket yet: the interface requests answer exbadport, the
%% name requests need no socket.
closed() ->
    P = erlang:open_port({spawn_driver, "udp_inet"}, [binary]),
    show(closed_getiflist, prim_inet:getiflist(P)),
    show(closed_getifaddrs, prim_inet:getifaddrs(P)),
    show(closed_ifget, prim_inet:ifget(P, "lo", [mtu])),
    show(closed_ifset, prim_inet:ifset(P, "lo", [{flags, [up]}])),
    show(closed_gethostname, prim_inet:gethostname(P) =:= inet:gethostname()),
    show(closed_getservbyname, prim_inet:getservbyname(P, http, tcp)),
    show(closed_getservbyport, prim_inet:getservbyport(P, 80, tcp)),
    erlang:port_close(P).

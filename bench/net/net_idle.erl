%% Idle connections (issue 23): what N idle TCP connections cost the VM that serves them.
%% server/1 runs in the VM under test: it listens on loopback, writes its port to a file,
%% accepts N connections from client/1 (run in another OS process, so that each VM needs
%% only N descriptors), and gives each to a process of its own waiting in {active, once}, as
%% a server does. It then measures:
%%   - the VM's CPU time (utime + stime of /proc/self/stat) over IdleS seconds with no
%%     connection yet (baseline) and over IdleS seconds with the N connections idle;
%%   - the growth of the VM's resident set (VmRSS) and of erlang:memory(total) from before the
%%     first connection to after the last, divided by N (a connection here is its socket and
%%     the process waiting on it);
%% and at the end tells the client to send a byte on every connection and counts the echoes:
%% all N must be served after the idle time. bench/net_idle.sh runs both halves.
-module(net_idle).
-export([server/1, client/1]).

-define(WAIT_MS, 120000).

%% [PortFile, N, IdleS, ClkTck] as strings (erl -run).
server([PortFile, NS, IdleS, ClkTckS]) ->
    N = list_to_integer(NS),
    Idle = list_to_integer(IdleS),
    ClkTck = list_to_integer(ClkTckS),
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {reuseaddr, true},
                                 {ip, {127, 0, 0, 1}}, {backlog, 1024}]),
    {ok, Port} = inet:port(L),
    BaselineCpu = idle_cpu(Idle, ClkTck),
    erlang:garbage_collect(),
    Rss0 = rss_bytes(),
    Mem0 = erlang:memory(total),
    ok = file:write_file(PortFile ++ ".tmp", integer_to_list(Port)),
    ok = file:rename(PortFile ++ ".tmp", PortFile),
    Main = self(),
    Handlers = accept_n(L, N, Main, []),
    erlang:garbage_collect(),
    Rss1 = rss_bytes(),
    Mem1 = erlang:memory(total),
    IdleCpu = idle_cpu(Idle, ClkTck),
    hd(Handlers) ! say_go,
    Served = count_served(N, 0),
    io:format("check net_idle connections ~p served_after_idle ~p~n", [N, Served]),
    io:format("idle_cpu_s_without_connections ~.3f~n", [BaselineCpu]),
    io:format("idle_cpu_s ~.3f~n", [IdleCpu]),
    io:format("rss_bytes_per_connection ~p~n", [(Rss1 - Rss0) div N]),
    io:format("memory_total_bytes_per_connection ~p~n", [(Mem1 - Mem0) div N]),
    halt().

accept_n(_, 0, _, Acc) -> Acc;
accept_n(L, N, Main, Acc) ->
    {ok, S} = gen_tcp:accept(L, ?WAIT_MS),
    Pid = spawn(fun() -> receive go -> ok end, wait(S, Main) end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    accept_n(L, N - 1, Main, [Pid | Acc]).

%% A connection's process: idle in receive until the client's byte (echoed) or, for one of
%% them, the order to start the client (say_go).
wait(S, Main) ->
    ok = inet:setopts(S, [{active, once}]),
    receive
        say_go -> ok = gen_tcp:send(S, <<"go">>), wait(S, Main);
        {tcp, S, <<"x">>} -> ok = gen_tcp:send(S, <<"x">>), Main ! served, wait(S, Main);
        {tcp_closed, S} -> ok
    end.

count_served(0, Got) -> Got;
count_served(N, Got) ->
    receive served -> count_served(N - 1, Got + 1) after ?WAIT_MS -> Got end.

%% CPU seconds this OS process used while the calling process slept Idle seconds.
idle_cpu(Idle, ClkTck) ->
    T0 = cpu_ticks(),
    timer:sleep(Idle * 1000),
    (cpu_ticks() - T0) / ClkTck.

cpu_ticks() ->
    {ok, Stat} = file:read_file("/proc/self/stat"),
    %% The command name (field 2) is in parentheses and may hold spaces: split after it.
    [_, AfterComm] = binary:split(Stat, <<") ">>),
    Fields = binary:split(AfterComm, <<" ">>, [global]),
    %% Fields from 3 on; utime and stime are fields 14 and 15.
    binary_to_integer(lists:nth(14 - 2, Fields)) + binary_to_integer(lists:nth(15 - 2, Fields)).

rss_bytes() ->
    {ok, Status} = file:read_file("/proc/self/status"),
    [_, Rest] = binary:split(Status, <<"VmRSS:">>),
    [Kb | _] = string:lexemes(binary_to_list(Rest), " \t\n"),
    list_to_integer(Kb) * 1024.

%% [PortFile, N]: N connections, all owned by this process in {active, once}; waits for the
%% server's go, sends a byte on each and counts the echoes.
client([PortFile, NS]) ->
    N = list_to_integer(NS),
    {ok, PortText} = file:read_file(PortFile),
    Port = binary_to_integer(PortText),
    Socks = [connect(Port) || _ <- lists:seq(1, N)],
    receive
        {tcp, GoSock, <<"go">>} -> ok = inet:setopts(GoSock, [{active, once}])
    after ?WAIT_MS -> exit(no_go)
    end,
    [ok = gen_tcp:send(S, <<"x">>) || S <- Socks],
    Echoed = count_echoes(N, 0),
    io:format("client connections ~p echoed ~p~n", [N, Echoed]),
    [gen_tcp:close(S) || S <- Socks],
    halt().

connect(Port) ->
    {ok, S} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {active, once}], ?WAIT_MS),
    S.

count_echoes(0, Got) -> Got;
count_echoes(N, Got) ->
    receive
        {tcp, _, <<"x">>} -> count_echoes(N - 1, Got + 1)
    after ?WAIT_MS -> Got
    end.

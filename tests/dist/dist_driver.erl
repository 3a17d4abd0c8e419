%% The cluster tests' driver (tests/dist/cluster.sh): a hidden erl node that runs one group of
%% cases (dist_cases) on the nodes a, b and c of a cluster, in every direction, and prints
%% what each case returned with node names, pids, refs and ports replaced by the role of
%% their node, so that an erl-only cluster and a mixed one print the same text.
%% Plain arguments: Group Role=Node... (roles a, b, c; w and v for the cookie group) and
%% Key=Value extras (wcookie, vhome). Halts every node of the cluster before it halts.
-module(dist_driver).
-export([main/0]).

%% Both times BEAMVM_TEST_TIME_SCALE (tools/tsan.sh: an instrumented beamvm is 5-15x slower).
-define(CALL_MS, (20000 * time_scale())).
-define(UP_MS, (30000 * time_scale())).

main() ->
    [Group | Specs] = init:get_plain_arguments(),
    Args = [list_to_tuple(string:split(S, "=")) || S <- Specs],
    Roles = [{list_to_atom(R), list_to_atom(N)} || {R, N} <- Args, lists:member(R, ["a", "b", "c", "w", "v"])],
    put(roles, [{N, R} || {R, N} <- Roles] ++ [{node(), driver}]),
    Status = try
                 Mesh = [N || {R, N} <- Roles, R =/= w, R =/= v],
                 wait_up(Mesh),
                 connect_mesh(Mesh),
                 group(list_to_atom(Group), maps:from_list(Roles), maps:from_list(Args)),
                 0
             catch C:E:St ->
                 io:format("driver failed: ~0p~n", [scrub({C, E, St})]),
                 1
             end,
    [erpc:cast(N, erlang, halt, []) || {_, N} <- Roles, lists:member(N, nodes(connected))],
    timer:sleep(200),
    halt(Status).

%% ---- groups

group(spawn, N, _) ->
    each_pair(N, [spawns, links, monitors]);
group(rpc, N, _) ->
    each_pair(N, [rpcs, erpcs, remote_ids]),
    All = [maps:get(R, N) || R <- [a, b, c]],
    [show(multicall, X, all, on(N, X, multicall, All)) || X <- [a, b, c]],
    [show(node_lists, X, none, on(N, X, node_lists, none)) || X <- [a, b, c]];
group(messages, N, _) ->
    each_pair(N, [ordering, large]);
group(pg, N, _) ->
    each_pair(N, [pg_groups]);
group(failover, N, _) ->
    [show(gsup_start, X, none, erpc:call(maps:get(X, N), dist_gsup, start, [], ?CALL_MS))
     || X <- [a, b, c]],
    [show(gserver_where, X, none, erpc:call(maps:get(X, N), dist_gserver, where, [], ?CALL_MS))
     || X <- [a, b, c]],
    %% a dies: b and c see it, the server moves to one of them.
    [show(watch_start, X, a, on(N, X, watch_start, a)) || X <- [b, c]],
    kill(maps:get(a, N)),
    [show(watch_report, X, a, on(N, X, watch_report, a)) || X <- [b, c]],
    [show(dead_node, X, a, on(N, X, dead_node, a)) || X <- [b, c]],
    Moved = wait_where(maps:get(b, N), maps:get(a, N)),
    WhereC = erpc:call(maps:get(c, N), dist_gserver, where, [], ?CALL_MS),
    show(gserver_moved, b, c, {Moved =/= maps:get(a, N), Moved =:= WhereC,
                               lists:member(Moved, [maps:get(b, N), maps:get(c, N)])}),
    [show(gserver_ping, X, none, erpc:call(maps:get(X, N), dist_gserver, call, [ping], ?CALL_MS))
     || X <- [b, c]],
    %% c dies: b sees it and ends up running the server.
    show(watch_start, b, c, on(N, b, watch_start, c)),
    kill(maps:get(c, N)),
    show(watch_report, b, c, on(N, b, watch_report, c)),
    show(dead_node, b, c, on(N, b, dead_node, c)),
    show(gserver_where_last, b, none, wait_where(maps:get(b, N), maps:get(c, N)));
group(cookie, N, Extra) ->
    W = maps:get(w, N),
    WCookie = list_to_atom(maps:get("wcookie", Extra)),
    %% a, b, c do not know w's cookie: refused both ways.
    [show(ping_wrong_cookie, X, w, on(N, X, ping, w)) || X <- [a, b, c]],
    erlang:set_cookie(W, WCookie),
    wait_up([W]),
    [show(ping_wrong_cookie, w, X, on(N, w, ping, X)) || X <- [a, b, c]],
    %% Told w's cookie, they connect.
    [begin
         true = erpc:call(maps:get(X, N), erlang, set_cookie, [W, WCookie], ?CALL_MS),
         show(ping_right_cookie, X, w, on(N, X, ping, w))
     end || X <- [a, b, c]],
    show(node_lists, w, none, on(N, w, node_lists, none)),
    %% v had no -setcookie and an empty $HOME: auth made ~/.erlang.cookie.
    V = maps:get(v, N),
    VCookie = read_cookie(filename:join(maps:get("vhome", Extra), ".erlang.cookie"), 100),
    erlang:set_cookie(V, VCookie),
    wait_up([V]),
    show(cookie_file, v, none, on(N, v, cookie_file, none)),
    [begin
         true = erpc:call(maps:get(X, N), erlang, set_cookie, [V, VCookie], ?CALL_MS),
         show(ping_home_cookie, X, v, on(N, X, ping, v))
     end || X <- [a, b]].

%% ---- running and printing

each_pair(N, Cases) ->
    [show(Case, X, Y, on(N, X, Case, Y)) || Case <- Cases, X <- [a, b, c], Y <- [a, b, c], X =/= Y].

%% Runs dist_cases:Case(Arg) on the node of role X; Arg is a role's node, or a term.
on(N, X, Case, Arg0) ->
    Arg = case is_atom(Arg0) andalso maps:is_key(Arg0, N) of
              true -> maps:get(Arg0, N);
              false -> Arg0
          end,
    try erpc:call(maps:get(X, N), dist_cases, run, [Case, Arg], ?CALL_MS)
    catch C:{exception, R, _Stack} -> {crashed, C, R};
          C:R -> {crashed, C, R}
    end.

show(Case, X, Y, Result) ->
    io:format("~p ~p->~p: ~0p~n", [Case, X, Y, scrub(Result)]).

kill(Node) ->
    OsPid = erpc:call(Node, os, getpid, [], ?CALL_MS),
    os:cmd("kill -9 " ++ OsPid).

%% a, b and c connect to each other (as the driver's connections are hidden, they are not
%% connected otherwise) and global agrees on its view before the cases run.
connect_mesh(Nodes) ->
    [true = erpc:call(X, net_kernel, connect_node, [Y], ?CALL_MS) || X <- Nodes, Y <- Nodes, X =/= Y],
    [ok = erpc:call(X, global, sync, [], ?CALL_MS) || X <- Nodes],
    ok.

wait_up(Nodes) ->
    Deadline = erlang:monotonic_time(millisecond) + ?UP_MS,
    [wait_up(Node, Deadline) || Node <- Nodes],
    ok.

wait_up(Node, Deadline) ->
    case net_adm:ping(Node) of
        pong -> ok;
        pang ->
            erlang:monotonic_time(millisecond) < Deadline orelse error({node_not_up, Node}),
            timer:sleep(100),
            wait_up(Node, Deadline)
    end.

%% The node dist_gserver runs on as Observer sees it, once it is not Dead (10 s at most).
wait_where(Observer, Dead) -> wait_where(Observer, Dead, 200).

wait_where(_, _, 0) -> missing;
wait_where(Observer, Dead, N) ->
    case catch erpc:call(Observer, dist_gserver, where, [], ?CALL_MS) of
        Node when is_atom(Node), Node =/= Dead -> Node;
        _ -> timer:sleep(50), wait_where(Observer, Dead, N - 1)
    end.

read_cookie(_, 0) -> error(no_cookie_file);
read_cookie(File, N) ->
    case file:read_file(File) of
        {ok, <<_, _/binary>> = C} -> binary_to_atom(C);
        _ -> timer:sleep(100), read_cookie(File, N - 1)
    end.

%% Node names, pids, refs and ports in a result, by the role of their node.
scrub(T) when is_atom(T) ->
    case lists:keyfind(T, 1, get(roles)) of {_, R} -> R; false -> T end;
scrub(T) when is_pid(T) -> {pid, role(node(T))};
scrub(T) when is_reference(T) -> {ref, role(node(T))};
scrub(T) when is_port(T) -> {port, role(node(T))};
scrub(T) when is_list(T) -> scrub_list(T);
scrub(T) when is_tuple(T) -> list_to_tuple(scrub_list(tuple_to_list(T)));
scrub(T) when is_map(T) -> maps:from_list(scrub_list(maps:to_list(T)));
scrub(T) -> T.

scrub_list([H | T]) -> [scrub(H) | scrub_list(T)];
scrub_list([]) -> [];
scrub_list(T) -> scrub(T).

role(Node) -> case lists:keyfind(Node, 1, get(roles)) of {_, R} -> R; false -> other_node end.

time_scale() ->
    case os:getenv("BEAMVM_TEST_TIME_SCALE") of
        false -> 1;
        S -> list_to_integer(S)
    end.

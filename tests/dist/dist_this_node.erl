%% This node's own life as a distributed node (tests/dist/this_node.sh): what monitor_nodes
%% subscribers hear when net_kernel starts and stops (with a connection up), the nodedown
%% reasons, a dynamically named node (-sname undefined) getting its name from its first
%% connection and losing it with that connection, erlang:system_info(dist_ctrl), and
%% erlang:setnode/2 on a node that is alive. Prints what it saw; the script compares erl's
%% output with beamvm's.
-module(dist_this_node).
-export([main/1]).

main([Mode, PeerStr]) ->
    Peer = list_to_atom(PeerStr),
    case Mode of
        "static" -> static(Peer);
        "dynamic" -> dynamic(Peer)
    end,
    halt().

static(Peer) ->
    ok = net_kernel:monitor_nodes(true, #{node_type => all, nodedown_reason => true, connection_id => true}),
    {ok, _} = net_kernel:start([this_node_static, shortnames]),
    show(alive, {node() =/= nonode@nohost, is_alive()}),
    show(ping, net_adm:ping(Peer)),
    show(dist_ctrl, [{N =:= Peer, is_port(C) orelse is_pid(C)} || {N, C} <- erlang:system_info(dist_ctrl)]),
    show(setnode_when_alive, catch erlang:setnode(other@host, 1)),
    ok = net_kernel:stop(),
    timer:sleep(300),
    show(events, events(Peer)),
    show(after_stop, {node(), is_alive(), nodes(), erlang:system_info(dist_ctrl)}),
    {ok, _} = net_kernel:start([this_node_again, shortnames]),
    show(restarted, {is_alive(), events(Peer)}),
    ok = net_kernel:stop().

dynamic(Peer) ->
    net_kernel:monitor_nodes(true, [{node_type, all}]),
    show(before, {node(), is_alive()}),
    show(connect, net_kernel:connect_node(Peer)),
    show(named, {node() =/= nonode@nohost, nodes(), nodes(hidden)}),
    show(disconnect, net_kernel:disconnect(Peer)),
    timer:sleep(500),
    show(events, lists:sort(events(Peer))),
    show(unnamed, {node(), nodes(hidden)}),
    show(reconnect, net_kernel:connect_node(Peer)),
    show(named_again, {node() =/= nonode@nohost, nodes(hidden)}).

%% Monitor messages received so far, nodes named by role and connection ids replaced.
events(Peer) ->
    receive
        {Tag, Node, Info} ->
            Who = if Node =:= Peer -> peer; true -> this_node end,
            [{Tag, Who, clean(Info)} | events(Peer)]
    after 0 -> []
    end.

clean(Info) when is_map(Info) ->
    maps:map(fun(connection_id, I) when is_integer(I) -> integer; (_, V) -> V end, Info);
clean(Info) -> Info.

show(Label, Value) ->
    io:format("~p: ~p~n", [Label, Value]).

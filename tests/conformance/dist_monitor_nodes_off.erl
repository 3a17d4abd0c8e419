%% net_kernel:monitor_nodes(false[, Options]) ends every subscription the process made with
%% those options, however many times it subscribed (erl_distribution_SUITE's
%% monitor_nodes_many subscribes 65,553 times and unsubscribes once); subscriptions with
%% other options stay.
-module(dist_monitor_nodes_off).
-export([main/0]).

mine() ->
    erts_debug:set_internal_state(available_internal_state, true),
    All = erts_debug:get_internal_state(monitoring_nodes),
    erts_debug:set_internal_state(available_internal_state, false),
    lists:sort([Opts || {P, Opts} <- All, P =:= self()]).

main() ->
    % erts logs a warning each time the internal state is made available: not printed, as
    % its timing against this output is not fixed.
    ok = logger:set_primary_config(level, error),
    [ok = net_kernel:monitor_nodes(true) || _ <- lists:seq(1, 5)],
    [ok = net_kernel:monitor_nodes(true, [nodedown_reason]) || _ <- lists:seq(1, 2)],
    ok = net_kernel:monitor_nodes(true, #{node_type => hidden}),
    io:format("subscribed: ~p~n", [mine()]),
    ok = net_kernel:monitor_nodes(false),
    io:format("plain off: ~p~n", [mine()]),
    ok = net_kernel:monitor_nodes(false, [nodedown_reason]),
    io:format("nodedown_reason off: ~p~n", [mine()]),
    ok = net_kernel:monitor_nodes(false, [{node_type, hidden}]),
    io:format("hidden off: ~p~n", [mine()]),
    halt().

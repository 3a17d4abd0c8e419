%% The distribution controller natives called by a process that controls no connection
%% (erts answers notsup, or badarg where the argument itself is wrong), on a node that is
%% not distributed. The controller's own use is tested by tests/dist/cluster.sh --proto gen_tcp.
-module(dist_ctrl_callers).
-export([main/0]).

t(Label, F) ->
    erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    H = make_ref(),
    t(get_data, fun() -> erlang:dist_ctrl_get_data(H) end),
    t(get_data_notification, fun() -> erlang:dist_ctrl_get_data_notification(H) end),
    t(put_data, fun() -> erlang:dist_ctrl_put_data(H, <<1, 2, 3>>) end),
    t(put_data_not_iolist, fun() -> erlang:dist_ctrl_put_data(H, bar) end),
    t(put_data_tuple, fun() -> erlang:dist_ctrl_put_data({1, 2}, <<>>) end),
    t(input_handler, fun() -> erlang:dist_ctrl_input_handler(H, self()) end),
    t(input_handler_atom, fun() -> erlang:dist_ctrl_input_handler(H, foo) end),
    t(set_opt, fun() -> erlang:dist_ctrl_set_opt(H, get_size, true) end),
    t(set_opt_bad, fun() -> erlang:dist_ctrl_set_opt(H, other, 1) end),
    t(get_opt, fun() -> erlang:dist_ctrl_get_opt(H, get_size) end),
    t(get_stat, fun() -> erlang:dist_get_stat(H) end),
    t(get_stat_tuple, fun() -> erlang:dist_get_stat({a, b}) end),
    halt().

%% Registered ports: register/2 with a port, whereis/1 and registered/0 answering it, sending
%% and port operations by the name (port data, monitors: DOWN names {Name, Node}), port_info's
%% registered_name, unregister/1, and the name freed when the port closes or is killed.
%% register/2's error causes (erl_erts_errors reads them from the error_info) for ports and
%% processes; process_info's monitors list a port monitor as {port, _}. Names start with
%% preg_port_.
-module(port_registry).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% The cause in a badarg's error_info, or the result when there is no exception.
cause(F) ->
    try F() catch error:badarg:St ->
        [{_, _, _, Info} | _] = St,
        {badarg, maps:get(cause, proplists:get_value(error_info, Info, #{}), no_cause)}
    end.

ours() -> lists:sort([N || N <- registered(), lists:prefix("preg_port_", atom_to_list(N))]).

cat() -> open_port({spawn, "cat"}, [binary]).

echo(P, Send) ->
    Send(),
    receive {P, {data, D}} -> D after 5000 -> timeout end.

main() ->
    P = cat(),
    t(register, fun() -> register(preg_port_a, P) end),
    t(whereis, fun() -> whereis(preg_port_a) =:= P end),
    t(registered, fun ours/0),
    t(info_item, fun() -> erlang:port_info(P, registered_name) end),
    t(info_all_first, fun() -> hd(erlang:port_info(P)) end),
    t(info_by_name, fun() -> {name, N} = erlang:port_info(preg_port_a, name), N end),
    t(info_all_by_name, fun() -> length(erlang:port_info(preg_port_a)) end),
    t(second_name, fun() -> cause(fun() -> register(preg_port_b, P) end) end),
    t(name_taken, fun() -> cause(fun() -> register(preg_port_a, self()) end) end),
    t(send_by_name, fun() -> echo(P, fun() -> preg_port_a ! {self(), {command, <<"one\n">>}} end) end),
    t(send_by_name_node, fun() ->
        echo(P, fun() -> {preg_port_a, node()} ! {self(), {command, <<"two\n">>}} end) end),
    t(command_by_name, fun() -> echo(P, fun() -> port_command(preg_port_a, <<"three\n">>) end) end),
    t(connect_by_name, fun() -> port_connect(preg_port_a, self()) end),
    t(data_by_name, fun() -> true = erlang:port_set_data(preg_port_a, kept), erlang:port_get_data(preg_port_a) end),
    t(monitor_by_name, fun() ->
        R = monitor(port, preg_port_a),
        {monitors, Ms} = process_info(self(), monitors),
        {Ms, demonitor(R, [info])} end),
    t(monitor_by_pid_listed, fun() ->
        R = monitor(port, P),
        {monitors, Ms} = process_info(self(), monitors),
        demonitor(R),
        [M =:= {port, P} || M <- Ms] end),
    t(monitor_unknown_name, fun() ->
        R = monitor(port, preg_port_none),
        receive {'DOWN', R, port, Who, Why} -> {Who, Why} after 5000 -> timeout end end),
    NameMon = monitor(port, preg_port_a),
    t(close_by_name, fun() -> port_close(preg_port_a) end),
    t(down_by_name, fun() ->
        receive {'DOWN', NameMon, port, Who, Why} -> {Who, Why} after 5000 -> timeout end end),
    t(after_close, fun() -> {whereis(preg_port_a), ours(), erlang:port_info(P, registered_name)} end),
    t(closed_port, fun() -> cause(fun() -> register(preg_port_c, P) end) end),
    Q = cat(),
    t(unregister, fun() -> true = register(preg_port_q, Q), unregister(preg_port_q) end),
    t(after_unregister, fun() ->
        {erlang:port_info(Q, registered_name), whereis(preg_port_q), ours(), hd(erlang:port_info(Q))} end),
    t(unregister_again, fun() -> cause(fun() -> unregister(preg_port_q) end) end),
    t(reregister, fun() -> register(preg_port_q, Q) end),
    t(killed, fun() ->
        unlink(Q),
        Ref = monitor(port, Q),
        exit(Q, kill),
        receive {'DOWN', Ref, port, Q, R} -> ok after 5000 -> R = timeout end,
        {R, whereis(preg_port_q), ours()} end),
    t(name_free_again, fun() -> register(preg_port_q, self()), whereis(preg_port_q) =:= self() end),
    t(send_unknown, fun() -> cause(fun() -> preg_port_none ! x end) end),
    t(process_has_name, fun() -> cause(fun() -> register(preg_port_other, self()) end) end),
    t(dead_process, fun() ->
        Pid = spawn(fun() -> ok end),
        Ref = monitor(process, Pid),
        receive {'DOWN', Ref, process, Pid, _} -> ok end,
        cause(fun() -> register(preg_port_dead, Pid) end) end),
    t(bad_name, fun() -> cause(fun() -> register(undefined, cat()) end) end),
    t(bad_target, fun() -> cause(fun() -> register(preg_port_x, 42) end) end),
    unregister(preg_port_q),
    ok.

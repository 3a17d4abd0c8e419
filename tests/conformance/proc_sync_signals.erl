%% is_process_alive/1 and group_leader/2 act in signal order with what the caller sent the
%% target before (an unlink, an exit signal, a monitor), and a max-priority caller is not
%% starved by high-priority processes that keep every scheduler busy while a normal-priority
%% target has to answer (OTP raises the target's priority while it takes in the signal).
%% bif_SUITE's is_process_alive and group_leader_prio cases hung on beamvm.
-module(proc_sync_signals).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

tok(hej) -> tok(hopp);
tok(hopp) -> tok(hej).

busy_loops() ->
    [spawn_opt(fun() -> tok(hej) end, [link, {priority, high}])
     || _ <- lists:seq(1, 2 * erlang:system_info(schedulers))].

stop_all(Ps) ->
    [begin
         M = erlang:monitor(process, P),
         unlink(P),
         exit(P, bang),
         receive {'DOWN', M, process, P, R} -> R end
     end || P <- Ps].

%% The caller's own signals come first: after exit(P, kill) P is already gone.
alive_in_order() ->
    Ps = busy_loops(),
    receive after 200 -> ok end,
    R = [begin
             A = erlang:is_process_alive(P),
             unlink(P),
             B = erlang:is_process_alive(P),
             exit(P, kill),
             C = erlang:is_process_alive(P),
             {A, B, C}
         end || P <- Ps],
    lists:usort(R).

%% A process that has exited has told its monitors first.
alive_after_down() ->
    P = spawn(fun() -> receive after infinity -> ok end end),
    M = erlang:monitor(process, P),
    exit(P, kill),
    Alive = erlang:is_process_alive(P),
    Down = receive {'DOWN', M, process, P, R} -> R after 0 -> no_down_yet end,
    {Alive, Down}.

group_leaders() ->
    Tester = self(),
    GL = group_leader(),
    Other = spawn(fun() -> receive after infinity -> ok end end),
    TPs = [spawn_opt(fun() -> Tester ! {alive, self()}, receive after infinity -> ok end end,
                     [link, {priority, normal}]) || _ <- lists:seq(1, 10)],
    [receive {alive, TP} -> ok end || TP <- TPs],
    Ls = busy_loops(),
    receive after 200 -> ok end,
    Set = lists:usort(
            [begin
                 erlang:yield(),
                 erlang:demonitor(erlang:monitor(process, TP)),
                 true = erlang:group_leader(Other, TP),
                 {group_leader, G1} = process_info(TP, group_leader),
                 erlang:demonitor(erlang:monitor(process, TP)),
                 true = erlang:group_leader(GL, TP),
                 {group_leader, G2} = process_info(TP, group_leader),
                 {G1 =:= Other, G2 =:= GL}
             end || _ <- lists:seq(1, 20), TP <- TPs]),
    Exiting = lists:usort(
                [begin
                     M = erlang:monitor(process, TP),
                     unlink(TP),
                     exit(TP, bang),
                     E = try erlang:group_leader(Other, TP) catch error:What -> What end,
                     receive {'DOWN', M, process, TP, Reason} -> {E, Reason} end
                 end || TP <- TPs]),
    Stopped = lists:usort(stop_all(Ls)),
    exit(Other, kill),
    {Set, Exiting, Stopped}.

main() ->
    process_flag(priority, max),
    t(self_alive, fun() -> erlang:is_process_alive(self()) end),
    t(alive_in_order, fun alive_in_order/0),
    t(alive_after_down, fun alive_after_down/0),
    t(group_leaders, fun group_leaders/0),
    t(group_leader_dead, fun() ->
                                 {P, M} = spawn_monitor(fun() -> ok end),
                                 receive {'DOWN', M, _, _, _} -> ok end,
                                 erlang:group_leader(self(), P)
                         end),
    t(group_leader_badarg, fun() -> erlang:group_leader(not_a_pid, self()) end),
    ok.

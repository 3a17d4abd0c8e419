%% Processes: spawn, send/receive in order, selective receive, after, links and monitors with
%% trap_exit. Only deterministic facts are printed (no pids, no refs).
-module(processes_basic).
-export([main/0, id/1, echo/0, sum_server/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

echo() ->
    receive
        {From, stop} -> From ! {self(), stopped};
        {From, Msg} -> From ! {self(), Msg}, echo()
    end.

sum_server(Acc) ->
    receive
        {add, N} -> sum_server(Acc + N);
        {get, From} -> From ! {sum, Acc}, sum_server(Acc);
        stop -> ok
    end.

flush() -> receive _ -> flush() after 0 -> ok end.

main() ->
    t(echo, fun() -> P = spawn(fun echo/0), P ! {self(), hello}, receive {P, M} -> M end end),
    t(echo_mfa, fun() -> P = spawn(?MODULE, echo, []), P ! {self(), x}, P ! {self(), stop},
                         [receive {P, M} -> M end, receive {P, M2} -> M2 end] end),
    t(order_preserved, fun() -> P = spawn(?MODULE, sum_server, [0]),
                                [P ! {add, N} || N <- lists:seq(1, 1000)], P ! {get, self()}, P ! stop,
                                receive {sum, S} -> S end end),
    t(selective_receive, fun() -> self() ! a, self() ! b, self() ! c,
                                  R1 = receive b -> b end, R2 = receive X -> X end, R3 = receive Y -> Y end, [R1, R2, R3] end),
    t(receive_after, fun() -> receive never -> got after 10 -> timeout end end),
    t(after_zero, fun() -> self() ! m, {receive m -> yes after 0 -> no end, receive m -> yes after 0 -> no end} end),
    t(message_queue_len, fun() -> [self() ! I || I <- [1, 2, 3]], {message_queue_len, N} = process_info(self(), message_queue_len), flush(), N end),
    t(many_processes, fun() -> Self = self(), Ps = [spawn(fun() -> Self ! {done, I * I} end) || I <- lists:seq(1, 200)],
                               lists:sum([receive {done, V} -> V end || _ <- Ps]) end),
    t(monitor_normal, fun() -> {P, Ref} = spawn_monitor(fun() -> ok end),
                               receive {'DOWN', Ref, process, P, Why} -> Why end end),
    t(monitor_crash, fun() -> {P, Ref} = spawn_monitor(fun() -> exit(boom) end),
                              receive {'DOWN', Ref, process, P, Why} -> Why end end),
    t(monitor_noproc, fun() -> {P, Ref0} = spawn_monitor(fun() -> ok end),
                               receive {'DOWN', Ref0, _, _, _} -> ok end,
                               Ref = monitor(process, P), receive {'DOWN', Ref, process, P, Why} -> Why end end),
    t(link_trap_exit, fun() -> process_flag(trap_exit, true),
                               P = spawn_link(fun() -> exit(linked_reason) end),
                               R = receive {'EXIT', P, Why} -> Why end,
                               process_flag(trap_exit, false), R end),
    t(link_normal_trap, fun() -> process_flag(trap_exit, true),
                                 P = spawn_link(fun() -> ok end),
                                 R = receive {'EXIT', P, Why} -> Why end,
                                 process_flag(trap_exit, false), R end),
    t(kill_becomes_killed, fun() -> process_flag(trap_exit, true),
                                    P = spawn_link(fun() -> receive after infinity -> ok end end),
                                    exit(P, kill),
                                    R = receive {'EXIT', P, Why} -> Why end,
                                    process_flag(trap_exit, false), R end),
    t(register_whereis, fun() -> P = spawn(fun echo/0), register(my_echo, P), my_echo ! {self(), via_name},
                                 R = receive {P, M} -> M end, {R, whereis(my_echo) =:= P, whereis(nobody)} end),
    t(send_to_unregistered, fun() -> nobody_here ! msg end),
    t(is_alive_after_exit, fun() -> {P, Ref} = spawn_monitor(fun() -> ok end),
                                    receive {'DOWN', Ref, _, _, _} -> ok end, is_process_alive(P) end),
    ok.

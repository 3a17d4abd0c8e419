%% Registered names: register/2, unregister/1, whereis/1, registered/0, sending by name, the
%% registered_name item of process_info, and the name being freed when its process ends.
%% Names all start with preg_ so registered/0 can be filtered to ours (erl registers its own).
-module(proc_registry).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

wait_forever() -> receive never -> ok end.

%% A waiting process that echoes {From, Msg} back as {echoed, Msg}.
echo() -> receive {From, Msg} -> From ! {echoed, Msg}, echo() end.

stop(P) ->
    Ref = monitor(process, P),
    exit(P, kill),
    receive {'DOWN', Ref, process, P, _} -> ok end.

ours() -> lists:sort([N || N <- registered(), lists:prefix("preg_", atom_to_list(N))]).

mailbox() -> receive M -> [M | mailbox()] after 0 -> [] end.

main() ->
    t(register_whereis, fun() -> P = spawn(fun wait_forever/0),
                                 R = register(preg_a, P),
                                 W = whereis(preg_a),
                                 stop(P),
                                 {R, W =:= P} end),
    t(whereis_unknown, fun() -> whereis(preg_nobody) end),
    t(whereis_badarg, fun() -> whereis("preg_a") end),
    t(registered_lists_ours, fun() -> Ps = [spawn(fun wait_forever/0) || _ <- [1, 2, 3]],
                                      [register(N, P) || {N, P} <- lists:zip([preg_z, preg_m, preg_b], Ps)],
                                      L = ours(),
                                      [stop(P) || P <- Ps],
                                      {L, ours()} end),
    t(registered_all_atoms, fun() -> lists:all(fun is_atom/1, registered()) end),
    t(send_by_name, fun() -> P = spawn(fun echo/0), register(preg_echo, P),
                             preg_echo ! {self(), one},
                             erlang:send(preg_echo, {self(), two}),
                             R = [receive {echoed, M} -> M end || _ <- [1, 2]],
                             stop(P), R end),
    t(send_by_name_node, fun() -> P = spawn(fun echo/0), register(preg_echo2, P),
                                  {preg_echo2, node()} ! {self(), three},
                                  R = receive {echoed, M} -> M end,
                                  stop(P), R end),
    t(send_unknown_name, fun() -> preg_nobody ! hello end),
    t(register_twice_same_name, fun() -> P1 = spawn(fun wait_forever/0), P2 = spawn(fun wait_forever/0),
                                         register(preg_dup, P1),
                                         R = try register(preg_dup, P2) catch error:E -> {error, E} end,
                                         W = whereis(preg_dup) =:= P1,
                                         stop(P1), stop(P2), {R, W} end),
    t(register_pid_twice, fun() -> P = spawn(fun wait_forever/0),
                                   register(preg_one, P),
                                   R = try register(preg_two, P) catch error:E -> {error, E} end,
                                   W = {whereis(preg_one) =:= P, whereis(preg_two)},
                                   stop(P), {R, W} end),
    t(register_same_name_same_pid, fun() -> P = spawn(fun wait_forever/0),
                                            register(preg_same, P),
                                            R = try register(preg_same, P) catch error:E -> {error, E} end,
                                            stop(P), R end),
    t(register_undefined, fun() -> P = spawn(fun wait_forever/0),
                                   R = try register(undefined, P) catch error:E -> {error, E} end,
                                   stop(P), R end),
    t(register_not_atom, fun() -> register("preg_str", self()) end),
    t(register_not_pid, fun() -> register(preg_x, not_a_pid) end),
    t(register_dead_pid, fun() -> {P, Ref} = spawn_monitor(fun() -> ok end),
                                  receive {'DOWN', Ref, _, _, _} -> ok end,
                                  R = try register(preg_dead, P) catch error:E -> {error, E} end,
                                  {R, whereis(preg_dead)} end),
    t(unregister_ok, fun() -> P = spawn(fun wait_forever/0), register(preg_u, P),
                              R = unregister(preg_u),
                              W = whereis(preg_u),
                              I = process_info(P, registered_name),
                              stop(P), {R, W, I} end),
    t(unregister_unknown, fun() -> unregister(preg_nobody) end),
    t(unregister_not_atom, fun() -> unregister(42) end),
    t(reregister_after_unregister, fun() -> P1 = spawn(fun wait_forever/0), P2 = spawn(fun wait_forever/0),
                                            register(preg_r, P1), unregister(preg_r), register(preg_r, P2),
                                            W = whereis(preg_r) =:= P2,
                                            stop(P1), stop(P2), W end),
    t(name_freed_on_exit, fun() -> {P, Ref} = spawn_monitor(fun() -> receive go -> ok end end),
                                   register(preg_gone, P),
                                   P ! go,
                                   receive {'DOWN', Ref, _, _, _} -> ok end,
                                   {whereis(preg_gone), lists:member(preg_gone, registered())} end),
    t(name_freed_on_kill, fun() -> P = spawn(fun wait_forever/0),
                                   register(preg_killed, P),
                                   stop(P),
                                   W = whereis(preg_killed),
                                   P2 = spawn(fun wait_forever/0),
                                   R = register(preg_killed, P2),
                                   stop(P2), {W, R} end),
    t(register_self_in_child, fun() -> Me = self(),
                                       {P, Ref} = spawn_monitor(fun() -> register(preg_self, self()),
                                                                         Me ! {reg, self(), whereis(preg_self) =:= self()},
                                                                         receive go -> ok end end),
                                       R = receive {reg, P, X} -> X end,
                                       I = process_info(P, registered_name),
                                       P ! go,
                                       receive {'DOWN', Ref, _, _, _} -> ok end,
                                       {R, I, whereis(preg_self)} end),
    t(registered_name_info_unregistered, fun() -> P = spawn(fun wait_forever/0),
                                                  I = process_info(P, registered_name),
                                                  stop(P), I end),
    t(unregister_then_send_fails, fun() -> P = spawn(fun echo/0), register(preg_gone2, P),
                                                    unregister(preg_gone2),
                                                    R = try preg_gone2 ! {self(), x} catch error:E -> {error, E} end,
                                                    stop(P), {R, mailbox()} end),
    t(many_names, fun() -> Ps = [{list_to_atom("preg_many_" ++ integer_to_list(I)), spawn(fun echo/0)}
                                 || I <- lists:seq(1, 200)],
                           [register(N, P) || {N, P} <- Ps],
                           [N ! {self(), N} || {N, _} <- Ps],
                           Got = [receive {echoed, M} -> M end || _ <- Ps],
                           Count = length(ours()),
                           [stop(P) || {_, P} <- Ps],
                           {Count, lists:sort(Got) =:= lists:sort([N || {N, _} <- Ps]), ours()} end),
    ok.

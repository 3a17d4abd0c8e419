%% Signals between processes: the full link/monitor × trapping/not trapping × exit reason table,
%% exit/2 (from another process and to self), links and monitors on dead pids and names,
%% demonitor options, and the ordering of signals from one sender.
%%
%% Every check runs in fresh processes. Pids, refs and stack locations never reach the output:
%% clean/2 replaces them with atoms ('T' for the target, pid, ref) and a stacktrace with its top
%% {M, F, Arity}. Nothing waits on time: each observer reports only after a "sync" signal that the
%% ordering guarantee (signals from one sender arrive in the order sent) places after the signal
%% under test. The one further assumption, which erl meets (erts sends link exit signals before
%% monitor DOWNs when a process ends): a dying process's link signal to a process reaches it before
%% its DOWN message to that same process.
-module(proc_signals).
-export([main/0, target/1]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% erl's logger prints a report on stdout for every process that dies of an uncaught error or
%% throw (beamvm prints it on stderr); silence erl's logger so stdout holds only the checks.
quiet_logger() ->
    case whereis(logger) of
        undefined -> ok;
        _ -> logger:set_primary_config(level, none)
    end.

main() ->
    quiet_logger(),
    link_monitor_table(),
    exit2_table(),
    exit_self(),
    dead_targets(),
    unlink_checks(),
    demonitor_checks(),
    propagation(),
    ordering(),
    ok.

%% ---------------------------------------------------------------------------------------------
%% The table: observer O links to (or monitors) target T, with trap_exit false/true; T ends in
%% one of the ways below. Prints {alive, MessagesO_received} or {dead, O's exit reason}.

hows() ->
    [return_normal, exit_normal, exit_kill, killed_by_exit2, exit_killed, exit_shutdown,
     exit_other, exit2_other, error_crash, throw_crash].

%% T waits for go, so O has linked/monitored it before it ends.
target(How) ->
    receive go -> ok end,
    case How of
        return_normal -> ok;
        exit_normal -> exit(normal);
        exit_kill -> exit(kill);
        exit_killed -> exit(killed);
        exit_shutdown -> exit(shutdown);
        exit_other -> exit({some, "other", 1.5});
        error_crash -> error(boom);
        throw_crash -> throw(ball)
    end.

link_monitor_table() ->
    [t({Kind, {trap_exit, Trap}, How}, fun() -> observe(Kind, Trap, How) end)
     || Kind <- [link, monitor], Trap <- [false, true], How <- hows()].

observe(Kind, Trap, How) ->
    Main = self(),
    {O, ORef} = spawn_monitor(fun() -> observer(Main, Kind, Trap, How) end),
    T = receive {target, O, Tp} -> Tp end,
    case How of
        killed_by_exit2 -> exit(T, kill);
        exit2_other -> exit(T, {from_exit2, other});
        _ -> T ! go
    end,
    outcome(O, ORef, T).

%% O monitors T in both modes: that DOWN is its sync (when linked, it comes after the link signal);
%% in monitor mode it is also what O saw, so it heads the report.
observer(Main, Kind, Trap, How) ->
    process_flag(trap_exit, Trap),
    T = case Kind of
            link -> spawn_link(?MODULE, target, [How]);
            monitor -> spawn(?MODULE, target, [How])
        end,
    Sync = monitor(process, T),
    Main ! {target, self(), T},
    Down = receive {'DOWN', Sync, process, T, _} = D -> D end,
    case Kind of
        link -> report_when_asked();
        monitor -> report_when_asked([Down])
    end.

%% Replies with Seen followed by every message in the mailbox, in arrival order.
report_when_asked() -> report_when_asked([]).
report_when_asked(Seen) ->
    receive {report, From} -> From ! {seen, self(), Seen ++ mailbox()} end.

mailbox() -> receive M -> [M | mailbox()] after 0 -> [] end.

outcome(O, ORef, T) ->
    O ! {report, self()},
    receive
        {seen, O, Msgs} ->
            receive {'DOWN', ORef, process, O, normal} -> ok end,
            {alive, clean(Msgs, T)};
        {'DOWN', ORef, process, O, Why} ->
            {dead, clean(Why, T)}
    end.

%% Replaces pids, refs and stacktraces by stable atoms; Known is the pid printed as 'T'.
clean(X, Known) when is_pid(X) -> if X =:= Known -> 'T'; true -> pid end;
clean(X, _) when is_reference(X) -> ref;
clean({Reason, [{M, F, A, Loc} | _]}, Known) when is_list(Loc) ->
    {clean(Reason, Known), {stacktop, M, F, arity(A)}};
clean(X, Known) when is_tuple(X) -> list_to_tuple(clean(tuple_to_list(X), Known));
clean([H | T], Known) -> [clean(H, Known) | clean(T, Known)];
clean(X, _) -> X.

arity(A) when is_list(A) -> length(A);
arity(A) -> A.

%% ---------------------------------------------------------------------------------------------
%% exit(O, Reason) from a third process S, O trapping or not. S then sends O a message (sync):
%% it arrives after the exit signal, so O reports only after the signal has taken effect.

exit2_table() ->
    [t({exit2, {trap_exit, Trap}, Reason}, fun() -> exit2(Trap, Reason) end)
     || Trap <- [false, true], Reason <- [normal, kill, killed, shutdown, {other, [1, 2]}]].

exit2(Trap, Reason) ->
    Main = self(),
    {O, ORef} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, Trap),
                                      Main ! {ready, self()},
                                      receive sync -> ok end,
                                      report_when_asked()
                              end),
    receive {ready, O} -> ok end,
    {S, SRef} = spawn_monitor(fun() -> true = exit(O, Reason), O ! sync end),
    receive {'DOWN', SRef, process, S, normal} -> ok end,
    outcome(O, ORef, S).

%% exit(self(), Reason): a message to self is the sync.
exit_self() ->
    [t({exit_self, {trap_exit, Trap}, Reason}, fun() -> exit_self(Trap, Reason) end)
     || Trap <- [false, true], Reason <- [normal, kill, killed, other]].

exit_self(Trap, Reason) ->
    {O, ORef} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, Trap),
                                      exit(self(), Reason),
                                      self() ! sync,
                                      receive sync -> ok end,
                                      report_when_asked()
                              end),
    outcome(O, ORef, O).

%% ---------------------------------------------------------------------------------------------

dead_pid() ->
    {P, Ref} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Ref, process, P, normal} -> P end.

%% Runs F in a fresh process (trap_exit Trap) and returns {alive, {Result, Mailbox}} or {dead, R}.
%% The mailbox is read after a message to self, which follows any signal F sent to itself.
in_fresh(Trap, F) ->
    Main = self(),
    {O, ORef} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, Trap),
                                      R = try F() catch C:E -> {C, E} end,
                                      self() ! sync,
                                      receive sync -> ok end,
                                      Main ! {seen, self(), {R, mailbox()}}
                              end),
    receive
        {seen, O, Seen} -> receive {'DOWN', ORef, _, _, _} -> ok end, {alive, clean(Seen, none)};
        {'DOWN', ORef, process, O, Why} -> {dead, clean(Why, none)}
    end.

dead_targets() ->
    t(link_dead_not_trapping, fun() -> P = dead_pid(), in_fresh(false, fun() -> link(P) end) end),
    t(link_dead_trapping, fun() -> P = dead_pid(), in_fresh(true, fun() -> link(P) end) end),
    t(link_self, fun() -> in_fresh(false, fun() -> {link(self()), process_info(self(), links)} end) end),
    t(link_badarg, fun() -> link(not_a_pid) end),
    t(monitor_dead_pid_down, fun() ->
                                     P = dead_pid(), Ref = monitor(process, P),
                                     receive {'DOWN', Ref, process, P2, Why} -> {P2 =:= P, Why} end
                             end),
    t(monitor_unregistered_name, fun() ->
                                         Ref = monitor(process, proc_signals_nobody),
                                         receive {'DOWN', Ref, process, Obj, Why} -> {Obj, Why} end
                                 end),
    t(monitor_unregistered_name_node, fun() ->
                                              Ref = monitor(process, {proc_signals_nobody, node()}),
                                              receive {'DOWN', Ref, process, Obj, Why} -> {Obj, Why} end
                                      end),
    t(monitor_registered_name, fun() ->
                                       P = spawn(fun() -> receive go -> exit(named_end) end end),
                                       register(proc_signals_named, P),
                                       Ref = monitor(process, proc_signals_named),
                                       P ! go,
                                       receive {'DOWN', Ref, process, Obj, Why} -> {Obj, Why} end
                               end),
    t(monitor_registered_name_node, fun() ->
                                            P = spawn(fun() -> receive go -> exit(named_end) end end),
                                            register(proc_signals_named, P),
                                            Ref = monitor(process, {proc_signals_named, node()}),
                                            P ! go,
                                            receive {'DOWN', Ref, process, Obj, Why} -> {Obj, Why} end
                                    end),
    t(monitor_self, fun() -> in_fresh(false, fun() -> R = monitor(process, self()), demonitor(R) end) end),
    t(monitor_badarg_pid, fun() -> monitor(process, 42) end),
    t(monitor_badarg_type, fun() -> monitor(bogus, self()) end),
    t(exit2_dead_pid, fun() -> exit(dead_pid(), kill) end),
    t(exit2_badarg, fun() -> exit(not_a_pid, kill) end),
    ok.

unlink_checks() ->
    t(unlink_then_crash, fun() ->
                                 in_fresh(false, fun() ->
                                                         T = spawn_link(fun() -> receive go -> exit(crash) end end),
                                                         U = unlink(T),
                                                         Ref = monitor(process, T), T ! go,
                                                         receive {'DOWN', Ref, _, _, Why} -> {U, Why} end
                                                 end)
                         end),
    t(unlink_links_empty, fun() ->
                                  in_fresh(false, fun() ->
                                                          T = spawn_link(fun() -> receive go -> ok end end),
                                                          L1 = process_info(self(), links),
                                                          unlink(T),
                                                          L2 = process_info(self(), links),
                                                          T ! go,
                                                          {length(element(2, L1)), L2}
                                                  end)
                          end),
    t(unlink_dead, fun() -> unlink(dead_pid()) end),
    t(unlink_badarg, fun() -> unlink(42) end),
    ok.

demonitor_checks() ->
    t(demonitor_active, fun() -> demon(fun(Ref) -> demonitor(Ref) end, before_exit) end),
    t(demonitor_info_active, fun() -> demon(fun(Ref) -> demonitor(Ref, [info]) end, before_exit) end),
    t(demonitor_after_down, fun() -> demon(fun(Ref) -> demonitor(Ref) end, after_down_queued) end),
    t(demonitor_flush_after_down, fun() -> demon(fun(Ref) -> demonitor(Ref, [flush]) end, after_down_queued) end),
    t(demonitor_info_after_down, fun() -> demon(fun(Ref) -> demonitor(Ref, [info]) end, after_down_queued) end),
    t(demonitor_flush_info_after_down,
      fun() -> demon(fun(Ref) -> demonitor(Ref, [flush, info]) end, after_down_queued) end),
    t(demonitor_unknown_ref, fun() -> {demonitor(make_ref()), demonitor(make_ref(), [info])} end),
    t(demonitor_badarg, fun() -> demonitor(self()) end),
    t(demonitor_bad_option, fun() -> demonitor(make_ref(), [bogus]) end),
    t(demonitor_bad_options, fun() -> demonitor(make_ref(), bogus) end),
    ok.

%% In a fresh process: monitor T, apply Demon either while T lives (then T ends; no DOWN may
%% follow) or once T's DOWN is in the queue. Returns {Demon's result, mailbox afterwards}.
demon(Demon, When) ->
    in_fresh(false,
             fun() ->
                     T = spawn(fun() -> receive go -> exit(bye) end end),
                     Ref = monitor(process, T),
                     Sync = monitor(process, T),
                     case When of
                         before_exit ->
                             R = Demon(Ref), T ! go,
                             receive {'DOWN', Sync, _, _, _} -> ok end,
                             {R, mailbox()};
                         after_down_queued ->
                             demonitor(Sync),
                             T ! go,
                             wait_queue_len(1),
                             R = Demon(Ref),
                             {R, mailbox()}
                     end
             end).

%% Waits (yielding, no timers) until the mailbox holds N messages.
wait_queue_len(N) ->
    case process_info(self(), message_queue_len) of
        {message_queue_len, L} when L >= N -> ok;
        _ -> erlang:yield(), wait_queue_len(N)
    end.

%% ---------------------------------------------------------------------------------------------

%% Chains A - B - C of linked processes, none trapping; C ends as How says. Prints the fates of
%% C, B and A: kill reaches B as killed, so B and A end with killed; normal is not passed on.
%% Each link in the chain also monitors the next one: that DOWN is its sync before it reports.
propagation() ->
    [t({chain, How}, fun() -> chain(How) end)
     || How <- [exit_normal, killed_by_exit2, exit_kill, exit_other, error_crash]],
    ok.

chain(How) ->
    Main = self(),
    {A, ARef} = spawn_monitor(fun() ->
                                      chain_link(Main, fun() ->
                                                               chain_link(Main, fun() -> target(How) end)
                                                       end)
                              end),
    B = receive {next, A, Bp} -> Bp end,
    C = receive {next, B, Cp} -> Cp end,
    BRef = monitor(process, B),
    CRef = monitor(process, C),
    case How of
        killed_by_exit2 -> exit(C, kill);
        _ -> C ! go
    end,
    CWhy = receive {'DOWN', CRef, _, _, W} -> clean(W, none) end,
    {CWhy, fate(B, BRef), fate(A, ARef)}.

chain_link(Main, Next) ->
    N = spawn_link(Next),
    Ref = monitor(process, N),
    Main ! {next, self(), N},
    receive {'DOWN', Ref, _, _, _} -> Main ! {alive, self()} end.

fate(P, Ref) ->
    receive
        {alive, P} -> receive {'DOWN', Ref, _, _, normal} -> alive end;
        {'DOWN', Ref, _, _, Why} -> {dead, clean(Why, none)}
    end.

%% ---------------------------------------------------------------------------------------------

ordering() ->
    t(order_1000_from_one_sender,
      fun() ->
              Main = self(),
              R = spawn(fun() -> Main ! {got, self(), collect(1000)} end),
              spawn(fun() -> [R ! I || I <- lists:seq(1, 1000)] end),
              receive {got, R, L} -> {length(L), L =:= lists:seq(1, 1000)} end
      end),
    t(order_per_sender_three_senders,
      fun() ->
              Main = self(),
              R = spawn(fun() -> Main ! {got, self(), collect(900)} end),
              [spawn(fun() -> [R ! {S, I} || I <- lists:seq(1, 300)] end) || S <- [a, b, c]],
              receive
                  {got, R, L} ->
                      [{S, [I || {S2, I} <- L, S2 =:= S] =:= lists:seq(1, 300)} || S <- [a, b, c]]
              end
      end),
    t(order_message_then_exit2_trapping,
      fun() -> signal_pair(true, fun(O) -> O ! first, exit(O, second) end) end),
    t(order_exit2_then_message_trapping,
      fun() -> signal_pair(true, fun(O) -> exit(O, first), O ! second end) end),
    t(order_exit2_normal_then_message_not_trapping,
      fun() -> signal_pair(false, fun(O) -> exit(O, normal), O ! second end) end),
    t(order_message_then_exit2_not_trapping,
      fun() -> signal_pair(false, fun(O) -> O ! first, exit(O, second) end) end),
    t(order_message_then_kill_trapping,
      fun() -> signal_pair(true, fun(O) -> O ! first, exit(O, kill) end) end),
    t(order_messages_then_link_exit,
      fun() ->
              in_fresh(true, fun() ->
                                     Self = self(),
                                     T = spawn_link(fun() -> [Self ! I || I <- lists:seq(1, 1000)], exit(last) end),
                                     L = collect(1001),
                                     {L -- [{'EXIT', T, last}] =:= lists:seq(1, 1000), lists:last(L) =:= {'EXIT', T, last}}
                             end)
      end),
    t(order_message_then_down,
      fun() ->
              in_fresh(false, fun() ->
                                      Self = self(),
                                      T = spawn(fun() -> receive go -> Self ! last_words, exit(gone) end end),
                                      Ref = monitor(process, T),
                                      T ! go,
                                      [M1, M2] = collect(2),
                                      {M1, M2 =:= {'DOWN', Ref, process, T, gone}}
                              end)
      end),
    t(selective_receive_of_exit_keeps_order,
      fun() ->
              in_fresh(true, fun() ->
                                     Self = self(),
                                     T = spawn_link(fun() -> Self ! a, Self ! b, exit(c) end),
                                     E = receive {'EXIT', T, Why} -> Why end,
                                     {E, mailbox()}
                             end)
      end),
    ok.

%% O (trapping or not) receives what Send(O) sends from a third process S, then S's sync message.
signal_pair(Trap, Send) ->
    Main = self(),
    {O, ORef} = spawn_monitor(fun() ->
                                      process_flag(trap_exit, Trap),
                                      Main ! {ready, self()},
                                      receive {sync, _} -> ok end,
                                      report_when_asked()
                              end),
    receive {ready, O} -> ok end,
    {S, SRef} = spawn_monitor(fun() -> Send(O), O ! {sync, self()} end),
    receive {'DOWN', SRef, process, S, normal} -> ok end,
    outcome(O, ORef, S).

collect(0) -> [];
collect(N) -> receive M -> [M | collect(N - 1)] end.

%% Process monitors held by NIF resources (enif_monitor_process and friends), through a NIF
%% library of our own (tests/nif/select_monitor_nif.c): the down callback with its pid and
%% monitor, each way a process can end, the answers for a dead process, an undefined pid and a
%% type without a down callback, demonitor, two monitors on one process, monitor terms and
%% enif_compare_monitors, a resource freed while it monitors (no down), down before the
%% destructor when a process holds the last reference to the resource monitoring it, and the
%% resource in process_info(P, monitored_by).
-module(nif_monitor).
-compile({no_auto_import, [monitor/2, demonitor/2]}).
-export([main/0]).
-export([pipe/0, socketpair/0, set_owner/2, dup_resource/1, id/1, write/2, fill/1, read/2, drain/1,
         close/1, is_closed/1, select/5, select_plain/3, mon_new/0, nodown_new/0, monitor/2,
         demonitor/2, compare/2, monitor_term/1]).

-define(STUB, erlang:nif_error(not_loaded)).
pipe() -> ?STUB.
socketpair() -> ?STUB.
set_owner(_, _) -> ?STUB.
dup_resource(_) -> ?STUB.
id(_) -> ?STUB.
write(_, _) -> ?STUB.
fill(_) -> ?STUB.
read(_, _) -> ?STUB.
drain(_) -> ?STUB.
close(_) -> ?STUB.
is_closed(_) -> ?STUB.
select(_, _, _, _, _) -> ?STUB.
select_plain(_, _, _) -> ?STUB.
mon_new() -> ?STUB.
nodown_new() -> ?STUB.
monitor(_, _) -> ?STUB.
demonitor(_, _) -> ?STUB.
compare(_, _) -> ?STUB.
monitor_term(_) -> ?STUB.

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", atom_to_list(?MODULE)]).

main() ->
    show(load, fun() -> erlang:load_nif(lib(), []) end),
    downs(),
    answers(),
    demonitors(),
    terms(),
    lifetimes(),
    show(end_messages, fun() -> wait(100) end).

downs() ->
    [show({down, How}, fun() ->
         P = waiter(),
         R = mon_new(),
         {Ret, M} = monitor(R, P),
         end_it(How, P),
         {Ret, down(R, P, M)}
     end) || How <- [return, exit, kill, normal_exit]],
    show(down_monitor_self, fun() ->
        Self = self(),
        P = spawn(fun() ->
            R = mon_new(),
            ok = set_owner(R, Self),
            {0, M} = monitor(R, self()),
            Self ! {made, R, M},
            receive stop -> ok end
        end),
        {R, M} = receive {made, R0, M0} -> {R0, M0} end,
        P ! stop,
        down(R, P, M) end).

answers() ->
    show(monitor_dead, fun() ->
        P = spawn(fun() -> ok end),
        wait_exit(P),
        R = mon_new(),
        {Ret, _} = monitor(R, P),
        {Ret, wait(50)} end),
    show(monitor_undefined, fun() -> element(1, monitor(mon_new(), undefined)) end),
    show(monitor_without_down, fun() ->
        P = waiter(),
        {Ret, _} = monitor(nodown_new(), P),
        P ! stop,
        wait_exit(P),
        {Ret, wait(50)} end).

demonitors() ->
    show(demonitor, fun() ->
        P = waiter(),
        R = mon_new(),
        {0, M} = monitor(R, P),
        D1 = demonitor(R, M),
        D2 = demonitor(R, M),
        P ! stop,
        wait_exit(P),
        {D1, D2, wait(100)} end),
    show(demonitor_after_down, fun() ->
        P = waiter(),
        R = mon_new(),
        {0, M} = monitor(R, P),
        P ! stop,
        Down = down(R, P, M),
        {Down, demonitor(R, M)} end),
    show(two_monitors, fun() ->
        P = waiter(),
        R = mon_new(),
        {0, M1} = monitor(R, P),
        {0, M2} = monitor(R, P),
        Distinct = {compare(M1, M2) =/= 0, monitor_term(M1) =/= monitor_term(M2)},
        P ! stop,
        Downs = lists:sort([which_monitor(next(), M1, M2), which_monitor(next(), M1, M2)]),
        {Distinct, Downs} end),
    show(demonitor_one_of_two, fun() ->
        P = waiter(),
        R = mon_new(),
        {0, M1} = monitor(R, P),
        {0, M2} = monitor(R, P),
        0 = demonitor(R, M1),
        P ! stop,
        {which_monitor(next(), M1, M2), wait(100)} end),
    show(two_resources, fun() ->
        P = waiter(),
        R1 = mon_new(),
        R2 = mon_new(),
        {0, M1} = monitor(R1, P),
        {0, M2} = monitor(R2, P),
        P ! stop,
        Downs = lists:sort([which_monitor(next(), M1, M2), which_monitor(next(), M1, M2)]),
        {Downs, wait(50)} end).

terms() ->
    show(monitor_term, fun() ->
        P = waiter(),
        R = mon_new(),
        {0, M} = monitor(R, P),
        T1 = monitor_term(M),
        T2 = monitor_term(M),
        Cmp = compare(M, M),
        P ! stop,
        {down, _, _, T3, MB} = next(),
        {is_reference(T1), T1 =:= T2, T1 =:= T3, T1 =:= make_ref(), Cmp, compare(M, MB),
         T1 == T3, lists:usort([T1, T2, T3]) =:= [T1]} end).

lifetimes() ->
    %% The resource goes while it monitors: its monitor ends without a down call.
    show(freed_while_monitoring, fun() ->
        P = waiter(),
        Self = self(),
        Id = in_process(fun() ->
            R = mon_new(),
            ok = set_owner(R, Self),
            {0, _} = monitor(R, P),
            id(R) end),
        erlang:garbage_collect(),
        Freed = await_dtor(Id),
        P ! stop,
        wait_exit(P),
        {Freed, wait(100)} end),
    %% A process monitoring itself through a resource only it refers to: down, then the
    %% destructor (the resource is alive until the process's heap goes).
    show(down_then_dtor, fun() ->
        Self = self(),
        P = spawn(fun() ->
            R = mon_new(),
            ok = set_owner(R, Self),
            {0, _} = monitor(R, self()),
            Self ! {id, id(R)},
            receive stop -> ok end
        end),
        Id = receive {id, I} -> I end,
        P ! stop,
        First = callback_of(Id),
        Second = callback_of(Id),
        [First, Second] end),
    show(monitored_by, fun() ->
        P = waiter(),
        R = mon_new(),
        {0, M} = monitor(R, P),
        {monitored_by, By} = process_info(P, monitored_by),
        0 = demonitor(R, M),
        {monitored_by, After} = process_info(P, monitored_by),
        P ! stop,
        {[X =:= R || X <- By], After} end).

waiter() -> spawn(fun() -> receive stop -> ok; {exit, Why} -> exit(Why) end end).

end_it(return, P) -> P ! stop;
end_it(exit, P) -> P ! {exit, goodbye};
end_it(kill, P) -> exit(P, kill);
end_it(normal_exit, P) -> exit(P, normal), P ! stop.

%% The down message for R's monitor M of P, checked against what the test holds.
down(R, P, M) ->
    Id = id(R),
    case next() of
        {down, Id, P, Term, MB} -> {down, Term =:= monitor_term(M), compare(M, MB)};
        Other -> {unexpected, Other}
    end.

which_monitor({down, _, _, _, MB}, M1, M2) ->
    case {compare(MB, M1), compare(MB, M2)} of
        {0, _} -> m1;
        {_, 0} -> m2;
        _ -> neither
    end;
which_monitor(Other, _, _) -> {unexpected, Other}.

in_process(Fun) ->
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> Self ! {result, self(), Fun()} end),
    receive {result, Pid, Result} -> ok end,
    receive {'DOWN', Ref, process, Pid, _} -> Result end.

wait_exit(P) ->
    Ref = erlang:monitor(process, P),
    receive {'DOWN', Ref, process, P, _} -> ok end.

await_dtor(Id) -> receive {dtor, Id} -> freed after 2000 -> kept end.

%% Destructors run when a collection finds a resource unreferenced, which differs between VMs:
%% their messages are only looked for where a case expects one.
next() -> receive M when not is_tuple(M); element(1, M) =/= dtor -> M after 2000 -> timeout end.
%% The next of Id's down and destructor calls, in the order they came.
callback_of(Id) ->
    receive {dtor, Id} -> dtor; {down, Id, _, _, _} -> down after 2000 -> timeout end.

wait(Ms) ->
    receive M when not is_tuple(M); element(1, M) =/= dtor -> [M | wait(Ms)] after Ms -> [] end.

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason:St -> {Class, Reason, hd(St)} end,
    io:format("~p: ~p~n", [Label, Result]).

%% statistics(scheduler_wall_time): undefined while off; switched on and off per process (a
%% process that switched it on twice must switch it off twice; one that exits takes its
%% switch-ons with it); one {Id, ActiveTime, TotalTime} per normal and dirty CPU scheduler
%% (and dirty I/O with _all), integers with 0 =< Active =< Total that grow, the normal
%% schedulers' busy time growing under load; total_scheduler_wall_time is badarg in erl 25.
-module(sched_wall_time).
-export([main/0]).
main() ->
    N = erlang:system_info(schedulers),
    D = erlang:system_info(dirty_cpu_schedulers),
    DIO = erlang:system_info(dirty_io_schedulers),
    out(off_before, erlang:statistics(scheduler_wall_time)),
    out(first_on, erlang:system_flag(scheduler_wall_time, true)),
    out(second_on, erlang:system_flag(scheduler_wall_time, true)),
    T0 = lists:sort(erlang:statistics(scheduler_wall_time)),
    Busy = fun Loop(0, A) -> A; Loop(K, A) -> Loop(K - 1, (A * 7 + K) rem 1000003) end,
    Self = self(),
    [spawn(fun() -> Self ! {done, Busy(3000000, 1)} end) || _ <- lists:seq(1, N)],
    [receive {done, _} -> ok end || _ <- lists:seq(1, N)],
    T1 = lists:sort(erlang:statistics(scheduler_wall_time)),
    All = erlang:statistics(scheduler_wall_time_all),
    out(ids, [I || {I, _, _} <- T1] =:= lists:seq(1, N + D)),
    out(ids_all, lists:sort([I || {I, _, _} <- All]) =:= lists:seq(1, N + D + DIO)),
    out(integers, lists:all(fun({_, A, T}) -> is_integer(A) andalso is_integer(T) andalso 0 =< A andalso A =< T end, T1)),
    Grew = [{I, A1 - A0, Tt1 - Tt0} || {{I, A0, Tt0}, {I, A1, Tt1}} <- lists:zip(T0, T1)],
    out(monotonic, lists:all(fun({_, DA, DT}) -> DA >= 0 andalso DT > 0 end, Grew)),
    {Normal, _} = lists:split(N, Grew),
    out(normal_busy_under_load, lists:sum([DA || {_, DA, _} <- Normal]) > 0),
    out(total_badarg, catch_class(fun() -> erlang:statistics(total_scheduler_wall_time) end)),
    out(bad_flag, catch_class(fun() -> erlang:system_flag(scheduler_wall_time, maybe) end)),
    out(first_off, erlang:system_flag(scheduler_wall_time, false)),
    out(still_on, erlang:statistics(scheduler_wall_time) =/= undefined),
    out(second_off, erlang:system_flag(scheduler_wall_time, false)),
    out(off_after, erlang:statistics(scheduler_wall_time)),
    P = spawn(fun() -> erlang:system_flag(scheduler_wall_time, true), Self ! on, receive stop -> ok end end),
    receive on -> ok end,
    out(on_by_other, erlang:statistics(scheduler_wall_time) =/= undefined),
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    out(off_after_exit, wait_off(100)),
    K = spawn(fun() -> erlang:system_flag(scheduler_wall_time, true), Self ! on, receive never -> ok end end),
    receive on -> ok end,
    KRef = monitor(process, K),
    exit(K, kill),
    receive {'DOWN', KRef, _, _, _} -> ok end,
    out(off_after_kill, wait_off(100)).

%% erl takes an exited process's switch-ons back a little after its DOWN (beamvm before it):
%% polled, every 10 ms for at most a second.
wait_off(0) -> erlang:statistics(scheduler_wall_time);
wait_off(N) ->
    case erlang:statistics(scheduler_wall_time) of
        undefined -> undefined;
        _ -> receive after 10 -> wait_off(N - 1) end
    end.

catch_class(F) -> try F() of V -> {value, V} catch C:R -> {C, R} end.
out(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

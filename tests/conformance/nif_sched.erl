%% Scheduling and exceptions through a NIF library (tests/nif/nif_sched.c): enif_schedule_nif
%% in steps, dirty CPU and dirty I/O NIFs (the thread types they run on, other processes
%% running while one blocks), moving to a dirty scheduler and back, and the errors erl shows
%% for enif_make_badarg and enif_raise_exception: class, reason and the NIF's stack frame.
-module(nif_sched).
-export([main/0]).
-export([sum/1, thread_type/0, dirty_cpu_type/0, dirty_io_type/0, round_trip/1, dirty_sleep/1,
         dirty_cpu_sum/1, badarg/0, dirty_badarg/0, raise/1, raise_checked/1, last_pending/0,
         raise_later/2]).

-define(STUB, erlang:nif_error(not_loaded)).
sum(_) -> ?STUB.
thread_type() -> ?STUB.
dirty_cpu_type() -> ?STUB.
dirty_io_type() -> ?STUB.
round_trip(_) -> ?STUB.
dirty_sleep(_) -> ?STUB.
dirty_cpu_sum(_) -> ?STUB.
badarg() -> ?STUB.
dirty_badarg() -> ?STUB.
raise(_) -> ?STUB.
raise_checked(_) -> ?STUB.
last_pending() -> ?STUB.
raise_later(_, _) -> ?STUB.

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", "nif_sched"]).

main() ->
    error_of(not_loaded, fun() -> badarg() end),
    show(load, fun() -> erlang:load_nif(lib(), []) end),
    scheduling(),
    dirty(),
    exceptions().

scheduling() ->
    [show({sum, N}, fun() -> sum(N) end) || N <- [0, 1, 999, 1000, 1001, 250000]],
    show(sum_expected, fun() -> element(1, sum(250000)) =:= 250000 * 250001 div 2 end),
    show(sum_bad, fun() -> sum(-1) end),
    %% Processes doing rescheduled NIF work side by side.
    show(sum_parallel, fun() ->
        in_parallel([fun() -> sum(100000 + I) end || I <- lists:seq(1, 4)]) end).

dirty() ->
    show(thread_types, fun() -> {thread_type(), dirty_cpu_type(), dirty_io_type()} end),
    show(round_trip_cpu, fun() -> round_trip(cpu) end),
    show(round_trip_io, fun() -> round_trip(io) end),
    show(dirty_cpu_sum, fun() -> dirty_cpu_sum(3000000) end),
    %% While a dirty NIF blocks for a second, another process answers 5 pings: all pongs
    %% arrive before the sleeper's answer.
    show(others_run_during_dirty_sleep, fun() ->
        Self = self(),
        Sleeper = spawn(fun() -> Self ! {slept, dirty_sleep(1000)} end),
        Pong = spawn(fun Loop() -> receive {ping, From} -> From ! pong, Loop(); stop -> ok end end),
        receive after 20 -> ok end,
        Pongs = [begin Pong ! {ping, self()}, receive pong -> pong after 5000 -> late end end || _ <- lists:seq(1, 5)],
        SleptFirst = receive {slept, _} -> true after 0 -> false end,
        Slept = receive {slept, S} -> S after 5000 -> timeout end,
        Pong ! stop,
        {Pongs, SleptFirst, Slept, is_process_alive(Sleeper)} end),
    show(dirty_in_many_processes, fun() ->
        in_parallel([fun() -> dirty_cpu_sum(1000 * I) end || I <- lists:seq(1, 6)]) end).

exceptions() ->
    error_of(badarg, fun() -> badarg() end),
    error_of(dirty_badarg, fun() -> dirty_badarg() end),
    error_of(raise_atom, fun() -> raise(my_reason) end),
    error_of(raise_tuple, fun() -> raise({reason, [1, 2], <<"bin">>}) end),
    error_of(raise_checked, fun() -> raise_checked(checked) end),
    show(last_pending, fun last_pending/0),
    error_of(raise_later, fun() -> raise_later(x, normal) end),
    error_of(raise_later_dirty, fun() -> raise_later(y, dirty) end),
    show(catch_badarg, fun() -> {'EXIT', {badarg, [Top | _]}} = catch badarg(), Top end),
    show(try_raise_class, fun() -> try raise(r) catch C:R -> {C, R} end end),
    %% The arguments of the NIF call are in the stack frame, as for a BIF.
    show(badarg_in_sum, fun() -> try sum(not_a_number) catch error:badarg:St -> hd(St) end end).

%% Runs each fun in a process of its own, all at once; their results in order, or
%% {died, Reason} for one that raised.
in_parallel(Funs) ->
    Self = self(),
    Monitors = [spawn_monitor(fun() -> Self ! {self(), F()} end) || F <- Funs],
    [receive
         {'DOWN', Ref, process, Pid, normal} -> receive {Pid, R} -> R end;
         {'DOWN', Ref, process, Pid, Reason} -> {died, Reason}
     end || {Pid, Ref} <- Monitors].

%% Prints the class, reason and top stack frame (module, function, arity or arguments) of
%% what Fun raises; frames' location lists are left out (NIFs have none).
error_of(Label, Fun) ->
    Result = try Fun() of
                 V -> {returned, V}
             catch
                 Class:Reason:St ->
                     Top = case St of
                               [{M, F, A, _} | _] -> {M, F, A};
                               _ -> St
                           end,
                     {Class, Reason, Top}
             end,
    io:format("~p: ~p~n", [Label, Result]).

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [Label, Result]).

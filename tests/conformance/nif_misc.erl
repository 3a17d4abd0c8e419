%% The rest of erl_nif.h's services through a NIF library (tests/nif/nif_misc.c):
%% enif_system_info, time functions, unique integers, enif_snprintf's %T, enif_getenv, I/O
%% queues, enif_dynamic_resource_call, rwlocks, mutexes and thread-specific data,
%% enif_consume_timeslice. Times and unique integers print as comparisons.
-module(nif_misc).
-export([main/0]).
-export([system_info/0, times/0, unique/0, format/1, getenv/1, ioq/1, new_dyn/1, call_dyn/3,
         locks/0, timeslice/1, alive/0]).

-define(STUB, erlang:nif_error(not_loaded)).
system_info() -> ?STUB.
times() -> ?STUB.
unique() -> ?STUB.
format(_) -> ?STUB.
getenv(_) -> ?STUB.
ioq(_) -> ?STUB.
new_dyn(_) -> ?STUB.
call_dyn(_, _, _) -> ?STUB.
locks() -> ?STUB.
timeslice(_) -> ?STUB.
alive() -> ?STUB.

lib() -> filename:join([filename:dirname(code:which(?MODULE)), "nif", "nif_misc"]).

main() ->
    show(load, fun() -> erlang:load_nif(lib(), []) end),
    show(system_info, fun() ->
        Info = system_info(),
        {scheduler_threads, N} = lists:keyfind(scheduler_threads, 1, Info),
        {lists:keydelete(scheduler_threads, 1, Info), N =:= erlang:system_info(schedulers),
         lists:keyfind(otp_release, 1, Info) =:= {otp_release, erlang:system_info(otp_release)}} end),
    show(times, fun() ->
        Before = erlang:monotonic_time(microsecond),
        {Mono, Offset, Conversions} = times(),
        After = erlang:monotonic_time(microsecond),
        {Before =< Mono andalso Mono =< After, Offset =:= erlang:time_offset(microsecond), Conversions} end),
    show(unique, fun() ->
        {A, B, C} = unique(),
        {A > 0, B > A, is_integer(C)} end),
    [show({format, T}, fun() -> format(T) end)
     || T <- [atom, 42, -1 bsl 70, 1.5, "abc", <<"bin">>, <<1:3>>, {a, [b | c]}, #{k => v}, []]],
    show(format_pid, fun() -> {N, S, _, _} = format(self()), {N, S =:= "42|text|" ++ pid_to_list(self()) ++ "|"} end),
    os:putenv("NIF_MISC_VARIABLE", "a value"),
    show(getenv_set, fun() -> getenv("NIF_MISC_VARIABLE") end),
    show(getenv_unset, fun() -> getenv("NIF_MISC_NOT_SET") end),
    show(ioq, fun() -> ioq([<<"ab">>, <<"cdef">>, <<>>, <<"ghi">>]) end),
    show(ioq_empty, fun() -> ioq([]) end),
    show(dynamic_call, fun() -> call_dyn(?MODULE, dyn, new_dyn(7)) end),
    show(dynamic_call_wrong_type, fun() -> call_dyn(?MODULE, other, new_dyn(7)) end),
    show(dynamic_call_wrong_module, fun() -> call_dyn(lists, dyn, new_dyn(7)) end),
    show(dynamic_call_not_resource, fun() -> call_dyn(?MODULE, dyn, make_ref()) end),
    show(locks, fun locks/0),
    show(timeslice, fun() -> {timeslice(1), timeslice(100), timeslice(0)} end),
    show(timeslice_bad, fun() -> timeslice(101) end),
    show(alive, fun alive/0).

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [Label, Result]).

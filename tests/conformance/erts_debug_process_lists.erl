%% erts_debug's process lists that OTP's process_SUITE reads: get_internal_state(process_info_args)
%% (every item process_info/2 takes, in erts' order, each accepted alone and in a list) and
%% get_internal_state(processes) (the same processes as processes/0).
-module(erts_debug_process_lists).
-export([main/0]).

main() ->
    logger:set_primary_config(level, none),
    erts_debug:set_internal_state(available_internal_state, true),
    Args = erts_debug:get_internal_state(process_info_args),
    io:format("process_info_args: ~p~n", [Args]),
    P = spawn(fun() -> receive stop -> ok end end),
    io:format("each accepted: ~p~n", [[A || A <- Args, not accepted(A, process_info(P, A))]]),
    io:format("as a list: ~p~n", [[K || {K, _} <- process_info(P, Args)] =:= Args]),
    Procs = erts_debug:get_internal_state(processes),
    io:format("processes: ~p~n", [lists:sort(Procs) =:= lists:sort(processes())]),
    P ! stop,
    ok.

%% An unregistered process's registered_name is [], as process_info/2 gives it alone.
accepted(registered_name, []) -> true;
accepted(A, {A, _}) -> true;
accepted(_, _) -> false.

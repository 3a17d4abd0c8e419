%% Every combination of hostile arguments for the BIFs of issue 8 (ids and text, time
%% conversions, checksums, iovecs, dtrace tags, memory, distribution): the VM must not crash,
%% and each call must end as on erl. Per function the outcome classes are counted, and a hash
%% of the outcomes in call order catches a difference in which call ends how.
-module(bif_hostile_args).
-export([main/0]).

hostile() ->
    [a, -1, 0, 1 bsl 70, -(1 bsl 70), 1.5, [a | b], <<1:3>>, <<"x">>, self(), make_ref(), #{a => 1},
     fun() -> ok end, fun lists:map/2, {1, 2}, [], "abc", [[<<"a">> | <<"b">>]], true, undefined,
     {{2020, 1, 1}, {0, 0, 0}}, second, 88].

functions() ->
    [{list_to_pid, 1}, {ref_to_list, 1}, {list_to_ref, 1}, {port_to_list, 1}, {list_to_port, 1},
     {fun_to_list, 1}, {fun_info_mfa, 1}, {append, 2}, {subtract, 2}, {bump_reductions, 1},
     {localtime_to_universaltime, 1}, {localtime_to_universaltime, 2}, {universaltime_to_localtime, 1},
     {posixtime_to_universaltime, 1}, {universaltime_to_posixtime, 1}, {convert_time_unit, 3},
     {iolist_to_iovec, 1}, {dt_prepend_vm_tag_data, 1}, {dt_append_vm_tag_data, 1}, {dt_put_tag, 1},
     {dt_restore_tag, 1}, {dt_spread_tag, 1}, {md5, 1}, {md5_update, 2}, {md5_final, 1},
     {crc32, 1}, {crc32, 2}, {adler32, 1}, {adler32, 2}, {crc32_combine, 3}, {adler32_combine, 3},
     {memory, 1}, {nodes, 1}, {nodes, 2}, {monitor_node, 2}, {monitor_node, 3}, {dist_get_stat, 1},
     {dist_ctrl_input_handler, 2}, {dist_ctrl_put_data, 2}, {dist_ctrl_get_data, 1},
     {dist_ctrl_get_data_notification, 1}, {dist_ctrl_set_opt, 3}, {dist_ctrl_get_opt, 2}].

args(0) -> [[]];
args(N) -> [[A | R] || A <- hostile(), R <- args(N - 1)].

%% The outcome without values that differ between runs (pids, references, times, sizes).
outcome(F, Args) ->
    try apply(erlang, F, Args) of
        _ -> ok
    catch
        C:{not_implemented, _} = E -> {C, E};
        C:E when is_atom(E) -> {C, E};
        C:_ -> {C, other}
    end.

count(Outcomes) ->
    lists:foldl(fun(O, Acc) -> orddict:update_counter(O, 1, Acc) end, orddict:new(), Outcomes).

main() ->
    [begin
         Outcomes = [outcome(F, As) || As <- args(A)],
         io:format("~w/~w ~w ~w~n", [F, A, count(Outcomes), erlang:phash2(Outcomes)])
     end || {F, A} <- functions()],
    ok.

%% Heap options of spawn_opt/2 and process_flag/2 beyond proc_spawn/proc_info: OTP's rounding of
%% min_heap_size and min_bin_vheap_size to its heap size series, the max_heap_size forms and
%% their checks against min_heap_size, fullsweep_after's 16 bits, the old values process_flag
%% returns, and process_flag/3 (save_calls only). Values are OTP's, never sizes that depend on
%% the emulator's allocation history.
-module(proc_heap_flags).
-export([main/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% Runs F in a fresh process and returns its result (or {Class, Reason}).
fresh(F) ->
    Me = self(),
    {P, R} = spawn_monitor(fun() -> Me ! {r, self(), try F() catch C:E -> {C, E} end} end),
    X = receive {r, P, V} -> V end,
    receive {'DOWN', R, _, _, _} -> ok end,
    X.

%% process_info(P, Key) of a process spawned with Opts, waiting in a receive.
spawned(Opts, Key) ->
    P = spawn_opt(fun() -> receive _ -> ok end end, Opts),
    R = process_info(P, Key),
    exit(P, kill),
    R.

main() ->
    t(min_heap_series, fun() -> [{N, spawned([{min_heap_size, N}], min_heap_size)}
                                 || N <- [0, 1, 233, 234, 377, 1597, 1599, 100000, 2000000]] end),
    t(min_heap_sets_heap, fun() -> spawned([{min_heap_size, 100000}], heap_size) end),
    t(spawn_min_bin_vheap_ignored, fun() -> [spawned([{min_bin_vheap_size, N}], min_bin_vheap_size)
                                             || N <- [0, 46423, 1000000]] end),
    t(flag_min_bin_vheap, fun() -> fresh(fun() -> [{process_flag(min_bin_vheap_size, N),
                                                    process_info(self(), min_bin_vheap_size)}
                                                   || N <- [5, 46423, 100000, 0]] end) end),
    t(flag_min_heap, fun() -> fresh(fun() -> [{process_flag(min_heap_size, N), process_info(self(), min_heap_size)}
                                              || N <- [5, 234, 100000, 0]] end) end),
    t(flag_min_heap_bad, fun() -> [fresh(fun() -> process_flag(min_heap_size, V) end) || V <- [-1, a, 1.0]] end),
    [t({flag_max_heap, X}, fun() -> fresh(fun() -> {process_flag(max_heap_size, X), process_info(self(), max_heap_size)} end) end)
     || X <- [100, 232, 233, 1000, #{size => 5}, #{size => 1000}, #{kill => false}, #{}, 0,
              #{size => 0, kill => false, error_logger => false}, #{size => 1000, foo => bar},
              #{size => 1000, kill => 1}, #{size => a}, 1 bsl 59]],
    t(flag_max_below_min, fun() -> fresh(fun() -> process_flag(min_heap_size, 1000), process_flag(max_heap_size, 1500) end) end),
    t(flag_max_at_min, fun() -> fresh(fun() -> process_flag(min_heap_size, 1000), process_flag(max_heap_size, 1598) end) end),
    t(flag_min_above_max, fun() -> fresh(fun() -> process_flag(max_heap_size, 1000), process_flag(min_heap_size, 2000) end) end),
    t(spawn_max_below_min, fun() -> spawn_opt(fun() -> ok end, [{min_heap_size, 1000}, {max_heap_size, 1500}]) end),
    t(spawn_max_below_min_reversed, fun() -> spawn_opt(fun() -> ok end, [{max_heap_size, 1500}, {min_heap_size, 1000}]) end),
    [t({spawn_max_heap, X}, fun() -> spawned([{max_heap_size, X}], max_heap_size) end)
     || X <- [5, 233, #{size => 5}, #{}, #{kill => false}, #{size => 10, foo => 1}]],
    t(max_heap_no_kill, fun() ->
                                {P, R} = spawn_opt(fun() -> L = lists:seq(1, 100000), exit({done, length(L)}) end,
                                                   [monitor, {max_heap_size, #{size => 2000, kill => false,
                                                                               error_logger => false}}]),
                                receive {'DOWN', R, process, P, W} -> W end
                        end),
    t(flag_fullsweep_after, fun() -> fresh(fun() -> {process_flag(fullsweep_after, 10), process_flag(fullsweep_after, 20),
                                                     process_info(self(), fullsweep_after)} end) end),
    t(flag_fullsweep_after_bad, fun() -> [fresh(fun() -> process_flag(fullsweep_after, V) end) || V <- [-1, a]] end),
    t(spawn_fullsweep_after, fun() -> [spawned([{fullsweep_after, N}], fullsweep_after) || N <- [0, 10, 1 bsl 40]] end),
    t(spawn_fullsweep_after_bad, fun() -> spawn_opt(fun() -> ok end, [{fullsweep_after, -1}]) end),
    t(gc_after_flags, fun() -> fresh(fun() -> process_flag(min_heap_size, 1000), process_flag(fullsweep_after, 3),
                                              process_flag(max_heap_size, #{size => 100000, kill => false}),
                                              process_flag(min_bin_vheap_size, 50000),
                                              {garbage_collection, G} = process_info(self(), garbage_collection),
                                              lists:keydelete(minor_gcs, 1, G) end) end),
    t(flag_message_queue_data, fun() -> fresh(fun() -> [process_flag(message_queue_data, X) || X <- [off_heap, off_heap, on_heap]] end) end),
    t(spawn_message_queue_data, fun() -> spawned([{message_queue_data, off_heap}], message_queue_data) end),
    t(flag_sensitive, fun() -> fresh(fun() -> [process_flag(sensitive, X) || X <- [true, true, false]] end) end),
    t(flag_sensitive_bad, fun() -> fresh(fun() -> process_flag(sensitive, 1) end) end),
    t(info_sensitive_bad, fun() -> fresh(fun() -> process_info(self(), sensitive) end) end),
    t(flag_error_handler, fun() -> fresh(fun() -> {[process_flag(error_handler, X) || X <- [foo, bar]],
                                                   process_info(self(), error_handler)} end) end),
    t(flag_error_handler_bad, fun() -> fresh(fun() -> process_flag(error_handler, "x") end) end),
    t(flag_save_calls, fun() -> fresh(fun() -> [process_flag(save_calls, X) || X <- [10, 10000, 0, 5, 0]] end) end),
    t(flag_save_calls_bad, fun() -> [fresh(fun() -> process_flag(save_calls, V) end) || V <- [10001, -1, a]] end),
    t(flag_3_save_calls, fun() -> P = spawn(fun() -> receive _ -> ok end end),
                                  R = [process_flag(P, save_calls, V) || V <- [3, 0]],
                                  exit(P, kill), R end),
    t(flag_3_self, fun() -> process_flag(self(), save_calls, 0) end),
    t(flag_3_dead, fun() -> {P, R} = spawn_monitor(fun() -> ok end),
                            receive {'DOWN', R, _, _, _} -> ok end,
                            process_flag(P, save_calls, 1) end),
    t(flag_3_not_pid, fun() -> process_flag(foo, save_calls, 1) end),
    t(flag_3_priority, fun() -> process_flag(self(), priority, normal) end),
    t(flag_not_atom, fun() -> process_flag("x", 1) end),
    ok.

%% erlang:system_flag/2 on a node without distribution: the previous value of each flag,
%% erl's refusals (badarg, with cause badopt for an unknown flag), and the effect of the flags
%% beamvm acts on (backtrace_depth, the heap options of new processes).
-module(bif_system_flag).
-export([main/0, deep/1]).

outcome(F, V) ->
    try erlang:system_flag(F, V) of
        P when is_pid(P) -> {ok, pid};
        R -> {ok, R}
    catch
        C:E:S -> {C, E, frame(S)}
    end.

frame([{M, F, A, Loc} | _]) ->
    {M, F, if is_list(A) -> length(A); true -> A end,
     [case K of error_info -> {K, Info}; _ -> K end || {K, Info} <- Loc]};
frame(_) -> none.

deep(0) -> error(bottom);
deep(N) -> [deep(N - 1)].

trace_length() ->
    try deep(100) catch error:bottom:S -> length(S) end.

spawned_heap_options() ->
    P = spawn(fun() -> receive stop -> ok end end),
    I = process_info(P, [min_heap_size, min_bin_vheap_size, fullsweep_after, max_heap_size]),
    P ! stop,
    I.

main() ->
    Scheds = erlang:system_info(schedulers_online),
    Flags =
        [{backtrace_depth, 8}, {backtrace_depth, 100}, {backtrace_depth, 8}, {backtrace_depth, -1},
         {backtrace_depth, 1 bsl 70}, {backtrace_depth, a},
         {fullsweep_after, 70000}, {fullsweep_after, 65535}, {fullsweep_after, -1}, {fullsweep_after, 1.0},
         {min_heap_size, 1000}, {min_heap_size, 233}, {min_heap_size, 0}, {min_heap_size, 233},
         {min_heap_size, -1}, {min_heap_size, a},
         {min_bin_vheap_size, 5}, {min_bin_vheap_size, 46422}, {min_bin_vheap_size, -5},
         {max_heap_size, 100}, {max_heap_size, 1000}, {max_heap_size, #{size => 0}}, {max_heap_size, 0},
         {max_heap_size, -1}, {max_heap_size, #{}}, {max_heap_size, #{size => 5000, kill => false}},
         {max_heap_size, #{size => 0, kill => 1}}, {max_heap_size, 0},
         {scheduler_wall_time, true}, {scheduler_wall_time, false}, {scheduler_wall_time, x},
         {microstate_accounting, true}, {microstate_accounting, reset}, {microstate_accounting, false},
         {microstate_accounting, x},
         {schedulers_online, Scheds}, {schedulers_online, Scheds + 1}, {schedulers_online, 0},
         {schedulers_online, a},
         {time_offset, finalize}, {time_offset, x},
         {outstanding_system_requests_limit, 10}, {outstanding_system_requests_limit, 2000},
         {outstanding_system_requests_limit, 0}, {outstanding_system_requests_limit, 1 bsl 27},
         {scheduling_statistics, enable}, {scheduling_statistics, disable}, {scheduling_statistics, x},
         {debug_flags, x}, {trace_control_word, 5}, {trace_control_word, 0}, {trace_control_word, -1},
         {trace_control_word, 1 bsl 32},
         {sequential_tracer, false}, {sequential_tracer, x}, {reset_seq_trace, x},
         {multi_scheduling, unblock}, {multi_scheduling, unblock_normal}, {multi_scheduling, x},
         {system_logger, x}, {foo, 1}, {1, 1}, {"a", b}, {1.5, x},
         {erts_alloc, {binary_alloc, sbct, 1000}}, {erts_alloc, {foo_alloc, sbct, 1}},
         {erts_alloc, {binary_alloc, foo, 1}}, {erts_alloc, {exec_alloc, sbct, 1}},
         {erts_alloc, {sys_alloc, sbct, 1}}, {erts_alloc, {sys_alloc, sbct, a}}, {erts_alloc, x},
         {internal_cpu_topology, 1}],
    %% (scheduler_bind_type and cpu_topology are left out: erl's logger prints a deprecation
    %% warning for them at a moment of its own.)
    [io:format("~w ~w -> ~w~n", [F, V, outcome(F, V)]) || {F, V} <- Flags],
    %% Hostile values for every flag that cannot be set to them (system_logger and
    %% sequential_tracer would take a pid as a new receiver of system events).
    Hostile = [a, -1, 1 bsl 70, 1.5, [a | b], <<1:3>>, make_ref(), #{a => 1}, fun() -> ok end,
               {1, 2}, [], "abc", {a, b, c}, #{size => -1}, #{size => 1 bsl 70}],
    [io:format("~w ~w -> ~w~n", [F, I, outcome(F, V)])
     || F <- [backtrace_depth, fullsweep_after, min_heap_size, min_bin_vheap_size, max_heap_size,
              scheduler_wall_time, microstate_accounting, schedulers_online, dirty_cpu_schedulers_online,
              multi_scheduling, time_offset, outstanding_system_requests_limit, scheduling_statistics,
              trace_control_word, debug_flags, reset_seq_trace, erts_alloc],
        {I, V} <- lists:zip(lists:seq(1, length(Hostile)), Hostile)],
    Info = fun() -> [erlang:system_info(I) || I <- [min_heap_size, min_bin_vheap_size, fullsweep_after, max_heap_size,
                                                    outstanding_system_requests_limit, trace_control_word,
                                                    sequential_tracer, dist_ctrl, scheduler_bind_type]]
           end,
    io:format("system_info ~w~n", [Info()]),
    %% backtrace_depth shortens and lengthens stack traces.
    io:format("trace ~w~n", [trace_length()]),
    Old = erlang:system_flag(backtrace_depth, 3),
    io:format("trace at 3: ~w~n", [trace_length()]),
    erlang:system_flag(backtrace_depth, 20),
    io:format("trace at 20: ~w~n", [trace_length()]),
    erlang:system_flag(backtrace_depth, 0),
    io:format("trace at 0: ~w~n", [trace_length()]),
    erlang:system_flag(backtrace_depth, Old),
    %% Heap options of processes spawned afterwards.
    io:format("spawned ~w~n", [spawned_heap_options()]),
    erlang:system_flag(min_heap_size, 1000),
    erlang:system_flag(min_bin_vheap_size, 100000),
    erlang:system_flag(fullsweep_after, 10),
    erlang:system_flag(max_heap_size, #{size => 100000, kill => false}),
    io:format("spawned ~w~n", [spawned_heap_options()]),
    io:format("system_info ~w~n", [Info()]),
    P = spawn_opt(fun() -> receive stop -> ok end end, [{min_heap_size, 5000}, {fullsweep_after, 3}]),
    io:format("spawn_opt ~w~n", [process_info(P, [min_heap_size, fullsweep_after, max_heap_size])]),
    P ! stop,
    ok.

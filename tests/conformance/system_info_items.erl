% erlang:system_info/1: every item OTP 25 answers (erlang.xml and erl_bif_info.c) answers
% on beamvm too, with erl's type; values where they do not depend on the machine or the
% emulator's build. Left out: system_logger (a pid under erl, whose logger beamvm does not
% start) and thread_progress, which prints erts' internal state.
-module(system_info_items).
-export([main/0]).

items() ->
    [active_tasks,
     active_tasks_all,
     all_schedulers_state,
     alloc_util_allocators,
     allocated_areas,
     allocator,
     atom_count,
     atom_limit,
     beam_jump_table,
     break_ignored,
     build_type,
     c_compiler_used,
     check_io,
     compat_rel,
     compile_info,
     constant_pool_support,
     context_reductions,
     context_switches,
     cpu_quota,
     cpu_topology,
     creation,
     debug_compiled,
     decentralized_counter_groups_map,
     delayed_node_table_gc,
     dirty_cpu_schedulers,
     dirty_cpu_schedulers_online,
     dirty_io_schedulers,
     dist_buf_busy_limit,
     dist_ctrl,
     driver_version,
     dynamic_trace,
     dynamic_trace_probes,
     eager_check_io,
     emu_args,
     emu_flavor,
     emu_type,
     end_time,
     endian,
     ethread_info,
     ethread_used_tse,
     ets_always_compress,
     ets_count,
     ets_limit,
     ets_realloc_moves,
     exact_reductions,
     fullsweep_after,
     garbage_collection,
     heap_sizes,
     heap_type,
     hipe_architecture,
     instruction_counts,
     io,
     io_thread,
     kernel_poll,
     limits,
     literal_test,
     lock_checking,
     lock_counting,
     logical_processors,
     logical_processors_available,
     logical_processors_online,
     machine,
     max_heap_size,
     message_queue_data,
     microstate_accounting,
     min_bin_vheap_size,
     min_heap_size,
     modified_timing_level,
     multi_scheduling,
     multi_scheduling_blockers,
     nif_version,
     normal_multi_scheduling_blockers,
     os_monotonic_time_source,
     os_system_time_source,
     os_type,
     os_version,
     otp_release,
     outstanding_system_requests_limit,
     port_count,
     port_limit,
     port_parallelism,
     port_tasks,
     process_count,
     process_limit,
     reader_groups_map,
     reductions,
     run_queue_lengths,
     run_queue_lengths_all,
     run_queues,
     runtime,
     scheduler_bind_type,
     scheduler_bindings,
     scheduler_id,
     scheduler_wall_time,
     scheduler_wall_time_all,
     schedulers,
     schedulers_active,
     schedulers_online,
     schedulers_state,
     schedulers_total,
     scheduling_statistics,
     sequential_tracer,
     smp_support,
     snifs,
     start_time,
     system_architecture,
     system_version,
     taints,
     thread_pool_size,
     threads,
     time_correction,
     time_offset,
     time_warp_mode,
     tolerant_timeofday,
     total_active_tasks,
     total_active_tasks_all,
     total_run_queue_lengths,
     total_run_queue_lengths_all,
     total_scheduling_statistics,
     trace_control_word,
     ultrasparc_read_pic1,
     ultrasparc_read_pic2,
     ultrasparc_read_tick1,
     ultrasparc_read_tick2,
     update_cpu_info,
     version,
     wall_clock,
     wordsize].

% Atom-valued items whose value describes the emulator or the machine, not the language.
machine_atoms() ->
    [emu_flavor, kernel_poll, cpu_quota, update_cpu_info, emu_type, build_type, hipe_architecture].

% Items compared exactly.
exact() ->
    [compat_rel, context_reductions, driver_version, nif_version, heap_sizes, endian, wordsize,
     otp_release, machine, version, heap_type, time_offset, time_warp_mode, time_correction,
     tolerant_timeofday, multi_scheduling, multi_scheduling_blockers,
     normal_multi_scheduling_blockers, dynamic_trace, dynamic_trace_probes, debug_compiled,
     lock_checking, lock_counting, message_queue_data, garbage_collection, min_heap_size,
     min_bin_vheap_size, fullsweep_after, max_heap_size, port_limit, process_limit,
     atom_limit, delayed_node_table_gc, dist_buf_busy_limit, ets_limit, dist_ctrl,
     sequential_tracer, trace_control_word, modified_timing_level, beam_jump_table,
     constant_pool_support, creation, threads, smp_support, taints].

main() ->
    [io:format("~p: ~p~n", [I, describe(I, catch erlang:system_info(I))]) || I <- items()],
    [io:format("~p: ~p~n", [T, describe(T, catch erlang:system_info(T))])
     || T <- [{wordsize, internal}, {wordsize, external}, {wordsize, bogus},
              {cpu_topology, defined}, {allocator, bogus}, {allocator_sizes, bogus},
              {bogus, x}, {}, "heap_sizes", 42]],
    io:format("schedulers: ~p~n", [schedulers()]),
    io:format("cpu_topology: ~p~n", [topology(erlang:system_info(cpu_topology))]),
    io:format("start_time < end_time: ~p~n",
              [erlang:system_info(start_time) < erlang:system_info(end_time)]),
    io:format("monotonic within: ~p~n",
              [erlang:monotonic_time() >= erlang:system_info(start_time) andalso
               erlang:monotonic_time() =< erlang:system_info(end_time)]).

describe(_, {'EXIT', {Reason, _}}) -> {raised, Reason};
describe(Item, V) ->
    case lists:member(Item, exact()) of
        true -> V;
        false -> kind(Item, V)
    end.

kind(cpu_topology, V) -> topology(V);
kind(Item, V) when is_atom(V) ->
    case lists:member(Item, machine_atoms()) of
        true -> atom;
        false -> V
    end;
kind(_, V) when is_integer(V) -> integer;
kind(_, V) when is_list(V) -> list;
kind(_, V) when is_binary(V) -> binary;
kind(_, V) when is_tuple(V) -> {tuple, tuple_size(V)};
kind(_, V) when is_pid(V) -> pid;
kind(_, _) -> other.

% The scheduler counts agree with each other.
schedulers() ->
    N = erlang:system_info(schedulers),
    {erlang:system_info(schedulers_online) =:= N, erlang:system_info(schedulers_total) =:= N,
     erlang:system_info(run_queues) =:= N, tuple_size(erlang:system_info(scheduler_bindings)) =:= N,
     element(1, erlang:system_info(schedulers_state)) =:= N,
     length(erlang:system_info(reader_groups_map)) =:= N}.

% OTP's type: undefined, or a list of topology entries.
topology(undefined) -> ok;
topology(L) when is_list(L) -> ok;
topology(_) -> bad.

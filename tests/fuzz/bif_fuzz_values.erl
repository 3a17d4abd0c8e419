%% The values the BIF fuzzer builds argument vectors from: a fixed pool of hostile terms, and per
%% function a few well-formed ones (option names, items, units) so that calls get past their
%% first check. A value that must be made by the calling process (its own pid, a live victim,
%% a fresh reference) is a placeholder here, made real by bif_fuzz in the process that calls.
-module(bif_fuzz_values).
-export([pool/0, hints/2, materialize/2]).

%% Atoms are chosen so that no call can reach the VM's own processes or modules: no registered
%% name (user, init, code_server, ...), no module name (delete_module(unicode) would succeed on
%% erl), no flag that stops the VM.
pool() ->
    Big = list_to_binary(lists:seq(0, 199)),
    Deep = [[<<"a">>, "b" | <<"c">>], [[[$d]]], <<1, 2>> | <<"e">>],
    [a, true, false, undefined, infinity, '', ok, '\x{e9}t\x{e9}', list_to_atom([960, 8364]),
     utf8, latin1, second, millisecond, native, local, all,
     0, 1, -1, 2, 7, 255, 256, 65535, -65536, (1 bsl 59) - 1, -(1 bsl 59), 1 bsl 59,
     1 bsl 64, -(1 bsl 64), 1 bsl 200, 1 bsl 32,
     0.0, -0.0, 1.5, -2.5, 1.0e300, 2.0e-300, 255.0,
     [], "abc", [1, 2, 3], [a | b], [1 | 2], Deep, [-1], [256], [1.5], [a, b], lists:seq(1, 40),
     [[]], [{a, 1}, {b, 2}], [960, 8364], [$a, 16#110000], lists:duplicate(300, $x),
     <<>>, <<"abc">>, <<1:3>>, <<0:70>>, Big, binary:part(Big, 3, 150), <<255, 254>>,
     <<"\x{3c0}x"/utf8>>, <<131, 100, 0, 1, 97>>, <<131, 107, 255, 255>>,
     {}, {1, 2}, {a, b, c}, {{2020, 1, 1}, {0, 0, 0}}, {a, 1}, {1.0, 2.0}, {ok, "abc"},
     {'$self', x}, list_to_tuple(lists:seq(1, 70)),
     #{}, #{a => 1}, maps:from_list([{K, K} || K <- lists:seq(1, 40)]), #{{a} => [b]},
     '$self', '$victim', '$dead', '$ref',
     fun() -> ok end, fun(X) -> X end, fun erlang:abs/1, fun lists:map/2,
     begin Env = {env, 3}, fun(Y) -> {Env, Y} end end].

%% Well-formed values for one function, mixed into its vectors with the pool's.
hints(erlang, F) -> erlang_hints(F);
hints(binary, _) -> [<<"abcabc">>, <<"b">>, [<<"b">>, <<"c">>], [global], [{scope, {1, 2}}], [trim_all],
                     {1, 2}, [{1, 1}], 3];
hints(unicode, _) -> [utf8, latin1, {utf16, big}, {utf32, little}, utf16, <<"\x{3c0}"/utf8>>, [960, $a]];
hints(maps, _) -> [#{a => 1, b => 2}, a, [{a, 1}], fun(_, V) -> V end, fun(_, _) -> true end];
hints(lists, _) -> [1, 2, [{a, 1}, {b, 2}], [a, b, c], a];
hints(math, _) -> [0.5, 2, 10.0, -1.0, 1.0e-10];
hints(persistent_term, _) -> [{fuzz_key, 1}, fuzz_value, [1, 2]];
hints(atomics, _) -> ['$atomics', 1, 2, [{signed, false}], [{signed, true}], 10];
hints(counters, _) -> ['$counters', 1, 2, [atomics], [write_concurrency], 10];
hints(os, _) -> ["HOME", "BEAMVM_FUZZ_VAR", "value", "sh", sighup, default, ignore, handle, 1];
hints(zlib, _) -> ['$zstream', <<120, 156, 3, 0, 0, 0, 0, 1>>, default, deflated, 15, 8, 9, 1, none, full, sync];
hints(crypto, _) -> [sha, md5, sha256, hmac, sha3_256, blake2b, <<"key">>, "data", 16, '$hashstate'];
hints(erts_debug, _) -> [{a, 1}, [1, 2], <<"abc">>, 1, size];
hints(erl_ddll, _) -> ["/nonexistent", "drv", [], processes, driver_options, port_count];
hints(erts_internal, _) -> [1, [], '$self', {a, b}, true, false, 2];
hints(re, _) -> ["a(b)?c", <<"(?<n>x)|y*">>, "(", "\\w+", "abcabc", <<"xyz"/utf8>>, '$re_pattern', namelist,
                 [global], [unicode], [caseless, multiline], [{capture, all, list}], [{capture, [n, 1], binary}],
                 [report_errors], [{offset, 1}], [{newline, crlf}], [dupnames], [global, {capture, none}],
                 [{match_limit, 10}, report_errors], true, false];
hints(_, _) -> [].

erlang_hints(system_info) ->
    [process_count, process_limit, atom_count, schedulers, schedulers_online, otp_release, version,
     wordsize, {wordsize, internal}, {wordsize, external}, machine, smp_support, threads, creation,
     heap_type, logical_processors, build_type, garbage_collection, min_heap_size, fullsweep_after,
     max_heap_size, emu_flavor, emu_type, kernel_poll, port_limit, thread_pool_size, system_version,
     debug_compiled, ets_limit, dist_ctrl, os_type, os_version, start_time, time_warp_mode,
     time_correction, tolerant_timeofday, nif_version, hipe_architecture, check_io, c_compiler_used,
     cpu_topology, allocator, {allocator, sys_alloc}, alloc_util_allocators, atom_limit, context_reductions,
     dirty_cpu_schedulers, dirty_io_schedulers, multi_scheduling, scheduler_id, sequential_tracer,
     trace_control_word, update_cpu_info, loaded, info, procs, dist, dist_buf_busy_limit,
     eager_check_io, end_time, outstanding_system_requests_limit, port_parallelism,
     delayed_node_table_gc, ets_count, port_count, process_count, halt_flush_timeout];
erlang_hints(process_info) ->
    [status, messages, message_queue_len, links, monitors, monitored_by, dictionary, trap_exit,
     priority, heap_size, stack_size, total_heap_size, reductions, registered_name, group_leader,
     current_function, current_location, current_stacktrace, initial_call, memory, garbage_collection,
     garbage_collection_info, min_heap_size, min_bin_vheap_size, max_heap_size, error_handler,
     suspending, sequential_trace_token, catchlevel, backtrace, binary, last_calls, parent,
     message_queue_data, async_dist, [status, links], [registered_name], [heap_size, heap_size]];
erlang_hints(process_flag) ->
    [trap_exit, priority, low, high, max, normal, error_handler, min_heap_size, min_bin_vheap_size,
     max_heap_size, #{size => 0, kill => true}, message_queue_data, off_heap, on_heap, save_calls,
     sensitive, scheduler, fullsweep_after, async_dist, 10, 0];
erlang_hints(statistics) ->
    [context_switches, exact_reductions, garbage_collection, io, reductions, run_queue,
     run_queue_lengths, run_queue_lengths_all, runtime, wall_clock, total_run_queue_lengths,
     total_active_tasks, active_tasks, microstate_accounting, scheduler_wall_time];
erlang_hints(F) when F =:= fun_info; F =:= fun_info_mfa ->
    [arity, env, index, module, name, new_index, new_uniq, pid, type, uniq];
erlang_hints(memory) ->
    [total, processes, processes_used, system, atom, atom_used, binary, code, ets, maximum,
     [total, binary], [atom, a]];
erlang_hints(F) when F =:= binary_to_term; F =:= term_to_binary; F =:= term_to_iovec ->
    [[safe], [used], [compressed], [{compressed, 9}], [{minor_version, 1}], [{minor_version, 2}],
     [deterministic], [local], term_to_binary({a, [1.5, <<"b">>]})];
erlang_hints(F) when F =:= float_to_list; F =:= float_to_binary ->
    [[{decimals, 4}], [compact], [{scientific, 3}], [short], [{decimals, 300}]];
erlang_hints(F) when F =:= integer_to_list; F =:= integer_to_binary; F =:= list_to_integer;
                     F =:= binary_to_integer ->
    [2, 16, 36, 37, "ff", <<"-12">>, "1_0"];
erlang_hints(F) when F =:= atom_to_binary; F =:= binary_to_atom; F =:= binary_to_existing_atom ->
    [utf8, latin1, unicode, <<"ok">>, <<"\x{3c0}"/utf8>>];
erlang_hints(F) when F =:= convert_time_unit; F =:= monotonic_time; F =:= system_time;
                     F =:= time_offset; F =:= os_system_time; F =:= perf_counter ->
    [second, millisecond, microsecond, nanosecond, native, perf_counter, seconds, 1000, 0];
erlang_hints(F) when F =:= send_after; F =:= start_timer; F =:= cancel_timer; F =:= read_timer ->
    [10000, '$self', [{abs, false}], [{async, true}], [{info, false}], '$timer'];
erlang_hints(F) when F =:= monitor; F =:= demonitor; F =:= link; F =:= unlink; F =:= alias;
                     F =:= unalias ->
    [process, port, time_offset, clock_service, '$victim', [flush], [info], [{alias, demonitor}],
     [explicit_unalias], [{tag, t}], '$ref'];
erlang_hints(F) when F =:= spawn_opt; F =:= spawn; F =:= spawn_link; F =:= spawn_monitor;
                     F =:= spawn_request; F =:= apply ->
    [lists, reverse, [[1, 2]], [link], [monitor], [{priority, low}], [{min_heap_size, 100}],
     [{fullsweep_after, 0}], [{message_queue_data, off_heap}], [{max_heap_size, 1000}]];
erlang_hints(F) when F =:= setelement; F =:= element; F =:= make_tuple; F =:= insert_element;
                     F =:= delete_element; F =:= append_element ->
    [1, 2, 3, 70, 71, {x, y, z}, [{1, a}, {2, b}]];
erlang_hints(F) when F =:= list_to_pid; F =:= list_to_ref; F =:= list_to_port ->
    ["<0.0.0>", "<0.1.0>", "#Ref<0.1.2.3>", "#Port<0.1>", "<0.0.1>"];
erlang_hints(F) when F =:= binary_part; F =:= split_binary; F =:= bit_size; F =:= byte_size ->
    [{0, 1}, {1, -1}, 3, 0];
erlang_hints(_) ->
    [].

%% Placeholders become values in the process that makes the call: its own pid, a process that
%% lives for this one call, one that has exited, a reference, and native resources.
materialize(V, Ctx) when is_atom(V) ->
    case V of
        '$self' -> self();
        '$victim' -> maps:get(victim, Ctx);
        '$dead' -> maps:get(dead, Ctx);
        '$ref' -> make_ref();
        '$timer' -> erlang:start_timer(60000, self(), fuzz);
        '$atomics' -> atomics:new(2, []);
        '$counters' -> counters:new(2, []);
        '$zstream' -> zlib:open();
        '$hashstate' -> crypto:hash_init(sha256);
        '$re_pattern' -> element(2, re:compile("a(?<n>b)?", [caseless]));
        _ -> V
    end;
materialize({'$self', X}, _) -> {self(), X};
materialize(V, _) -> V.

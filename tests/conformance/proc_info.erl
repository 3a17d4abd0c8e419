%% process_info/1,2 and process_flag/2,3: only items whose value is deterministic (status of a
%% waiting process, queue contents, links, monitors, flags, dictionary, initial call, current
%% function of a process blocked in a known receive). Sizes and reductions are checked by type.
%% Pids are compared, never printed.
-module(proc_info).
-export([main/0, subject/1, wait_loop/0]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% A subject process: set up by Main's requests, blocked in wait_loop/0 between them.
subject(Main) ->
    Main ! {ready, self()},
    wait_loop().

wait_loop() ->
    receive
        {do, From, F} -> From ! {done, self(), F()}, wait_loop();
        stop -> ok
    end.

new_subject() ->
    P = spawn(?MODULE, subject, [self()]),
    receive {ready, P} -> ok end,
    until_waiting(P),
    P.

%% Runs F inside subject P, then waits until P is blocked in its receive again.
do(P, F) ->
    P ! {do, self(), F},
    R = receive {done, P, X} -> X end,
    until_waiting(P),
    R.

%% Waits (by yielding, no timers) until P is blocked in wait_loop's receive.
until_waiting(P) ->
    case process_info(P, [status, current_function]) of
        [{status, waiting}, {current_function, {?MODULE, wait_loop, 0}}] -> ok;
        _ -> erlang:yield(), until_waiting(P)
    end.

stop(P) ->
    Ref = monitor(process, P),
    exit(P, kill),
    receive {'DOWN', Ref, process, P, _} -> ok end.

with_subject(F) ->
    P = new_subject(),
    R = F(P),
    stop(P),
    R.

main() ->
    waiting_state(),
    queue_items(),
    link_monitor_items(),
    flag_items(),
    other_items(),
    errors_and_dead(),
    process_flags(),
    ok.

waiting_state() ->
    t(status_waiting, fun() -> with_subject(fun(P) -> process_info(P, status) end) end),
    t(status_self_running, fun() -> process_info(self(), status) end),
    t(initial_call_mfa, fun() -> with_subject(fun(P) -> process_info(P, initial_call) end) end),
    t(current_function_in_receive, fun() -> with_subject(fun(P) -> process_info(P, current_function) end) end),
    t(initial_call_fun, fun() ->
                                Me = self(),
                                P = spawn(fun() -> Me ! {ready, self()}, receive stop -> ok end end),
                                receive {ready, P} -> ok end,
                                R = process_info(P, initial_call),
                                stop(P), R
                        end),
    t(initial_call_spawn_3_lists, fun() ->
                                          P = spawn(lists, seq, [1, 10]),
                                          Ref = monitor(process, P),
                                          R = process_info(P, initial_call),
                                          receive {'DOWN', Ref, _, _, _} -> ok end,
                                          {R =:= {initial_call, {lists, seq, 2}} orelse R =:= undefined}
                                  end),
    t(list_of_items_in_order, fun() -> with_subject(fun(P) -> process_info(P, [trap_exit, status, priority,
                                                                                  message_queue_len]) end) end),
    t(list_with_repeats, fun() -> with_subject(fun(P) -> process_info(P, [status, status]) end) end),
    t(empty_item_list, fun() -> with_subject(fun(P) -> process_info(P, []) end) end),
    t(process_info_1_keys, fun() -> with_subject(fun(P) -> [K || {K, _} <- process_info(P)] end) end),
    t(process_info_1_values, fun() ->
                                     with_subject(fun(P) ->
                                                          I = process_info(P),
                                                          [lists:keyfind(K, 1, I) || K <- [current_function, initial_call,
                                                                                           status, message_queue_len,
                                                                                           dictionary, trap_exit,
                                                                                           error_handler, priority]]
                                                  end)
                             end),
    ok.

queue_items() ->
    t(messages_and_len, fun() -> with_subject(fun(P) ->
                                                      P ! m1, P ! {m, 2}, P ! <<"three">>,
                                                      process_info(P, [message_queue_len, messages])
                                              end) end),
    t(messages_empty, fun() -> with_subject(fun(P) -> process_info(P, [message_queue_len, messages]) end) end),
    t(messages_self, fun() -> Me = self(),
                              {P, Ref} = spawn_monitor(fun() -> self() ! a, self() ! b,
                                                                Me ! {r, self(), process_info(self(), [message_queue_len, messages])}
                                                       end),
                              R = receive {r, P, X} -> X end,
                              receive {'DOWN', Ref, _, _, _} -> ok end, R end),
    t(messages_after_partial_receive, fun() -> with_subject(fun(P) ->
                                                                    P ! keep1,
                                                                    do(P, fun() -> ok end),
                                                                    P ! keep2,
                                                                    process_info(P, messages)
                                                            end) end),
    ok.

link_monitor_items() ->
    Me = self(),
    t(links_none, fun() -> with_subject(fun(P) -> process_info(P, links) end) end),
    t(links_to_self, fun() -> with_subject(fun(P) ->
                                                   do(P, fun() -> link(Me) end),
                                                   {links, L} = process_info(P, links),
                                                   do(P, fun() -> unlink(Me) end),
                                                   L =:= [Me]
                                           end) end),
    t(links_two, fun() -> with_subject(fun(P) ->
                                               Q1 = spawn(fun() -> receive _ -> ok end end),
                                               Q2 = spawn(fun() -> receive _ -> ok end end),
                                               do(P, fun() -> link(Q1), link(Q2) end),
                                               {links, L} = process_info(P, links),
                                               do(P, fun() -> unlink(Q1), unlink(Q2) end),
                                               stop(Q1), stop(Q2),
                                               {length(L), lists:sort(L) =:= lists:sort([Q1, Q2])}
                                       end) end),
    t(monitored_by, fun() -> with_subject(fun(P) ->
                                                  Ref = monitor(process, P),
                                                  {monitored_by, L} = process_info(P, monitored_by),
                                                  demonitor(Ref),
                                                  {monitored_by, L2} = process_info(P, monitored_by),
                                                  {L =:= [Me], L2}
                                          end) end),
    t(monitors_pid_and_name, fun() ->
                                     with_subject(fun(P) ->
                                                          Q = spawn(fun() -> receive _ -> ok end end),
                                                          register(pinfo_target, Q),
                                                          do(P, fun() -> monitor(process, Q), monitor(process, pinfo_target) end),
                                                          {monitors, L} = process_info(P, monitors),
                                                          stop(Q),
                                                          lists:sort([case X of {process, Q} -> {process, pid}; _ -> X end || X <- L])
                                                  end)
                             end),
    t(monitors_none, fun() -> with_subject(fun(P) -> process_info(P, [monitors, monitored_by]) end) end),
    ok.

flag_items() ->
    t(trap_exit_item, fun() -> with_subject(fun(P) ->
                                                    A = process_info(P, trap_exit),
                                                    Old = do(P, fun() -> process_flag(trap_exit, true) end),
                                                    {A, Old, process_info(P, trap_exit)}
                                            end) end),
    t(priority_item, fun() -> with_subject(fun(P) ->
                                                   A = process_info(P, priority),
                                                   Old = do(P, fun() -> process_flag(priority, low) end),
                                                   {A, Old, process_info(P, priority)}
                                           end) end),
    t(registered_name_item, fun() -> with_subject(fun(P) ->
                                                          A = process_info(P, registered_name),
                                                          register(pinfo_named, P),
                                                          B = process_info(P, registered_name),
                                                          unregister(pinfo_named),
                                                          {A, B, process_info(P, registered_name)}
                                                  end) end),
    t(dictionary_item, fun() -> with_subject(fun(P) ->
                                                     do(P, fun() -> put(b, 2), put(a, {1}), put("c", [3]) end),
                                                     {dictionary, D} = process_info(P, dictionary),
                                                     lists:sort(D)
                                             end) end),
    t(dictionary_empty, fun() -> with_subject(fun(P) -> process_info(P, dictionary) end) end),
    t(group_leader_item, fun() -> GL = group_leader(),
                                  with_subject(fun(P) -> process_info(P, group_leader) =:= {group_leader, GL} end) end),
    t(error_handler_item, fun() -> with_subject(fun(P) -> process_info(P, error_handler) end) end),
    t(message_queue_data_item, fun() -> with_subject(fun(P) -> process_info(P, message_queue_data) end) end),
    t(min_heap_size_item, fun() -> with_subject(fun(P) -> process_info(P, min_heap_size) end) end),
    t(max_heap_size_item, fun() -> with_subject(fun(P) -> process_info(P, max_heap_size) end) end),
    ok.

other_items() ->
    t(sizes_are_integers, fun() ->
                                  with_subject(fun(P) ->
                                                       [{K, is_integer(V) andalso V >= 0}
                                                        || {K, V} <- process_info(P, [heap_size, total_heap_size,
                                                                                      stack_size, reductions,
                                                                                      memory])]
                                               end)
                          end),
    t(heap_size_positive, fun() -> with_subject(fun(P) -> {heap_size, H} = process_info(P, heap_size), H > 0 end) end),
    t(total_heap_at_least_heap, fun() ->
                                        with_subject(fun(P) ->
                                                             [{_, H}, {_, T}] = process_info(P, [heap_size, total_heap_size]),
                                                             T >= H
                                                     end)
                                end),
    t(reductions_grow, fun() -> with_subject(fun(P) ->
                                                     {reductions, R1} = process_info(P, reductions),
                                                     do(P, fun() -> lists:sum(lists:seq(1, 10000)) end),
                                                     {reductions, R2} = process_info(P, reductions),
                                                     R2 > R1
                                             end) end),
    t(garbage_collection_keys, fun() -> with_subject(fun(P) ->
                                                             {garbage_collection, GC} = process_info(P, garbage_collection),
                                                             lists:sort([K || {K, _} <- GC])
                                                     end) end),
    ok.

errors_and_dead() ->
    Dead = fun() -> {P, Ref} = spawn_monitor(fun() -> ok end),
                    receive {'DOWN', Ref, _, _, _} -> P end end,
    t(dead_process_info_1, fun() -> process_info(Dead()) end),
    t(dead_process_info_2, fun() -> process_info(Dead(), status) end),
    t(dead_process_info_list, fun() -> process_info(Dead(), [status, links]) end),
    t(bad_item, fun() -> process_info(self(), bogus) end),
    t(bad_item_in_list, fun() -> process_info(self(), [status, bogus]) end),
    t(not_a_pid, fun() -> process_info(not_a_pid, status) end),
    t(not_a_pid_1, fun() -> process_info(not_a_pid) end),
    t(registered_name_self_none, fun() -> Me = self(),
                                          {P, Ref} = spawn_monitor(fun() -> Me ! {r, self(), process_info(self(), registered_name)} end),
                                          R = receive {r, P, X} -> X end,
                                          receive {'DOWN', Ref, _, _, _} -> ok end, R end),
    ok.

%% process_flag/2,3 return the old value; each runs in a fresh process.
in_fresh(F) ->
    Me = self(),
    {P, Ref} = spawn_monitor(fun() -> Me ! {r, self(), try F() catch C:R -> {C, R} end} end),
    R = receive {r, P, X} -> X end,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    R.

process_flags() ->
    t(flag_trap_exit, fun() -> in_fresh(fun() -> [process_flag(trap_exit, true), process_flag(trap_exit, false),
                                                  process_flag(trap_exit, false)] end) end),
    t(flag_trap_exit_bad, fun() -> in_fresh(fun() -> process_flag(trap_exit, yes) end) end),
    t(flag_priority, fun() -> in_fresh(fun() -> [process_flag(priority, P) || P <- [high, low, max, normal, normal]] end) end),
    t(flag_priority_bad, fun() -> in_fresh(fun() -> process_flag(priority, urgent) end) end),
    t(flag_save_calls, fun() -> in_fresh(fun() -> A = process_flag(save_calls, 10),
                                                  B = process_flag(save_calls, 0),
                                                  {A, B, process_info(self(), last_calls)} end) end),
    t(flag_save_calls_bad, fun() -> in_fresh(fun() -> process_flag(save_calls, -1) end) end),
    t(flag_max_heap_size, fun() -> in_fresh(fun() -> A = process_flag(max_heap_size, 1000000),
                                                     B = process_flag(max_heap_size, #{size => 0, kill => false}),
                                                     {A, B, process_info(self(), max_heap_size)} end) end),
    t(flag_max_heap_size_bad, fun() -> in_fresh(fun() -> process_flag(max_heap_size, -5) end) end),
    t(flag_min_heap_size, fun() -> in_fresh(fun() -> A = process_flag(min_heap_size, 1000),
                                                     {A, process_info(self(), min_heap_size)} end) end),
    t(flag_message_queue_data, fun() -> in_fresh(fun() -> [process_flag(message_queue_data, off_heap),
                                                           process_flag(message_queue_data, on_heap)] end) end),
    t(flag_sensitive, fun() -> in_fresh(fun() -> [process_flag(sensitive, true), process_flag(sensitive, false)] end) end),
    t(flag_error_handler, fun() -> in_fresh(fun() -> process_flag(error_handler, error_handler) end) end),
    t(flag_unknown, fun() -> in_fresh(fun() -> process_flag(bogus, true) end) end),
    t(flag_3_save_calls, fun() -> with_subject(fun(P) -> [process_flag(P, save_calls, 5),
                                                          process_flag(P, save_calls, 0)] end) end),
    t(flag_3_other_flag, fun() -> with_subject(fun(P) -> process_flag(P, trap_exit, true) end) end),
    ok.

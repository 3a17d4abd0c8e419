%% Creating processes: spawn/1..4, spawn_link, spawn_monitor, spawn_opt and its options, self/0,
%% exit/1, is_process_alive/1, processes/0, erlang:yield/0, erlang:hibernate/3, the process
%% dictionary and group leaders. Only deterministic facts are printed (no pids, refs, sizes that
%% depend on the emulator's allocation history).
-module(proc_spawn).
-export([main/0, reply/2, add/3, woke/2, wait_forever/0, id/1]).

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

%% erl's logger prints a report on stdout for every process that dies of an uncaught error;
%% beamvm prints it on stderr. Silence erl's logger so stdout holds only the checks.
quiet_logger() ->
    case whereis(logger) of
        undefined -> ok;
        _ -> logger:set_primary_config(level, none)
    end.

reply(To, Msg) -> To ! {reply, Msg}.
add(To, A, B) -> To ! {reply, A + B}.
wait_forever() -> receive never -> ok end.
id(X) -> X.

%% Entry point after erlang:hibernate/3 and a message.
woke(To, Tag) -> receive M -> To ! {woke, Tag, M} end.

%% Waits for P to end; returns its exit reason with stacktraces cut to {M, F, Arity}.
down_reason(P) ->
    Ref = monitor(process, P),
    receive {'DOWN', Ref, process, P, Why} -> clean(Why) end.

clean({Reason, [{M, F, A, Loc} | _]}) when is_list(Loc) ->
    {clean(Reason), {stacktop, M, F, if is_list(A) -> length(A); true -> A end}};
clean(X) when is_pid(X) -> pid;
clean(X) when is_reference(X) -> ref;
clean(X) when is_tuple(X) -> list_to_tuple([clean(E) || E <- tuple_to_list(X)]);
clean(X) when is_list(X) -> [clean(E) || E <- X];
clean(X) -> X.

%% Spawns F in a fresh process and returns what it sends back.
in_fresh(F) ->
    Main = self(),
    {P, Ref} = spawn_monitor(fun() -> Main ! {result, self(), try F() catch C:R -> {C, R} end} end),
    receive
        {result, P, R} -> receive {'DOWN', Ref, _, _, _} -> ok end, clean(R);
        {'DOWN', Ref, process, P, Why} -> {died, clean(Why)}
    end.

main() ->
    quiet_logger(),
    spawn_variants(),
    spawn_errors(),
    links_and_monitors(),
    spawn_opt_checks(),
    liveness(),
    hibernate_yield(),
    dictionary(),
    group_leaders(),
    ok.

spawn_variants() ->
    Self = self(),
    t(spawn_1, fun() -> spawn(fun() -> Self ! {reply, one} end), receive {reply, M} -> M end end),
    t(spawn_2_local_node, fun() -> spawn(node(), fun() -> Self ! {reply, two} end), receive {reply, M} -> M end end),
    t(spawn_3, fun() -> spawn(?MODULE, add, [Self, 40, 2]), receive {reply, M} -> M end end),
    t(spawn_4_local_node, fun() -> spawn(node(), ?MODULE, reply, [Self, four]), receive {reply, M} -> M end end),
    t(spawn_returns_pid, fun() -> is_pid(spawn(fun() -> ok end)) end),
    t(spawn_closure_env, fun() ->
                                 Big = lists:seq(1, 1000), Bin = binary:copy(<<"ab">>, 100), Map = #{k => Big},
                                 spawn(fun() -> Self ! {reply, {lists:sum(Big), byte_size(Bin), map_size(Map)}} end),
                                 receive {reply, M} -> M end
                         end),
    t(self_in_child_differs, fun() ->
                                     P = spawn(fun() -> Self ! {reply, self()} end),
                                     receive {reply, C} -> {C =:= P, C =/= Self} end
                             end),
    t(many_spawned_sum, fun() ->
                                Ps = [spawn(?MODULE, add, [Self, I, I]) || I <- lists:seq(1, 500)],
                                {length(Ps), lists:sum([receive {reply, V} -> V end || _ <- Ps])}
                        end),
    t(exit_1_reasons, fun() ->
                              [down_reason(spawn(fun() -> exit(R) end)) || R <- [normal, shutdown, {a, b}, kill]]
                      end),
    t(exit_1_caught_in_child, fun() -> in_fresh(fun() -> try exit(inner) catch exit:R -> {caught, R} end end) end),
    t(return_is_normal, fun() -> down_reason(spawn(fun() -> done end)) end),
    ok.

spawn_errors() ->
    t(spawn_not_fun, fun() -> spawn(not_a_fun) end),
    t(spawn_3_args_not_list, fun() -> spawn(?MODULE, reply, not_a_list) end),
    t(spawn_3_improper_args, fun() -> spawn(?MODULE, reply, [a | b]) end),
    t(spawn_3_module_not_atom, fun() -> spawn("m", f, []) end),
    t(spawn_undef_function, fun() -> down_reason(spawn(?MODULE, no_such_function, [1, 2])) end),
    t(spawn_undef_module, fun() -> down_reason(spawn(no_such_module_xyz, f, [])) end),
    t(spawn_monitor_fun_badarity, fun() -> spawn_monitor(fun(X, Y) -> {X, Y} end) end),
    t(spawn_child_error, fun() -> down_reason(spawn(fun() -> error(child_error) end)) end),
    t(spawn_child_badmatch, fun() -> down_reason(spawn(fun() -> 1 = id(2) end)) end),
    ok.

links_and_monitors() ->
    t(spawn_link_links, fun() ->
                                in_fresh(fun() ->
                                                 P = spawn_link(fun wait_forever/0),
                                                 {links, L} = process_info(self(), links),
                                                 {links, L2} = process_info(P, links),
                                                 unlink(P), exit(P, kill),
                                                 {L =:= [P], L2 =:= [self()]}
                                         end)
                        end),
    t(spawn_link_3, fun() ->
                            in_fresh(fun() ->
                                             process_flag(trap_exit, true),
                                             P = spawn_link(?MODULE, add, [self(), 1, 2]),
                                             R = receive {reply, V} -> V end,
                                             receive {'EXIT', P, Why} -> {R, Why} end
                                     end)
                    end),
    t(spawn_link_crash_kills_parent, fun() ->
                                             in_fresh(fun() -> spawn_link(fun() -> exit(boom) end), wait_forever() end)
                                     end),
    t(spawn_monitor_1, fun() -> {P, Ref} = spawn_monitor(fun() -> exit(m1) end),
                                receive {'DOWN', Ref, process, P2, Why} -> {P2 =:= P, Why} end end),
    t(spawn_monitor_3, fun() -> {P, Ref} = spawn_monitor(?MODULE, add, [self(), 2, 3]),
                                V = receive {reply, X} -> X end,
                                receive {'DOWN', Ref, process, P, Why} -> {V, Why} end end),
    t(spawn_monitor_not_linked, fun() ->
                                        in_fresh(fun() ->
                                                         {P, Ref} = spawn_monitor(fun() -> exit(crash) end),
                                                         receive {'DOWN', Ref, process, P, Why} -> {Why, process_info(self(), links)} end
                                                 end)
                                end),
    t(spawn_monitor_badarg, fun() -> spawn_monitor(not_a_fun) end),
    ok.

spawn_opt_checks() ->
    Self = self(),
    Info = fun(Opts, Keys) ->
                   P = spawn_opt(fun() -> Self ! {ready, self()}, wait_forever() end, Opts),
                   receive {ready, P} -> ok end,
                   try process_info(P, Keys) after exit(P, kill) end
           end,
    t(spawn_opt_link, fun() ->
                              in_fresh(fun() ->
                                               process_flag(trap_exit, true),
                                               P = spawn_opt(fun() -> exit(opt_link) end, [link]),
                                               receive {'EXIT', P, Why} -> {is_pid(P), Why} end
                                       end)
                      end),
    t(spawn_opt_monitor, fun() ->
                                 {P, Ref} = spawn_opt(fun() -> exit(opt_monitor) end, [monitor]),
                                 receive {'DOWN', Ref, process, P, Why} -> Why end
                         end),
    t(spawn_opt_link_monitor, fun() ->
                                      in_fresh(fun() ->
                                                       process_flag(trap_exit, true),
                                                       {P, Ref} = spawn_opt(fun() -> exit(both) end, [link, monitor]),
                                                       A = receive {'EXIT', P, W1} -> W1 end,
                                                       B = receive {'DOWN', Ref, process, P, W2} -> W2 end,
                                                       {A, B}
                                               end)
                              end),
    t(spawn_opt_priority, fun() -> [Info([{priority, Pr}], priority) || Pr <- [low, normal, high, max]] end),
    t(spawn_opt_min_heap_size, fun() -> Info([{min_heap_size, 1000}], min_heap_size) end),
    t(spawn_opt_min_heap_size_small, fun() -> Info([{min_heap_size, 10}], min_heap_size) end),
    t(spawn_opt_min_bin_vheap_size, fun() -> Info([{min_bin_vheap_size, 100000}], min_bin_vheap_size) end),
    t(spawn_opt_max_heap_size_int, fun() -> Info([{max_heap_size, 100000}], max_heap_size) end),
    t(spawn_opt_max_heap_size_map,
      fun() -> Info([{max_heap_size, #{size => 50000, kill => false, error_logger => false}}], max_heap_size) end),
    t(spawn_opt_default_max_heap_size, fun() -> Info([], max_heap_size) end),
    t(spawn_opt_message_queue_data, fun() -> [Info([{message_queue_data, D}], message_queue_data)
                                              || D <- [off_heap, on_heap]] end),
    t(spawn_opt_defaults, fun() -> Info([], [priority, min_heap_size, message_queue_data, trap_exit]) end),
    t(spawn_opt_fullsweep_after, fun() -> {garbage_collection, GC} = Info([{fullsweep_after, 7}], garbage_collection),
                                          proplists:get_value(fullsweep_after, GC) end),
    t(spawn_opt_max_heap_kills, fun() ->
                                        {P, Ref} = spawn_opt(fun() -> grow(1000000, []) end,
                                                             [monitor, {max_heap_size, #{size => 2000, kill => true,
                                                                                         error_logger => false}}]),
                                        receive {'DOWN', Ref, process, P, Why} -> Why end
                                end),
    t(spawn_opt_4, fun() -> spawn_opt(?MODULE, add, [Self, 5, 6], []), receive {reply, V} -> V end end),
    t(spawn_opt_4_monitor, fun() -> {P, Ref} = spawn_opt(?MODULE, add, [Self, 5, 7], [monitor]),
                                    V = receive {reply, X} -> X end,
                                    receive {'DOWN', Ref, process, P, Why} -> {V, Why} end end),
    t(spawn_opt_3_node, fun() -> spawn_opt(node(), fun() -> Self ! {reply, n3} end, []),
                                 receive {reply, V} -> V end end),
    t(spawn_opt_5_node, fun() -> spawn_opt(node(), ?MODULE, reply, [Self, n5], []),
                                 receive {reply, V} -> V end end),
    t(spawn_opt_bad_option, fun() -> spawn_opt(fun() -> ok end, [bogus]) end),
    t(spawn_opt_bad_priority, fun() -> spawn_opt(fun() -> ok end, [{priority, urgent}]) end),
    t(spawn_opt_bad_heap_size, fun() -> spawn_opt(fun() -> ok end, [{min_heap_size, -1}]) end),
    t(spawn_opt_bad_mqd, fun() -> spawn_opt(fun() -> ok end, [{message_queue_data, nowhere}]) end),
    t(spawn_opt_not_list, fun() -> spawn_opt(fun() -> ok end, link) end),
    ok.

%% Each step keeps one more cons cell live (the halves are shared): a heap limit of 2,000 words
%% ends it long before the bound, which only stops a VM that ignores max_heap_size.
grow(0, _) -> exit(not_killed);
grow(N, Acc) -> grow(N - 1, [Acc | Acc]).

liveness() ->
    t(self_is_pid, fun() -> is_pid(self()) end),
    t(self_alive, fun() -> is_process_alive(self()) end),
    t(alive_waiting_then_dead, fun() ->
                                       P = spawn(fun wait_forever/0),
                                       A = is_process_alive(P),
                                       exit(P, kill),
                                       down_reason(P),
                                       {A, is_process_alive(P)}
                               end),
    t(is_process_alive_badarg, fun() -> is_process_alive(not_a_pid) end),
    t(processes_has_self, fun() -> lists:member(self(), processes()) end),
    t(processes_all_pids, fun() -> lists:all(fun is_pid/1, processes()) end),
    t(processes_has_child_until_dead, fun() ->
                                              P = spawn(fun wait_forever/0),
                                              In = lists:member(P, processes()),
                                              exit(P, kill), down_reason(P),
                                              {In, lists:member(P, processes())}
                                      end),
    t(processes_grows_by_spawned, fun() ->
                                          Ps = [spawn(fun wait_forever/0) || _ <- lists:seq(1, 50)],
                                          All = processes(),
                                          R = length([P || P <- Ps, lists:member(P, All)]),
                                          [begin exit(P, kill), down_reason(P) end || P <- Ps],
                                          All2 = processes(),
                                          {R, length([P || P <- Ps, lists:member(P, All2)])}
                                  end),
    ok.

hibernate_yield() ->
    Self = self(),
    t(yield_returns_true, fun() -> erlang:yield() end),
    t(hibernate_wakes_in_mfa, fun() ->
                                      P = spawn(fun() -> Self ! {ready, self()}, erlang:hibernate(?MODULE, woke, [Self, tag]) end),
                                      receive {ready, P} -> ok end,
                                      P ! hello,
                                      receive {woke, T, M} -> {T, M} end
                              end),
    t(hibernate_status_waiting, fun() ->
                                        P = spawn(fun() -> erlang:hibernate(?MODULE, woke, [Self, tag]) end),
                                        wait_status(P, waiting),
                                        S = process_info(P, [status, current_function]),
                                        P ! bye,
                                        receive {woke, _, _} -> ok end,
                                        S
                                end),
    t(hibernate_discards_catch, fun() ->
                                        P = spawn(fun() ->
                                                          try erlang:hibernate(?MODULE, woke, [Self, catchless])
                                                          catch _:_ -> Self ! {woke, caught, x} end
                                                  end),
                                        wait_status(P, waiting),
                                        P ! m,
                                        receive {woke, T, M} -> {T, M} end
                                end),
    t(hibernate_badarg, fun() -> in_fresh(fun() -> erlang:hibernate(?MODULE, woke, not_a_list) end) end),
    t(hibernate_undef_on_wake, fun() ->
                                       P = spawn(fun() -> erlang:hibernate(?MODULE, nope, []) end),
                                       wait_status(P, waiting),
                                       P ! wake_up,
                                       down_reason(P)
                               end),
    ok.

%% Waits (by yielding, not by time) until P reports Status.
wait_status(P, Status) ->
    case process_info(P, [status, current_function]) of
        [{status, Status}, {current_function, {erlang, hibernate, 3}}] -> ok;
        _ -> erlang:yield(), wait_status(P, Status)
    end.

dictionary() ->
    t(dict_fresh_empty, fun() -> in_fresh(fun() -> {get(), get_keys()} end) end),
    t(dict_put_get, fun() -> in_fresh(fun() -> {put(a, 1), put(a, 2), get(a), get(missing)} end) end),
    t(dict_get_all_sorted, fun() -> in_fresh(fun() -> [put(K, V) || {K, V} <- [{c, 3}, {a, 1}, {b, 2}, {{x}, 4}]],
                                                      {lists:sort(get()), lists:sort(get_keys())} end) end),
    t(dict_get_keys_value, fun() -> in_fresh(fun() -> [put(K, v) || K <- [k1, k2, k3]], put(k4, w),
                                                      {lists:sort(get_keys(v)), get_keys(w), get_keys(none)} end) end),
    t(dict_erase, fun() -> in_fresh(fun() -> put(a, 1), put(b, 2),
                                             {erase(a), erase(a), get(), erase(), get()} end) end),
    t(dict_any_terms, fun() -> in_fresh(fun() -> K = {key, [1, 2], <<"bin">>}, V = #{deep => lists:seq(1, 5)},
                                                 put(K, V), put(1.0, float), put(1, int),
                                                 {get(K), get(1.0), get(1), length(get())} end) end),
    t(dict_not_inherited, fun() -> in_fresh(fun() -> put(parent, yes), Me = self(),
                                                     spawn(fun() -> Me ! {child, get()} end),
                                                     receive {child, D} -> D end end) end),
    t(dict_many_keys, fun() -> in_fresh(fun() -> [put(I, I * I) || I <- lists:seq(1, 1000)],
                                                 {length(get()), get(777), lists:sum([V || {_, V} <- get()])} end) end),
    ok.

group_leaders() ->
    Self = self(),
    t(group_leader_is_pid, fun() -> is_pid(group_leader()) end),
    t(group_leader_inherited, fun() ->
                                      GL = group_leader(),
                                      spawn(fun() -> Self ! {gl, group_leader()} end),
                                      receive {gl, G} -> G =:= GL end
                              end),
    t(group_leader_set_other, fun() ->
                                      P = spawn(fun() -> receive go -> Self ! {gl, group_leader()} end end),
                                      NewGL = spawn(fun wait_forever/0),
                                      R = group_leader(NewGL, P),
                                      P ! go,
                                      G = receive {gl, X} -> X end,
                                      exit(NewGL, kill),
                                      {R, G =:= NewGL}
                              end),
    t(group_leader_set_self, fun() ->
                                     in_fresh(fun() ->
                                                      Old = group_leader(),
                                                      NewGL = spawn(fun wait_forever/0),
                                                      group_leader(NewGL, self()),
                                                      Now = group_leader(),
                                                      Me = self(),
                                                      spawn(fun() -> Me ! {gl2, group_leader()} end),
                                                      Child = receive {gl2, C} -> C end,
                                                      exit(NewGL, kill),
                                                      {Now =:= NewGL, Now =/= Old, Child =:= NewGL}
                                              end)
                             end),
    t(group_leader_badarg, fun() -> group_leader(not_a_pid, self()) end),
    t(group_leader_badarg2, fun() -> group_leader(self(), not_a_pid) end),
    ok.

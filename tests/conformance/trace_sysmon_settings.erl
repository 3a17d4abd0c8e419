%% erlang:system_monitor/0,1,2: the settings as erl reports them (bounds applied, previous
%% setting returned, option order), bad arguments, a dead monitor being forgotten, and a
%% large_heap report with erl's heap figures (values not shown: they depend on the heap).
-module(trace_sysmon_settings).
-export([main/0]).

main() ->
    Dead = spawn(fun() -> ok end),
    %% M stays alive until killed below: with {long_schedule, 30} set, a slow run (beamvm
    %% under ThreadSanitizer) sends it long_schedule reports, which must not end it.
    M = spawn(fun Wait() -> receive _ -> Wait() end end),
    wait_dead(Dead),
    Names = [{self(), main}, {M, monitor}, {Dead, dead}],
    R = [erlang:system_monitor(),
         erlang:system_monitor(M, [{long_gc, 0}, {large_heap, 10}, busy_port, {long_schedule, 0}, busy_dist_port]),
         erlang:system_monitor(),
         erlang:system_monitor(M, [busy_port]),
         erlang:system_monitor(M, []),
         erlang:system_monitor({M, [{long_gc, 500}, {large_heap, 1 bsl 40}]}),
         erlang:system_monitor(undefined),
         erlang:system_monitor(undefined),
         erlang:system_monitor(undefined, [busy_port]),
         erlang:system_monitor(M, [{long_schedule, 20}, {long_schedule, 30}])],
    [show(setting, norm(X, Names)) || X <- R],
    [show(bad, norm(catch_error(F), Names)) ||
        F <- [fun() -> erlang:system_monitor(Dead, [busy_port]) end,
              fun() -> erlang:system_monitor(M, [foo]) end,
              fun() -> erlang:system_monitor(M, [{long_gc, -1}]) end,
              fun() -> erlang:system_monitor(M, [{long_gc, 1 bsl 70}]) end,
              fun() -> erlang:system_monitor(M, [{long_gc, 1.0}]) end,
              fun() -> erlang:system_monitor(M, [{long_gc, 1, 2}]) end,
              fun() -> erlang:system_monitor(M, busy_port) end,
              fun() -> erlang:system_monitor(M, [busy_port | x]) end,
              fun() -> erlang:system_monitor(foo) end,
              fun() -> erlang:system_monitor({M, [busy_port], x}) end,
              fun() -> erlang:system_monitor(foo, [busy_port]) end]],
    show(after_errors, norm(erlang:system_monitor(), Names)),
    %% large_heap: a process whose heap grows past the limit is reported after its GC.
    show(previous, norm(erlang:system_monitor(self(), [{large_heap, 100000}]), Names)),
    Big = spawn(fun() -> L = lists:seq(1, 300000), erlang:garbage_collect(), length(L) end),
    receive
        {monitor, Big, large_heap, Info} -> show(large_heap, [K || {K, V} <- Info, is_integer(V), V >= 0])
    end,
    erlang:system_monitor(undefined),
    %% A monitor that dies is forgotten.
    erlang:system_monitor(M, [busy_port]),
    Ref = erlang:monitor(process, M),
    exit(M, kill),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    show(after_monitor_died, erlang:system_monitor()),
    ok.

wait_dead(P) ->
    case is_process_alive(P) of true -> receive after 1 -> wait_dead(P) end; false -> ok end.

catch_error(F) ->
    try F() of V -> {returned, V} catch C:R -> {C, R} end.

norm(T, Names) when is_pid(T) ->
    case lists:keyfind(T, 1, Names) of {_, N} -> N; false -> other_pid end;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(T, _) -> T.

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

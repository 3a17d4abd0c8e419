%% The soak: every workload of tests/soak/ at once for a given number of seconds, then the checks.
%%   beamvm -noshell -pa EBIN -run soak main SECONDS      (tools/soak.sh runs it)
%% Resident memory is sampled every second. Warm-up is the first third of the run (at most five
%% minutes; half of a run shorter than ten minutes); memory is flat when the median of the last
%% tenth of the run is within 5% of the median of the tenth that follows warm-up (25% for runs
%% shorter than ten minutes, see growth_limit/1). After the workloads stop, the VM must be back
%% where it started: as many file descriptors, child OS processes, ETS tables, processes and
%% ports (given 10 s to settle). Prints a report; the last line is "soak: ok" (status 0) or
%% "soak: FAILED" (status 1).
-module(soak).
-export([main/1]).

main([Secs]) -> main(list_to_integer(Secs));
main(Secs) when is_integer(Secs), Secs >= 10 ->
    logger:set_primary_config(level, none),   % the deliberate crashes are not news
    prime(),
    Before = census(),
    T0 = erlang:monotonic_time(millisecond),
    Workers = soak_procs_list() ++ soak_hot:start(6) ++ soak_msgs:start(4) ++ soak_tcp:start(3),
    Samples = sample(T0, Secs, []),
    Results = soak_worker:stop_all(Workers),
    After = settle(Before, 10000),
    Failures = report(Secs, Results, Samples, Before, After),
    case Failures of
        [] -> io:format("soak: ok~n"), halt(0);
        _ -> io:format("soak: FAILED: ~p~n", [Failures]), halt(1)
    end.

soak_procs_list() ->
    [{processes, soak_procs:start()}, {ets, soak_ets:start()}, {ports, soak_ports:start()},
     {timers, soak_timers:start()}].

%% What the first use of a service starts once and keeps (the compiler's modules, inet's
%% tables, os:cmd's helpers) is not a leak: use each once before the census.
prime() ->
    {ok, _, _} = compile:forms([{attribute, 1, module, soak_prime}], [binary]),
    {ok, L} = gen_tcp:listen(0, [{ip, {127, 0, 0, 1}}]),
    ok = gen_tcp:close(L),
    _ = os:cmd("true"),
    receive after 1000 -> ok end.   % the OS process's pidfd is closed once it is reaped

census() ->
    #{fds => soak_os:fds(), children => length(soak_os:children()), ets => length(ets:all()),
      processes => erlang:system_info(process_count), ports => length(erlang:ports())}.

settle(Before, Left) ->
    Now = census(),
    if
        Now =:= Before; Left =< 0 -> Now;
        true -> receive after 100 -> settle(Before, Left - 100) end
    end.

sample(T0, Secs, Acc) ->
    T = (erlang:monotonic_time(millisecond) - T0) / 1000,
    if
        T >= Secs -> lists:reverse(Acc);
        true ->
            Rss = soak_os:rss_kb(),
            case round(T) rem 60 of
                0 when round(T) > 0 -> io:format("t=~ps rss=~p kB~n", [round(T), Rss]);
                _ -> ok
            end,
            receive after 1000 -> ok end,
            sample(T0, Secs, [{T, Rss} | Acc])
    end.

report(Secs, Results, Samples, Before, After) ->
    io:format("soak: ~p s on ~p schedulers~n", [Secs, erlang:system_info(schedulers_online)]),
    WorkFailures = lists:append([workload(R) || R <- Results]),
    MemFailures = memory(Secs, Samples),
    LeakFailures = [{leak, K, maps:get(K, Before), maps:get(K, After)}
                    || K <- lists:sort(maps:keys(Before)), maps:get(K, Before) =/= maps:get(K, After)],
    io:format("  census before ~w~n  census after  ~w~n", [Before, After]),
    WorkFailures ++ MemFailures ++ LeakFailures.

workload({Name, Stats, Errors}) ->
    io:format("  ~-18s ~s~n", [io_lib:format("~w", [Name]),
                               lists:join(" ", [io_lib:format("~w=~w", [K, V]) || {K, V} <- Stats])]),
    [io:format("    error: ~0P~n", [E, 30]) || E <- Errors],
    case proplists:get_value(errors, Stats, 1) of
        0 -> [];
        N -> [{Name, errors, N}]
    end.

memory(Secs, Samples) ->
    Warm = warm_up(Secs),
    Tenth = max(5, (Secs - Warm) / 10),
    Base = median([R || {T, R} <- Samples, T >= Warm, T < Warm + Tenth]),
    End = median([R || {T, R} <- Samples, T >= Secs - Tenth]),
    Peak = lists:max([R || {_, R} <- Samples]),
    Growth = (End - Base) * 100 / Base,
    io:format("  memory             rss_after_warmup=~p kB rss_at_end=~p kB growth=~.1f% peak=~p kB "
              "erlang_memory_total=~p~n", [Base, End, Growth, Peak, erlang:memory(total)]),
    [{memory_growth_percent, Growth} || Growth > growth_limit(Secs)].

%% Resident memory climbs for the first 60-120 s of the soak (the allocator settling, the
%% long-lived workers' heaps reaching their size) and is flat after that. The issue's bound, 5%,
%% holds from a 10-minute run on. A shorter run is still warming up when it ends: the 60-s smoke
%% measured 4-6% here and 15% on CI from 20 s to the end, where the same build's 240-s run
%% grew 2.4% after warm-up. It starts its baseline at half-time and is held to 25%, which the
%% leaks a minute can show still cross: CI's run ended 52,000 processes in its second half
%% (24 a step), so 250 bytes kept of each is 13 MB, 25% of its 52 MB; a kept 64 KB message of
%% the senders' is a gigabyte.
warm_up(Secs) when Secs >= 600 -> min(300, Secs div 3);
warm_up(Secs) -> Secs div 2.

growth_limit(Secs) when Secs >= 600 -> 5.0;
growth_limit(_) -> 25.0.

median(L) -> lists:nth((length(L) + 1) div 2, lists:sort(L)).

%% Reloading one module over and over while processes keep calling it: every reload waits
%% for a soft purge of the previous old version (as a release handler would), servers running
%% the module's loop are told to switch with a fully qualified call after each load, and no
%% call may fail or see anything but a version of the module. main/0 is the small size the default
%% tests run; stress/1 (tools/stress.sh hot_reload) takes the number of versions and callers.
-module(hot_reload).
-export([main/0, stress/1]).

main() ->
    report(run(60, 20)).

stress([Versions, Callers]) ->
    T0 = erlang:monotonic_time(millisecond),
    R = run(list_to_integer(Versions), list_to_integer(Callers)),
    T1 = erlang:monotonic_time(millisecond),
    io:format("~p versions, ~p callers and ~p servers alive, ~p calls, ~p bad, ~p soft purge retries, ~p ms~n",
              [maps:get(versions, R), maps:get(callers_alive, R), maps:get(servers_alive, R), maps:get(calls, R),
               maps:get(bad_results, R), maps:get(retries, R), T1 - T0]).

run(Versions, Callers) ->
    catch logger:remove_handler(default),
    Bins = list_to_tuple([object(N) || N <- [1, 2, 3]]),
    {module, hc_mod} = code:load_binary(hc_mod, "hc_mod_v1", element(1, Bins)),
    Parent = self(),
    Pids = [spawn(fun() -> first_call(Parent) end) || _ <- lists:seq(1, Callers)],
    Refs = [monitor(process, P) || P <- Pids],
    [receive {started, P} -> ok end || P <- Pids],
    Servers = [spawn(hc_mod, loop, [0]) || _ <- lists:seq(1, max(1, Callers div 10))],
    ServerRefs = [monitor(process, S) || S <- Servers],
    Retries = reload(2, Versions, Bins, Servers, 0),
    Alive = length([R || R <- Refs, not down(R)]),
    ServersAlive = length([R || R <- ServerRefs, not down(R)]),
    [S ! stop || S <- Servers],
    [P ! {stop, Parent} || P <- Pids],
    Results = [receive {done, P, Calls, Bad} -> {Calls, Bad} after 10000 -> {0, lost} end || P <- Pids],
    code:soft_purge(hc_mod),
    code:delete(hc_mod),
    code:purge(hc_mod),
    #{versions => Versions, callers_alive => Alive, servers_alive => ServersAlive,
      calls => lists:sum([C || {C, _} <- Results]),
      every_caller_called => lists:all(fun({C, _}) -> C > 0 end, Results),
      bad_results => lists:sum([B || {_, B} <- Results, is_integer(B)]) +
                     length([lost || {_, lost} <- Results]),
      retries => Retries,
      final_version => hc_mod_version_or_undef()}.

report(R) ->
    [io:format("~p: ~p~n", [K, maps:get(K, R)])
     || K <- [versions, callers_alive, servers_alive, every_caller_called, bad_results, final_version]],
    ok.

%% Loads versions N..Max in turn (cycling through the three builds), each after the previous
%% old code could be soft-purged.
reload(N, Max, _Bins, _Servers, Retries) when N > Max -> Retries;
reload(N, Max, Bins, Servers, Retries) ->
    R = soft_purge(0),
    {module, hc_mod} = erlang:load_module(hc_mod, element(1 + (N - 1) rem 3, Bins)),
    [S ! {self(), upgrade} || S <- Servers],
    [receive upgrading -> ok end || _ <- Servers],
    reload(N + 1, Max, Bins, Servers, Retries + R).

soft_purge(Tries) ->
    case code:soft_purge(hc_mod) of
        true -> Tries;
        false -> erlang:yield(), soft_purge(Tries + 1)
    end.

first_call(Parent) ->
    Bad = calls(1, 0),
    Parent ! {started, self()},
    caller(Parent, 1, Bad).

%% Bursts of calls with a millisecond's pause between them: busy enough to be caught in the
%% module often, without starving the reloader.
caller(Parent, Calls, Bad) ->
    receive
        {stop, Parent} -> Parent ! {done, self(), Calls, Bad}
    after 1 ->
        caller(Parent, Calls + 20, calls(20, Bad))
    end.

calls(0, Bad) -> Bad;
calls(N, Bad) ->
    V = try hc_mod:version() catch _:_ -> failed end,
    calls(N - 1, Bad + case lists:member(V, [1, 2, 3]) of true -> 0; false -> 1 end).

down(Ref) ->
    receive {'DOWN', Ref, process, _, _} -> true after 0 -> false end.

hc_mod_version_or_undef() ->
    try hc_mod:version() catch error:undef -> undef end.

object(N) ->
    Dir = filename:join(filename:dirname(code:which(?MODULE)), "hot_v" ++ integer_to_list(N)),
    true = code:add_patha(Dir),
    {hc_mod, Bin, _} = code:get_object_code(hc_mod),
    true = code:del_path(Dir),
    Bin.

%% erlang:system_profile/0,2: settings as erl reports them, bad arguments, runnable_procs
%% events for a process that is woken by each message of a ping-pong ({profile, Pid,
%% active | inactive, MFA, Ts}, timestamps of each kind), the profiler not profiling itself,
%% scheduler events' shape, and a dead profiler being forgotten.
-module(trace_profile_procs).
-export([main/0]).

main() ->
    Prof = spawn(fun() -> collect([]) end),
    Dead = spawn(fun() -> ok end),
    wait_dead(Dead),
    Names = [{self(), main}, {Prof, profiler}],
    R = [erlang:system_profile(),
         erlang:system_profile(Prof, [runnable_procs, exclusive, scheduler, runnable_ports, timestamp]),
         erlang:system_profile(),
         erlang:system_profile(Prof, []),
         erlang:system_profile(Prof, [exclusive]),
         erlang:system_profile(undefined, [x]),
         erlang:system_profile(Prof, [runnable_ports, monotonic_timestamp]),
         erlang:system_profile(undefined, [])],
    [show(setting, norm(X, Names)) || X <- R],
    [show(bad, catch_error(F)) ||
        F <- [fun() -> erlang:system_profile(Prof, [foo]) end,
              fun() -> erlang:system_profile(Dead, [scheduler]) end,
              fun() -> erlang:system_profile(Prof, x) end,
              fun() -> erlang:system_profile(Prof, [scheduler | x]) end,
              fun() -> erlang:system_profile(foo, [scheduler]) end]],
    [ping_pong(Prof, Ts) || Ts <- [[], [timestamp], [monotonic_timestamp], [strict_monotonic_timestamp]]],
    %% The profiler's own scheduling is not reported.
    erlang:system_profile(Prof, [runnable_procs]),
    [begin Prof ! {ping, self()}, receive pong -> ok end end || _ <- lists:seq(1, 3)],
    erlang:system_profile(undefined, []),
    show(profiler_events, [E || {profile, P, _, _, _} = E <- events(Prof), P =:= Prof]),
    %% Scheduler events: {profile, scheduler, Id, State, NActive, Ts}.
    erlang:system_profile(Prof, [scheduler]),
    receive after 100 -> ok end,
    {Prof, [scheduler]} = erlang:system_profile(undefined, []),
    show(scheduler_events, lists:usort([shape(E) || E <- events(Prof)])),
    %% A profiler that dies is forgotten.
    erlang:system_profile(Prof, [runnable_procs]),
    Ref = erlang:monitor(process, Prof),
    exit(Prof, kill),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    show(after_profiler_died, erlang:system_profile()),
    ok.

%% P answers each ping; between pings it waits, so each ping wakes it: active, then inactive
%% when it waits again, and a last pair for the stop message and its exit (at no function: 0).
%% P is known to wait before profiling starts, and a profiler of its own waits for P's last
%% event: erl delivers profile messages from a thread of its own, at a time of its choosing.
ping_pong(_, Ts) ->
    P = spawn(fun pong/0),
    wait_waiting(P),
    Me = self(),
    Prof = spawn(fun() -> receive go -> Me ! {events, until_exit(P)} end, receive stop -> ok end end),
    undefined = erlang:system_profile(Prof, [runnable_procs | Ts]),
    [begin P ! {ping, self()}, receive pong -> ok end end || _ <- lists:seq(1, 3)],
    P ! stop,
    Prof ! go,
    Events = receive {events, L} -> L end,
    {Prof, [runnable_procs]} = erlang:system_profile(undefined, []),
    Prof ! stop,
    show(Ts, [{State, MFA, ts(Ts, T)} || {profile, _, State, MFA, T} <- Events]).

until_exit(P) ->
    receive
        {profile, P, inactive, 0, _} = E -> [E];
        {profile, P, _, _, _} = E -> [E | until_exit(P)];
        _ -> until_exit(P)
    end.

wait_waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> receive after 1 -> wait_waiting(P) end
    end.

pong() ->
    receive
        {ping, From} -> From ! pong, pong();
        stop -> ok
    end.

ts([], {A, B, C}) when is_integer(A), is_integer(B), is_integer(C) -> now;
ts([timestamp], {A, B, C}) when is_integer(A), is_integer(B), is_integer(C) -> now;
ts([monotonic_timestamp], T) when is_integer(T) -> monotonic;
ts([strict_monotonic_timestamp], {M, U}) when is_integer(M), is_integer(U) -> strict;
ts(_, T) -> {unexpected, T}.

shape({profile, scheduler, Id, State, N, {A, B, C}})
  when is_integer(Id), Id > 0, (State =:= active orelse State =:= inactive), is_integer(N), N >= 0,
       is_integer(A), is_integer(B), is_integer(C) -> {profile, scheduler, id, State, count, now};
shape(E) -> {unexpected, E}.

collect(Acc) ->
    receive
        {dump, P} ->
            %% Every event made so far is in the queue once trace_delivered answers.
            Ref = erlang:trace_delivered(all),
            receive {trace_delivered, all, Ref} -> ok end,
            {Events, _} = lists:partition(fun(_) -> true end, lists:reverse(Acc) ++ drain()),
            P ! {events, Events},
            collect([]);
        {ping, P} -> P ! pong, collect(Acc);
        M -> collect([M | Acc])
    end.

drain() ->
    receive {profile, _, _, _, _} = E -> [E | drain()];
            {profile, scheduler, _, _, _, _} = E -> [E | drain()]
    after 0 -> []
    end.

events(Prof) ->
    Prof ! {dump, self()},
    receive {events, L} -> L end.

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

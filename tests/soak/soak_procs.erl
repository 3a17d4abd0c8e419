%% Processes spawned and ended every way a process ends, each exit reason checked against the
%% one its fate must produce: a normal return, exit/1, a runtime error, a kill, an exit signal,
%% an exit signal caught by a trapping process, a linked crash carried to its partner, and
%% max_heap_size exceeded. A batch of 24 per step, every one monitored.
-module(soak_procs).
-export([start/0]).

-define(FATES, [normal, shutdown, error, kill, signal, trapped, linked, max_heap]).

start() ->
    soak_worker:start(processes, fun soak_worker:new/0, fun step/1).

step(S0) ->
    Victims = [{Fate, I, victim(Fate, I)} || I <- lists:seq(1, 3), Fate <- ?FATES],
    [signal(Fate, I, Pid) || {Fate, I, {Pid, _}} <- Victims],
    lists:foldl(fun({Fate, I, {_, Ref}}, S) -> await(Fate, I, Ref, S) end, S0, Victims).

victim(normal, I) -> spawn_monitor(fun() -> lists:sum(lists:seq(1, I * 100)) end);
victim(shutdown, I) -> spawn_monitor(fun() -> exit({shutdown, I}) end);
victim(error, I) -> spawn_monitor(fun() -> I / zero() end);
victim(kill, _) -> spawn_monitor(fun wait/0);
victim(signal, _) -> spawn_monitor(fun wait/0);
victim(trapped, _) ->
    Parent = self(),
    spawn_monitor(fun() ->
        process_flag(trap_exit, true),
        Parent ! {trapping, self()},
        receive {'EXIT', _, {soak, N}} -> exit({caught, N}) end
    end);
victim(linked, I) ->
    spawn_monitor(fun() ->
        spawn_link(fun() -> exit({chain, I}) end),
        wait()
    end);
victim(max_heap, _) ->
    spawn_opt(fun() -> grow([]) end,
              [monitor, {max_heap_size, #{size => 20000, kill => true, error_logger => false}}]).

signal(kill, _, Pid) -> exit(Pid, kill);
signal(signal, I, Pid) -> exit(Pid, {soak, I});
signal(trapped, I, Pid) -> receive {trapping, Pid} -> exit(Pid, {soak, I}) end;
signal(_, _, _) -> ok.

await(Fate, I, Ref, S) ->
    receive
        {'DOWN', Ref, process, _, Reason} ->
            S1 = soak_worker:count(Fate, 1, S),
            case expected(Fate, I, Reason) of
                true -> S1;
                false -> soak_worker:error({exit_reason, Fate, I, Reason}, S1)
            end
    after 10000 ->
        soak_worker:error({no_exit_within_10s, Fate, I}, S)
    end.

expected(normal, _, normal) -> true;
expected(shutdown, I, {shutdown, I}) -> true;
expected(error, _, {badarith, [_ | _]}) -> true;
expected(kill, _, killed) -> true;
expected(signal, I, {soak, I}) -> true;
expected(trapped, I, {caught, I}) -> true;
expected(linked, I, {chain, I}) -> true;
expected(max_heap, _, killed) -> true;
expected(_, _, _) -> false.

wait() -> receive never -> ok end.
grow(L) -> grow([L | L]).
zero() -> erlang:phash2(self()) * 0.

%% erlang:garbage_collect/1,2 as a system task: the target really collects (its
%% garbage_collection trace events show the kind) whether it waits in a receive, runs, or runs
%% a dirty call; it answers only after the signals sent before the request (an exit signal
%% first makes the answer false); the caller's own collection honours {type, minor}.
-module(gc_system_tasks).
-export([main/0]).

main() ->
    Waiting = spawn(fun() -> receive stop -> ok end end),
    show("waiting, default", Waiting, fun() -> erlang:garbage_collect(Waiting) end),
    show("waiting, minor", Waiting, fun() -> erlang:garbage_collect(Waiting, [{type, minor}]) end),
    show("waiting, async major", Waiting,
         fun() -> async = erlang:garbage_collect(Waiting, [{async, my_id}, {type, major}]),
                  receive {garbage_collect, my_id, R} -> {answer, R} end end),
    Busy = spawn(fun Loop() -> Loop() end),  % runs without allocating: no collection of its own
    show("running", Busy, fun() -> erlang:garbage_collect(Busy, [{type, major}]) end),
    exit(Busy, kill),
    Dirty = spawn(fun() -> erts_debug:dirty_io(wait, 300), receive stop -> ok end end),
    receive after 50 -> ok end,
    show("in a dirty call", Dirty, fun() -> erlang:garbage_collect(Dirty) end),
    Self = self(),
    Me = spawn(fun() -> erlang:trace(self(), true, [garbage_collection, {tracer, Self}]),
                        Self ! ready,
                        receive go -> ok end,
                        erlang:garbage_collect(self(), [{type, minor}]),
                        erlang:garbage_collect(self(), [{type, major}]),
                        Self ! {done, self()},
                        receive stop -> ok end end),
    receive ready -> ok end,
    Me ! go,
    receive {done, Me} -> ok end,
    %% erl may add a major collection of its own after the requested one: kinds in order, once.
    io:format("own collections: ~p~n", [dedup(events(Me))]),
    Victim = spawn(fun() -> receive stop -> ok end end),
    exit(Victim, kill),
    io:format("exit signal before the request: ~p~n", [erlang:garbage_collect(Victim)]),
    [P ! stop || P <- [Waiting, Dirty, Me]],
    ok.

show(Label, Pid, F) ->
    erlang:trace(Pid, true, [garbage_collection]),
    R = F(),
    erlang:trace(Pid, false, [garbage_collection]),
    io:format("~s: ~p, events ~p~n", [Label, R, events(Pid)]).

events(Pid) ->
    Ref = erlang:trace_delivered(Pid),
    receive {trace_delivered, Pid, Ref} -> ok end,
    collect(Pid).

dedup([A, A | T]) -> dedup([A | T]);
dedup([A, B, A, B | T]) -> dedup([A, B | T]);
dedup([A | T]) -> [A | dedup(T)];
dedup([]) -> [].

collect(Pid) ->
    receive {trace, Pid, Tag, _} -> [Tag | collect(Pid)]
    after 0 -> []
    end.

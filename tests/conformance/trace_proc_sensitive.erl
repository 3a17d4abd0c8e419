%% process_flag(sensitive, true): while it is set, the process makes no trace event of any
%% kind (send, receive, procs, call, running, garbage_collection), keeps its trace flags and
%% tracer (trace/3 and trace_info/2 still work on them), and hides its messages, dictionary and
%% backtrace from process_info/1,2. Clearing it brings the events back.
-module(trace_proc_sensitive).
-export([main/0, exported/1]).
-include("trace_proc_util.hrl").

exported(X) -> X + 1.

%% A step's events, the collector's sizes left out (they depend on the heap layout) and the
%% scheduling events (in, out) only counted (where they fall depends on the scheduler).
events(Label, A, F, Others) ->
    do(A, F),
    All = collect([A | Others]),
    Sched = [M || {trace, _, InOut, _} = M <- All, InOut =:= in orelse InOut =:= out],
    io:format("~s: scheduling events: ~p~n", [Label, Sched =/= []]),
    Msgs = [case M of
                {trace, P, Gc, _} when Gc =:= gc_major_start; Gc =:= gc_major_end;
                                       Gc =:= gc_minor_start; Gc =:= gc_minor_end -> {trace, P, Gc};
                _ -> M
            end || M <- All -- Sched],
    show(Label, Msgs).

main() ->
    A = start_agent(),
    Sink = start_agent(),
    name([{self(), main}, {A, a}, {Sink, sink}]),
    Flags = [send, 'receive', procs, call, running, garbage_collection],
    1 = erlang:trace(A, true, Flags),
    1 = erlang:trace_pattern({?MODULE, exported, 1}, true, [global]),
    Work = fun() ->
                   Sink ! hello,
                   _ = ?MODULE:exported(1),
                   spawn(fun() -> ok end),
                   erlang:garbage_collect(),
                   erlang:yield()
           end,
    events("traced", A, Work, [Sink]),
    io:format("set: ~p~n", [do(A, fun() -> process_flag(sensitive, true) end)]),
    flush(),
    events("sensitive", A, Work, [Sink]),
    io:format("flags kept: ~p~n", [lists:sort(element(2, erlang:trace_info(A, flags)))]),
    io:format("tracer kept: ~p~n", [norm(erlang:trace_info(A, tracer))]),
    do(A, fun() -> put(secret, 42), self() ! queued end),
    io:format("process_info items: ~p~n",
              [[process_info(A, I) || I <- [dictionary, messages, backtrace, message_queue_len]]]),
    All = process_info(A),
    io:format("process_info/1: ~p~n",
              [[lists:keyfind(I, 1, All) || I <- [dictionary, messages, message_queue_len]]]),
    io:format("again: ~p~n", [do(A, fun() -> process_flag(sensitive, true) end)]),
    1 = erlang:trace(A, false, Flags),
    io:format("all flags off, tracer: ~p~n", [erlang:trace_info(A, tracer)]),
    1 = erlang:trace(A, true, Flags),
    io:format("cleared: ~p~n", [do(A, fun() -> process_flag(sensitive, false) end)]),
    flush(),
    events("cleared", A, fun() -> receive queued -> ok end, Work() end, [Sink]),
    {dictionary, D} = process_info(A, dictionary),
    io:format("dictionary back: ~p~n", [lists:keyfind(secret, 1, D)]),
    {backtrace, B} = process_info(A, backtrace),
    io:format("backtrace back: ~p~n", [byte_size(B) > 20]),
    erlang:trace_pattern({?MODULE, exported, 1}, false, [global]),
    ok.

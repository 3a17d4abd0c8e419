%% erlang:trace_info/2 for processes and new/new_processes/new_ports, erlang:process_info(P,
%% trace) (erl's flag bits), erlang:trace/3's answers and refusals, and trace_delivered/1 for
%% a traced, an untraced and a dead process, all, and a bad argument.
-module(trace_proc_info).
-export([main/0]).
-include("trace_proc_util.hrl").

result(F) ->
    try F() of V -> norm(V) catch C:R -> {C, R} end.

flag_names() ->
    [send, 'receive', procs, call, silent, return_to, running, exiting, garbage_collection,
     timestamp, monotonic_timestamp, strict_monotonic_timestamp, arity, set_on_spawn,
     set_on_first_spawn, set_on_link, set_on_first_link, ports, running_ports, running_procs,
     scheduler_id].

main() ->
    A = start_agent(),
    Dead = spawn(fun() -> ok end),
    Md = monitor(process, Dead),
    receive {'DOWN', Md, _, _, _} -> ok end,
    name([{self(), main}, {A, a}, {Dead, dead}]),
    Items = [flags, tracer, traced, match_spec, meta, meta_match_spec, call_count, call_time, all, bad],
    io:format("untraced: ~p~n", [[{I, result(fun() -> erlang:trace_info(A, I) end)} || I <- Items]]),
    1 = erlang:trace(A, true, [send, procs]),
    io:format("traced: ~p~n", [[{I, result(fun() -> erlang:trace_info(A, I) end)} || I <- Items]]),
    io:format("dead: ~p~n", [[{I, result(fun() -> erlang:trace_info(Dead, I) end)} || I <- Items]]),
    io:format("process_info(A, trace): ~p~n", [process_info(A, trace)]),
    1 = erlang:trace(A, false, [all]),
    io:format("process_info after all off: ~p~n", [process_info(A, trace)]),
    [begin
         1 = erlang:trace(A, true, [F]),
         {trace, Bits} = process_info(A, trace),
         {flags, Fs} = erlang:trace_info(A, flags),
         io:format("~p: bits ~p flags ~p~n", [F, Bits, Fs]),
         1 = erlang:trace(A, false, [all])
     end || F <- flag_names()],
    1 = erlang:trace(A, true, [all]),
    io:format("all: ~p~n", [erlang:trace_info(A, flags)]),
    io:format("all: ~p~n", [process_info(A, trace)]),
    1 = erlang:trace(A, false, [all]),
    %% erl schedules A in to answer process_info: running events, not beamvm's (it reads A
    %% without running it). Dropped.
    collect([A]),
    [io:format("~p ~p: ~p~n", [W, I, result(fun() -> erlang:trace_info(W, I) end)])
     || W <- [new, new_processes, new_ports], I <- [flags, tracer, traced]],
    0 = erlang:trace(new, true, [procs, running, ports]),
    [io:format("after trace(new, ...): ~p ~p~n", [W, erlang:trace_info(W, flags)])
     || W <- [new, new_processes, new_ports]],
    0 = erlang:trace(new, false, [all]),
    io:format("trace(Dead, ...): ~p~n", [result(fun() -> erlang:trace(Dead, true, [send]) end)]),
    io:format("trace(Dead, false, ...): ~p~n", [result(fun() -> erlang:trace(Dead, false, [send]) end)]),
    io:format("trace(A, maybe, ...): ~p~n", [result(fun() -> erlang:trace(A, maybe, [send]) end)]),
    io:format("trace(A, true, [bad]): ~p~n", [result(fun() -> erlang:trace(A, true, [bad]) end)]),
    io:format("trace(A, true, improper): ~p~n", [result(fun() -> erlang:trace(A, true, [send | x]) end)]),
    io:format("trace(bad, true, ...): ~p~n", [result(fun() -> erlang:trace(bad, true, [send]) end)]),
    io:format("trace(A, false, []): ~p~n", [result(fun() -> erlang:trace(A, false, []) end)]),
    io:format("trace(A, true, []): ~p~n", [result(fun() -> erlang:trace(A, true, []) end)]),
    io:format("trace_info(A, flags) then: ~p~n", [erlang:trace_info(A, flags)]),
    %% trace_delivered: always answered by a message, for any pid.
    1 = erlang:trace(A, true, [send]),
    do(A, fun() -> ok end),
    %% Each answer comes after every trace message made before the call.
    [begin
         R = erlang:trace_delivered(W),
         receive {trace_delivered, W, R} -> ok end,
         io:format("trace_delivered(~p) answered~n", [norm(W)])
     end || W <- [A, Dead, self(), all]],
    io:format("the trace message was there first: ~p~n", [norm(flush())]),
    io:format("trace_delivered(bad): ~p~n", [result(fun() -> erlang:trace_delivered(bad) end)]),
    ok.

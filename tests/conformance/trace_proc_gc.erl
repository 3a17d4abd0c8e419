%% erlang:trace/3 `garbage_collection`: gc_major_start/gc_major_end for erlang:garbage_collect/0,
%% minor collections while a process allocates, each event with {wordsize, N} and then the
%% keys of process_info(P, garbage_collection_info), in erl's order. The sizes themselves
%% depend on the heap layout, so only their kind is printed.
-module(trace_proc_gc).
-export([main/0]).
-include("trace_proc_util.hrl").

shape(Info) -> [{K, is_integer(V) andalso V >= 0} || {K, V} <- Info].

main() ->
    A = start_agent(),
    name([{self(), main}, {A, a}]),
    1 = erlang:trace(A, true, [garbage_collection]),
    do(A, fun() -> erlang:garbage_collect() end),
    Major = collect([A]),
    io:format("garbage_collect/0: ~p~n", [[Tag || {trace, _, Tag, _} <- Major]]),
    [{trace, A, gc_major_start, Info} | _] = Major,
    io:format("info: ~p~n", [shape(Info)]),
    {garbage_collection_info, GcInfo} = process_info(A, garbage_collection_info),
    io:format("same keys as process_info: ~p~n", [tl([K || {K, _} <- Info]) =:= [K || {K, _} <- GcInfo]]),
    do(A, fun() -> length(lists:seq(1, 100000)) end),
    Minor = [Tag || {trace, _, Tag, _} <- collect([A])],
    io:format("allocating: minor collections ~p, every start has its end ~p~n",
              [lists:member(gc_minor_start, Minor), paired(Minor)]),
    1 = erlang:trace(A, true, [timestamp]),
    do(A, fun() -> erlang:garbage_collect() end),
    io:format("with timestamp: ~p~n",
              [[{Tag, tuple_size(T)} || {trace_ts, _, Tag, _, T} <- collect([A])]]),
    ok.

paired([S, E | Rest]) ->
    Kind = fun(gc_minor_start) -> minor; (gc_minor_end) -> minor;
              (gc_major_start) -> major; (gc_major_end) -> major end,
    End = fun(gc_minor_end) -> true; (gc_major_end) -> true; (_) -> false end,
    Kind(S) =:= Kind(E) andalso not End(S) andalso End(E) andalso paired(Rest);
paired([]) -> true;
paired(_) -> false.

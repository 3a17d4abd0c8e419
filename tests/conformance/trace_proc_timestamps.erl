%% erlang:trace/3 timestamp flags: trace_ts messages, which timestamp wins when several are
%% set (timestamp, then strict_monotonic_timestamp, then monotonic_timestamp), cpu_timestamp
%% given with `all`, and where the timestamp goes. Values differ run to run: shapes are printed.
-module(trace_proc_timestamps).
-export([main/0]).
-include("trace_proc_util.hrl").

shape({A, B, C}) when is_integer(A), is_integer(B), is_integer(C) -> now_tuple;
shape({A, B}) when is_integer(A), is_integer(B) -> {monotonic, unique};
shape(I) when is_integer(I) -> integer;
shape(Other) -> {unexpected, Other}.

event(Flags) ->
    A = start_agent(),
    name([{self(), main}, {A, a}]),
    1 = erlang:trace(A, true, [procs | Flags]),
    do(A, fun() -> register(trace_proc_timestamps_a, self()) end),
    [Msg] = collect([A]),
    exit(A, kill),
    M = monitor(process, A),
    receive {'DOWN', M, _, _, _} -> ok end,
    collect([]),
    Msg.

show_event(Flags) ->
    Msg = event(Flags),
    Last = element(tuple_size(Msg), Msg),
    %% The fifth element, with scheduler_id, is a scheduler number: which one is not fixed.
    Head = [case I of 5 when is_integer(E) -> scheduler_number; _ -> norm(E) end
            || {I, E} <- lists:enumerate(lists:droplast(tuple_to_list(Msg)))],
    io:format("~p: ~p ~p~n", [Flags, Head, shape(Last)]).

main() ->
    show_event([]),
    show_event([timestamp]),
    show_event([monotonic_timestamp]),
    show_event([strict_monotonic_timestamp]),
    show_event([timestamp, monotonic_timestamp]),
    show_event([timestamp, strict_monotonic_timestamp]),
    show_event([monotonic_timestamp, strict_monotonic_timestamp]),
    show_event([strict_monotonic_timestamp, scheduler_id]),
    %% Strictly monotonic: the pairs of two events are ordered.
    {trace_ts, _, _, _, T1} = event([strict_monotonic_timestamp]),
    {trace_ts, _, _, _, T2} = event([strict_monotonic_timestamp]),
    io:format("strict_monotonic increases: ~p~n", [T1 < T2]),
    io:format("cpu_timestamp without all: ~p~n",
              [catch element(1, catch erlang:trace(self(), true, [cpu_timestamp]))]),
    io:format("cpu_timestamp with all: ~p~n", [erlang:trace(all, true, [cpu_timestamp])]),
    show_event([timestamp]),
    show_event([monotonic_timestamp]),
    io:format("cpu_timestamp off: ~p~n", [erlang:trace(all, false, [cpu_timestamp])]),
    show_event([timestamp]),
    ok.

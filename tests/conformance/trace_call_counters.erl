%% call_count and call_time breakpoints (trace_pattern/3 with call_count, call_time, pause,
%% restart, false) and erlang:trace_info/2 for functions: traced, match_spec, meta,
%% meta_match_spec, call_count, call_time, all. call_time prints only counts (times differ).
-module(trace_call_counters).
-export([main/0, work/1, leaf/1]).

work(0) -> done;
work(N) -> leaf(N), work(N - 1).
leaf(N) -> N.

info(MFA) ->
    [begin
         R = erlang:trace_info(MFA, Item),
         io:format("  ~p ~p~n", [Item, mask(R)])
     end || Item <- [traced, match_spec, meta, meta_match_spec, call_count, call_time, all]].

mask({call_time, L}) when is_list(L) -> {call_time, lists:sort([{pid, C} || {_, C, _, _} <- L])};
mask({all, L}) when is_list(L) -> {all, [mask(I) || I <- L]};
mask({meta, P}) when is_pid(P) -> {meta, pid};
mask(X) -> X.

tp(MFA, MS, Flags) -> io:format("trace_pattern(~p, ~p, ~p) -> ~p~n", [MFA, MS, Flags, erlang:trace_pattern(MFA, MS, Flags)]).

in_traced(Fun) ->
    Self = self(),
    Tracer = spawn(fun() -> receive stop -> ok end end),
    P = spawn(fun() -> receive go -> ok end, Fun(), Self ! done end),
    erlang:trace(P, true, [call, {tracer, Tracer}]),
    P ! go,
    receive done -> ok end,
    Tracer ! stop.

main() ->
    io:format("untraced:~n"), info({?MODULE, work, 1}),
    io:format("missing:~n"), info({?MODULE, nope, 1}),
    tp({?MODULE, '_', '_'}, true, [call_count]),
    work(5),
    io:format("counting:~n"), info({?MODULE, leaf, 1}), info({?MODULE, work, 1}),
    tp({?MODULE, '_', '_'}, pause, [call_count]),
    work(3),
    io:format("paused:~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, '_', '_'}, restart, [call_count]),
    work(2),
    io:format("restarted:~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, '_', '_'}, false, [call_count]),
    io:format("off:~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, leaf, 1}, true, [call_time]),
    in_traced(fun() -> work(4) end),
    io:format("call_time:~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, leaf, 1}, pause, [call_time]),
    in_traced(fun() -> work(4) end),
    io:format("call_time paused:~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, leaf, 1}, restart, [call_time]),
    io:format("call_time restarted:~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, leaf, 1}, false, [call_time]),
    tp({?MODULE, leaf, 1}, [{'_', [], [{return_trace}]}], [local, call_count]),
    io:format("local and call_count:~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, leaf, 1}, [{[1], [], []}], [meta]),
    io:format("meta:~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, leaf, 1}, true, [global]),
    io:format("global (not exported):~n"), info({?MODULE, leaf, 1}),
    tp({?MODULE, leaf, 1}, false, [local, meta, call_count, call_time]),
    io:format("all off:~n"), info({?MODULE, leaf, 1}),
    tp({lists, seq, 2}, true, [call_count]),
    _ = lists:seq(1, 3),
    io:format("other module:~n"), info({lists, seq, 2}),
    tp({lists, seq, 2}, false, [call_count]),
    io:format("bif:~n"), info({erlang, atom_to_list, 1}),
    ok.

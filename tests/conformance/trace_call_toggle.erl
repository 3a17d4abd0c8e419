%% Switching call tracing on and off while other processes run the traced code (on every
%% scheduler): local and global patterns, call_count and return_trace, set and cleared 300
%% times while four workers call the functions; the workers' results must not change, and
%% the VM must not crash. What is printed: the results, a call count set afterwards, and that
%% tracing is off at the end.
-module(trace_call_toggle).
-export([main/0, step/1, leaf/1]).

leaf(X) -> X + 1.
step(X) -> ?MODULE:leaf(X) + leaf(X).

worker(Parent, N) -> Parent ! {self(), loop(N, 0)}.
loop(0, Acc) -> Acc;
loop(N, Acc) -> loop(N - 1, Acc + step(N rem 10)).

main() ->
    Self = self(),
    Sink = spawn(fun Drain() -> receive stop -> ok; _ -> Drain() end end),
    erlang:trace(new_processes, true, [call, return_to, {tracer, Sink}]),
    Workers = [spawn(fun() -> worker(Self, 50000) end) || _ <- lists:seq(1, 4)],
    erlang:trace(new_processes, false, [all]),
    toggle(300),
    Results = [receive {W, R} -> R end || W <- Workers],
    %% The switching took effect: a count set now counts exactly the calls made after it.
    erlang:trace_pattern({?MODULE, leaf, 1}, true, [call_count]),
    [?MODULE:leaf(I) || I <- lists:seq(1, 3)],
    io:format("~p~n", [erlang:trace_info({?MODULE, leaf, 1}, call_count)]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [call_count]),
    io:format("results ~p~n", [Results]),
    io:format("~p~n", [[erlang:trace_info({?MODULE, F, 1}, traced) || F <- [leaf, step]]]),
    Sink ! stop,
    ok.

toggle(0) -> ok;
toggle(N) ->
    Spec = case N rem 3 of 0 -> true; 1 -> [{'_', [], [{return_trace}]}]; 2 -> [{'_', [], [{exception_trace}]}] end,
    Flags = case N rem 4 of 0 -> [local]; 1 -> [global]; 2 -> [call_count]; 3 -> [local, call_count] end,
    Pattern = case Flags of [call_count] -> true; _ -> Spec end,
    erlang:trace_pattern({?MODULE, leaf, 1}, Pattern, Flags),
    erlang:trace_pattern({?MODULE, step, 1}, Pattern, Flags),
    erlang:yield(),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, Flags),
    toggle(N - 1).

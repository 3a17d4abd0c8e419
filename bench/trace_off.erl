%% Tracing costs nothing where it is off (issue 12): fib and ping-pong timed in a VM where no
%% process or function is traced (`none`) and in one where another process is traced for every
%% process event and trace patterns are set on other modules (`elsewhere`). Neither the timed
%% processes nor the functions they call are traced. bench/trace_off.sh compares the two.
-module(trace_off).
-export([main/0, quick/0, none/0, elsewhere/0, main/1]).

%% bench/run.sh compares output: main/0 and quick/0 print only the checksum.
main() -> setup(elsewhere), erlang:display({trace_off, fib(37) + pingpong(2000000)}).
quick() -> setup(elsewhere), erlang:display({trace_off, fib(24) + pingpong(10000)}).
none() -> run(none, 34, 1000000).
elsewhere() -> run(elsewhere, 34, 1000000).

run(Mode, FibN, Msgs) ->
    setup(Mode),
    {FibUs, F} = timer:tc(fun() -> fib(FibN) end),
    {PingUs, S} = timer:tc(fun() -> pingpong(Msgs) end),
    io:format("~p fib_ms ~p pingpong_ms ~p check ~p~n", [Mode, FibUs div 1000, PingUs div 1000, F + S]).

%% bench/trace_off_counts.sh (callgrind, quick start-up):
%% `beamvm trace_off.beam fib|pingpong none|lists|proc N`.
main([Work, Mode, N]) ->
    case Mode of
        "none" -> ok;
        "lists" -> erlang:trace_pattern({lists, '_', '_'}, true, [local]);
        "proc" -> trace_idle_process()
    end,
    Count = list_to_integer(N),
    erlang:display(case Work of "fib" -> fib(Count); "pingpong" -> pingpong(Count) end).

setup(none) -> ok;
setup(elsewhere) ->
    trace_idle_process(),
    erlang:trace_pattern({lists, '_', '_'}, true, [local]),
    erlang:trace_pattern({dict, '_', '_'}, [{'_', [], [{return_trace}]}], [global]),
    erlang:trace_pattern({queue, '_', '_'}, true, [call_count]),
    ok.

trace_idle_process() ->
    Sink = spawn(fun Loop() -> receive _ -> Loop() end end),
    Idle = spawn(fun() -> receive stop -> ok end end),
    erlang:trace(Idle, true, [call, send, 'receive', procs, running, garbage_collection, {tracer, Sink}]).

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).

pingpong(M) ->
    Self = self(),
    Pong = spawn(fun() -> pong() end),
    Sum = ping(Pong, M, 0),
    Pong ! {stop, Self},
    receive stopped -> Sum end.

ping(_, 0, Acc) -> Acc;
ping(Pong, N, Acc) ->
    Pong ! {ping, self(), N},
    receive {pong, V} -> ping(Pong, N - 1, Acc + V) end.

pong() ->
    receive
        {ping, From, N} -> From ! {pong, N rem 7}, pong();
        {stop, From} -> From ! stopped
    end.

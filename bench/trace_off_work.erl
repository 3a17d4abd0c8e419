%% The work bench/trace_off_counts.sh counts instructions of under callgrind: fib or
%% ping-pong, after setting up one kind of tracing elsewhere. Started by quick start-up:
%% `beamvm trace_off_work.beam fib|pingpong none|lists|proc N`. main/0 and quick/0 are for
%% bench/run.sh.
-module(trace_off_work).
-export([main/0, quick/0, main/1]).

main() -> erlang:display({trace_off_work, fib(30), pingpong(200000)}).
quick() -> erlang:display({trace_off_work, fib(20), pingpong(2000)}).

main([Work, Mode, N]) ->
    setup(Mode),
    Count = list_to_integer(N),
    erlang:display(case Work of "fib" -> fib(Count); "pingpong" -> pingpong(Count) end).

setup("none") -> ok;
setup("lists") -> erlang:trace_pattern({lists, '_', '_'}, true, [local]);
setup("proc") ->
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

%% Ping-pong: two processes exchange M messages, each waiting for the other's reply. Measures the
%% latency of one send + receive + wake-up, with no parallelism to exploit.
-module(pingpong).
-export([main/0, quick/0]).

main() -> run(2500000).
quick() -> run(20000).

run(M) ->
    Self = self(),
    Pong = spawn(fun() -> pong() end),
    Sum = ping(Pong, M, 0),
    Pong ! {stop, Self},
    receive stopped -> ok end,
    erlang:display({pingpong, M, Sum}).

ping(_, 0, Acc) -> Acc;
ping(Pong, N, Acc) ->
    Pong ! {ping, self(), N},
    receive {pong, V} -> ping(Pong, N - 1, Acc + V) end.

pong() ->
    receive
        {ping, From, N} -> From ! {pong, N rem 7}, pong();
        {stop, From} -> From ! stopped
    end.

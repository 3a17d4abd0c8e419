%% Process ring: N processes, each forwarding a token to the next; the token goes round M times.
%% Measures message send/receive and context switches between many processes.
-module(ring).
-export([main/0, quick/0]).

main() -> run(1000, 4500).
quick() -> run(100, 100).

run(N, M) ->
    Self = self(),
    First = lists:foldl(fun(_, Next) -> spawn(fun() -> node_loop(Next) end) end, Self, lists:seq(1, N - 1)),
    %% main is the Nth node: it injects the token and counts the laps.
    Hops = lap(First, M, 0),
    First ! stop,
    receive stop -> ok end,
    erlang:display({ring, N, M, Hops}).

%% Forwards {token, Hops + 1}; stop travels round once and ends every node.
node_loop(Next) ->
    receive
        {token, H} -> Next ! {token, H + 1}, node_loop(Next);
        stop -> Next ! stop
    end.

lap(_, 0, Hops) -> Hops;
lap(First, M, Hops) ->
    First ! {token, Hops},
    receive {token, H} -> lap(First, M - 1, H + 1) end.

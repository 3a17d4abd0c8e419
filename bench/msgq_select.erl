%% Selective receive over a long message queue: the process holds N messages that no receive
%% matches while it takes M messages sent by another process, in order, each by a receive
%% whose pattern has a bound variable (no receive-marker shortcut applies), so every receive
%% scans the N old messages first.
-module(msgq_select).
-export([main/0, quick/0]).

main() -> run(10000, 20000).
quick() -> run(1000, 200).

run(N, M) ->
    Self = self(),
    [Self ! {old, I} || I <- lists:seq(1, N)],
    spawn_link(fun() -> [Self ! {item, I} || I <- lists:seq(1, M)] end),
    Sum = take(1, M, 0),
    Left = drain(0),
    erlang:display({msgq_select, N, M, Sum, Left}).

take(I, M, Acc) when I > M -> Acc;
take(I, M, Acc) -> receive {item, I} -> take(I + 1, M, Acc + I) end.

drain(N) -> receive {old, _} -> drain(N + 1) after 0 -> N end.

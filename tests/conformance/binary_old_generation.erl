%% Binaries that live long enough to reach a process's old heap, and then die, are freed
%% without waiting for the old heap to fill. A worker keeps a growing structure (so its old
%% heap is large and fills slowly) and streams 64 KB binaries through a short window: each is
%% held across a few collections, promoted, then dropped. 4,000 of them pass (256 MB); the
%% VM's binary memory must stay far below that. erts counts promoted binaries in the old
%% generation's virtual heap (bin_old_vheap) and sweeps the old heap when it fills; without
%% such a count the dead binaries stay referenced from the old heap until its words run out.
-module(binary_old_generation).
-export([main/0]).

-define(BINARIES, 4000).
-define(WINDOW, 6).

main() ->
    Self = self(),
    Before = erlang:memory(binary),
    W = spawn_link(fun() -> Self ! {done, self(), stream(?BINARIES, [], [], 0, 0)} end),
    {Max, Sum} = receive {done, W, R} -> R end,
    io:format("binaries streamed: ~p, checksum ~p~n", [?BINARIES, Sum]),
    io:format("binary memory stayed under 32 MB: ~p~n", [Max - Before < 32 bsl 20]).

%% Keep: the long-lived structure (a list that grows by a tuple per binary). Window: the
%% binaries still held. Max: the largest erlang:memory(binary) seen.
stream(0, Keep, _Window, Max, Sum) ->
    {Max, Sum + length(Keep)};
stream(N, Keep, Window, Max, Sum) ->
    Bin = binary:copy(<<N:32>>, 16384),
    Window1 = lists:sublist([Bin | Window], ?WINDOW),
    Keep1 = [{N, lists:seq(1, 20)} | Keep],
    Max1 = case N rem 100 of 0 -> max(Max, erlang:memory(binary)); _ -> Max end,
    Sum1 = (Sum + binary:at(lists:last(Window1), 3)) rem 1000000007,
    stream(N - 1, Keep1, Window1, Max1, Sum1).

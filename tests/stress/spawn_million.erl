%% Spawns N processes that each wait for one message, messages them all, collects the replies.
%% Prints a checksum on stdout (identical on every VM) and the elapsed milliseconds on stderr.
%% tools/stress.sh runs it on erl (with +P, as erl's default limit is 262,144 processes) and on
%% beamvm, and reports time and peak RSS / N for both.
-module(spawn_million).
-export([main/0, main/1]).

main() -> main(["1000000"]).

main([NStr]) ->
    N = list_to_integer(NStr),
    T0 = erlang:monotonic_time(millisecond),
    Self = self(),
    Pids = [spawn(fun() -> waiter(Self) end) || _ <- lists:seq(1, N)],
    T1 = erlang:monotonic_time(millisecond),
    send_all(Pids, 1),
    Sum = collect(N, 0),
    T2 = erlang:monotonic_time(millisecond),
    erlang:display({spawn_million, N, Sum}),
    %% catch: the breakdown is a bonus; a VM without a standard_error device still passes.
    catch io:format(standard_error, "spawn_million: ~b processes, spawn ~b ms, message+reply ~b ms, total ~b ms~n",
              [N, T1 - T0, T2 - T1, T2 - T0]).

%% Each waiter holds nothing but its parent; it replies with a value derived from the message.
waiter(Parent) ->
    receive I -> Parent ! {reply, I * 2 + 1} end.

send_all([], _) -> ok;
send_all([P | Ps], I) -> P ! I, send_all(Ps, I + 1).

collect(0, Acc) -> Acc;
collect(N, Acc) -> receive {reply, V} -> collect(N - 1, Acc + V) end.

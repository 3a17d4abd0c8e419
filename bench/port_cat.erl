%% Port round trips through /bin/cat: send a 16-byte command, wait for the echo, M times, over
%% one port in {packet, 4} mode (so each reply is one message). Measures the whole path: the
%% port command, the pipe write, cat's read and write, the event loop's read, the message to the
%% owner and its wake-up. Prints round trips per second on stderr (bench/run.sh keeps stdout
%% for the checksum).
-module(port_cat).
-export([main/0, quick/0]).

main() -> run(100000).
quick() -> run(2000).

run(M) ->
    P = open_port({spawn_executable, "/bin/cat"}, [{packet, 4}, binary]),
    T0 = erlang:monotonic_time(microsecond),
    Sum = loop(P, M, 0),
    T1 = erlang:monotonic_time(microsecond),
    port_close(P),
    io:format(standard_error, "port_cat: ~w round trips/s~n", [M * 1000000 div max(1, T1 - T0)]),
    erlang:display({port_cat, M, Sum}).

loop(_, 0, Acc) -> Acc;
loop(P, N, Acc) ->
    port_command(P, <<N:64, 0:64>>),
    receive {P, {data, <<V:64, 0:64>>}} -> loop(P, N - 1, Acc + V rem 7) end.

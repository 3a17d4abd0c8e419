%% Node-to-node benchmarks (issue 25), run by bench/dist_run.sh on two nodes on 127.0.0.1:
%% the sending node calls run/3 with the receiving node's name; the receiving node only runs
%% serve/0. The connection is made and the receiver spawned (spawn/4 on the other node)
%% before the clock starts, so the time is the link's alone, VM start-up excluded.
%%   small     one-way throughput of Count 3-tuples {seq, I, Pad}; the receiver acks every
%%             ?WINDOW messages and the sender keeps at most 2 windows unacknowledged, so
%%             the rate is what the connection carries, not how fast a mailbox grows.
%%             Rate: messages/s.
%%   bin_1mib  the same with Count 1 MiB binaries and a window of 4. Rate: MB/s (10^6 bytes).
%%   rtt       Count ping-pong round trips, one at a time. Rate: microseconds per round trip.
%% Each prints a `check ...` line (what the receiver counted) and a `rate ...` line.
-module(dist_bench).
-export([run/3, serve/0, receiver/2, ponger/0]).

-define(WINDOW, 1000).
-define(BIN_WINDOW, 4).
-define(UP_MS, 30000).
-define(WAIT_MS, 60000).

serve() ->
    %% A node halts after 10 minutes in any case (the script's clean-up aside).
    spawn(fun() -> timer:sleep(600000), erlang:halt(3) end),
    ok.

%% Halts the receiving node at the end; a failure is printed and halts this node with status
%% 1 (not an init crash, which would write erl_crash.dump in the current directory).
run(Server, Bench, Count) ->
    try
        wait_up(Server, erlang:monotonic_time(millisecond) + ?UP_MS),
        bench(Server, Bench, Count)
    catch C:E ->
        io:format("failed: ~0p~n", [{C, E}]),
        erlang:halt(1)
    after
        erpc:cast(Server, erlang, halt, [])
    end.

bench(Server, small, Count) ->
    Make = fun(I) -> {seq, I, <<"pad">>} end,
    one_way(Server, Count div 10, ?WINDOW, Make),  % warm-up
    {Us, Got} = one_way(Server, Count, ?WINDOW, Make),
    io:format("check dist_bench small messages ~p received ~p~n", [Count, Got]),
    io:format("rate ~.1f messages/s~n", [Got / (Us / 1.0e6)]);
bench(Server, bin_1mib, Count) ->
    Bin = binary:copy(<<"0123456789abcdef">>, 65536),
    Make = fun(_) -> Bin end,
    one_way(Server, max(1, Count div 10), ?BIN_WINDOW, Make),
    {Us, Got} = one_way(Server, Count, ?BIN_WINDOW, Make),
    io:format("check dist_bench bin_1mib messages ~p received ~p~n", [Count, Got]),
    io:format("rate ~.1f MB/s~n", [Got * byte_size(Bin) / Us]);
bench(Server, rtt, Count) ->
    P = spawn(Server, ?MODULE, ponger, []),
    ping(P, 100),
    T0 = erlang:monotonic_time(microsecond),
    ping(P, Count),
    T1 = erlang:monotonic_time(microsecond),
    P ! stop,
    io:format("check dist_bench rtt round_trips ~p~n", [Count]),
    io:format("rate ~.2f us/rtt~n", [(T1 - T0) / Count]).

%% {Microseconds, MessagesReceived}: Count messages Make(I) to a receiver on Server, each
%% window acknowledged by the receiver; the time ends with the receiver's count.
one_way(Server, Count, Window, Make) ->
    R = spawn(Server, ?MODULE, receiver, [self(), Window]),
    R ! {warm, self()},
    receive {ready, R} -> ok after ?WAIT_MS -> exit(no_receiver) end,
    T0 = erlang:monotonic_time(microsecond),
    send_loop(R, Make, 1, Count, Window, 0),
    R ! {done, self()},
    Got = receive {received, R, N} -> N after ?WAIT_MS -> exit(no_count) end,
    T1 = erlang:monotonic_time(microsecond),
    {T1 - T0, Got}.

%% Message I goes out once at most two windows before it are unacknowledged.
send_loop(_, _, I, Count, _, _) when I > Count -> ok;
send_loop(R, Make, I, Count, Window, Acked) when I - Acked * Window > 2 * Window ->
    receive {ack, R} -> send_loop(R, Make, I, Count, Window, Acked + 1)
    after ?WAIT_MS -> exit(no_ack)
    end;
send_loop(R, Make, I, Count, Window, Acked) ->
    R ! Make(I),
    send_loop(R, Make, I + 1, Count, Window, Acked).

receiver(From, Window) ->
    receive {warm, From} -> From ! {ready, self()} end,
    receive_loop(From, Window, 0).

%% Every message but the sender's {done, From} is one to count.
receive_loop(From, Window, N) ->
    receive
        {done, From} -> From ! {received, self(), N};
        _ ->
            N1 = N + 1,
            N1 rem Window =:= 0 andalso (From ! {ack, self()}),
            receive_loop(From, Window, N1)
    after ?WAIT_MS -> ok
    end.

ping(_, 0) -> ok;
ping(P, N) ->
    P ! {ping, self()},
    receive pong -> ping(P, N - 1) after ?WAIT_MS -> exit(no_pong) end.

ponger() ->
    receive
        {ping, From} -> From ! pong, ponger();
        stop -> ok
    after ?WAIT_MS -> ok
    end.

wait_up(Node, Deadline) ->
    case net_adm:ping(Node) of
        pong -> ok;
        pang ->
            erlang:monotonic_time(millisecond) < Deadline orelse exit({node_not_up, Node}),
            timer:sleep(100),
            wait_up(Node, Deadline)
    end.

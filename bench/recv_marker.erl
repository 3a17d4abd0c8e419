%% Calls past a long message queue: the process holds 200,000 unrelated messages while it makes
%% gen_server-style calls (monitor, send, receive the reply or DOWN, demonitor with flush) and
%% make_ref calls to an echo server. With receive markers each receive starts after the old
%% messages, so a call costs the same as with an empty queue; without them every call scans
%% the whole queue (and a flush scans it again).
-module(recv_marker).
-export([main/0, quick/0]).

main() -> run(200000, 400000).
quick() -> run(20000, 2000).

run(Queued, Calls) ->
    Srv = spawn_link(fun echo/0),
    [self() ! {old, I} || I <- lists:seq(1, Queued)],
    A = monitor_calls(Srv, Calls, 0),
    B = ref_calls(Srv, Calls, 0),
    Left = drain(0),
    unlink(Srv),
    exit(Srv, kill),
    erlang:display({recv_marker, Queued, Calls, A, B, Left}).

echo() ->
    receive
        {Tag, From, N} -> From ! {Tag, N rem 7}, echo()
    end.

monitor_calls(_, 0, Acc) -> Acc;
monitor_calls(Srv, N, Acc) ->
    Mref = erlang:monitor(process, Srv),
    Srv ! {Mref, self(), N},
    receive
        {Mref, V} ->
            erlang:demonitor(Mref, [flush]),
            monitor_calls(Srv, N - 1, Acc + V);
        {'DOWN', Mref, _, _, Reason} ->
            exit(Reason)
    end.

ref_calls(_, 0, Acc) -> Acc;
ref_calls(Srv, N, Acc) ->
    Ref = make_ref(),
    Srv ! {Ref, self(), N},
    receive {Ref, V} -> ref_calls(Srv, N - 1, Acc + V) end.

drain(N) -> receive {old, _} -> drain(N + 1) after 0 -> N end.

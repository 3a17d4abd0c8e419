%% Sequence-numbered messages between pairs of processes, each pair's two ends placed on
%% different schedulers when there are several. A receiver must see 1, 2, 3, ... with no gap and
%% no repeat; every 100th message carries a 64 KB binary (off-heap, reference-counted). A sender
%% sends 500 and waits for the receiver's acknowledgement, so no queue grows without bound.
-module(soak_msgs).
-export([start/1]).

-define(BATCH, 500).

start(Pairs) ->
    Scheds = erlang:system_info(schedulers_online),
    lists:append([pair(I, Scheds) || I <- lists:seq(1, Pairs)]).

%% The receiver is the sender's: it ends when the sender does.
pair(I, Scheds) ->
    Init = fun() ->
        Sender = self(),
        Receiver = spawn_opt(fun() -> monitor(process, Sender), receiver(0) end,
                             [{scheduler, (2 * I) rem Scheds + 1}]),
        (soak_worker:new())#{to => Receiver, n => 0}
    end,
    [{{sender, I}, soak_worker:start({sender, I}, Init, fun send/1)}].

send(#{to := R, n := N} = S) ->
    [R ! msg(K) || K <- lists:seq(N + 1, N + ?BATCH)],
    Ref = make_ref(),
    R ! {sync, self(), Ref},
    receive
        {Ref, ok, Got} when Got =:= N + ?BATCH -> soak_worker:count(sent, ?BATCH, S#{n := N + ?BATCH});
        {Ref, ok, Got} -> soak_worker:error({receiver_count, N + ?BATCH, Got}, S#{n := N + ?BATCH});
        {Ref, error, What} -> soak_worker:error(What, S#{n := N + ?BATCH})
    after 30000 -> soak_worker:error({no_ack_within_30s, N + ?BATCH}, S#{n := N + ?BATCH})
    end.

msg(K) when K rem 100 =:= 0 -> {seq, K, binary:copy(<<(K rem 256)>>, 65536)};
msg(K) -> {seq, K, K * 3}.

receiver(Last) -> receiver(Last, ok).
receiver(Last, Status) ->
    receive
        {seq, K, Payload} when K =:= Last + 1 ->
            case payload_ok(K, Payload) of
                true -> receiver(K, Status);
                false -> receiver(K, {error, {payload, K}})
            end;
        {seq, K, _} ->
            receiver(K, {error, {out_of_order, Last, K}});
        {sync, From, Ref} ->
            case Status of
                ok -> From ! {Ref, ok, Last};
                {error, What} -> From ! {Ref, error, What}
            end,
            receiver(Last, ok);
        {'DOWN', _, process, _, _} ->
            ok
    end.

payload_ok(K, Bin) when is_binary(Bin) -> byte_size(Bin) =:= 65536 andalso binary:at(Bin, 65535) =:= K rem 256;
payload_ok(K, V) -> V =:= K * 3.

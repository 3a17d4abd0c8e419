%% Signals from one process to another arrive in the order sent, whichever schedulers the two
%% run on and however often the receiver sleeps and is woken: senders interleave messages
%% with links, monitors, demonitors and gen_server-style calls (monitor, send, reply through
%% an alias, demonitor with flush) to receivers that check each sender's sequence numbers.
-module(proc_pair_order).
-export([main/0]).

-define(SENDERS, 6).
-define(MSGS, 5000).

main() ->
    Self = self(),
    Receivers = [spawn(fun() -> receiver(Self, #{}, 0) end) || _ <- [1, 2]],
    Senders = [spawn(fun() -> sender(Receivers, S, 1), Self ! {sent, self()} end) || S <- lists:seq(1, ?SENDERS)],
    [receive {sent, P} -> ok end || P <- Senders],
    [R ! {stop, self()} || R <- Receivers],
    Results = [receive {checked, R, Res} -> Res end || R <- Receivers],
    io:format("~p~n", [Results]).

sender(_, _, N) when N > ?MSGS -> ok;
sender(Receivers, S, N) ->
    R = lists:nth(N rem 2 + 1, Receivers),
    case N rem 50 of
        0 ->
            %% a call as gen_server makes it: the reply comes before the DOWN is looked at
            Mref = erlang:monitor(process, R, [{alias, demonitor}]),
            R ! {call, Mref, S, N},
            receive {Mref, {ok, S, N}} -> ok end,
            erlang:demonitor(Mref, [flush]);
        1 ->
            link(R),
            R ! {seq, S, N},
            unlink(R);
        _ ->
            R ! {seq, S, N}
    end,
    sender(Receivers, S, N + 1).

%% Last sequence number seen per sender; Bad counts any that went backwards.
receiver(Parent, Last, Bad) ->
    receive
        {seq, S, N} -> receiver(Parent, Last#{S => N}, Bad + check(Last, S, N));
        {call, Alias, S, N} ->
            Alias ! {Alias, {ok, S, N}},
            receiver(Parent, Last#{S => N}, Bad + check(Last, S, N));
        {stop, From} -> From ! {checked, self(), {lists:sort(maps:to_list(Last)), Bad}}
    end.

check(Last, S, N) ->
    case maps:get(S, Last, 0) < N of
        true -> 0;
        false -> 1
    end.

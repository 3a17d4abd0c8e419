%% Timers set and cancelled: 40 per step, half erlang:start_timer/3 and half
%% erlang:send_after/3, 0-30 ms; every other one cancelled at once. A timer that
%% erlang:cancel_timer/1 found (it answered the time left) must never fire; every other one must
%% fire exactly once.
-module(soak_timers).
-export([start/0]).

start() ->
    soak_worker:start(timers, fun() -> (soak_worker:new())#{i => 0} end, fun step/1).

step(#{i := I} = S0) ->
    S = S0#{i := I + 1},
    Timers = [set(K, (I * 7 + K * 13) rem 31) || K <- lists:seq(1, 40)],
    Outcome = [{K, cancel(K, Ref)} || {K, Ref} <- Timers],
    Expected = [K || {K, fired} <- Outcome],
    Cancelled = [K || {K, cancelled} <- Outcome],
    S1 = soak_worker:count(set, length(Timers), soak_worker:count(cancelled, length(Cancelled), S)),
    S2 = await(Expected, Timers, S1),
    receive after 35 -> ok end,
    flush(Timers, Cancelled, S2).

set(K, Ms) when K rem 2 =:= 0 -> {K, erlang:start_timer(Ms, self(), {soak_timer, K})};
set(K, Ms) -> {K, erlang:send_after(Ms, self(), {soak_timer, K})}.

cancel(K, Ref) when K rem 2 =:= 1 -> fired_or(erlang:cancel_timer(Ref));
cancel(_, Ref) ->
    case erlang:read_timer(Ref) of
        Left when is_integer(Left), Left >= 0, Left =< 30 -> fired;
        false -> fired
    end.

fired_or(Left) when is_integer(Left) -> cancelled;
fired_or(false) -> fired.

await([], _, S) -> S;
await([K | Ks], Timers, S) ->
    {K, Ref} = lists:keyfind(K, 1, Timers),
    receive
        {timeout, Ref, {soak_timer, K}} -> await(Ks, Timers, soak_worker:count(fired, 1, S));
        {soak_timer, K} -> await(Ks, Timers, soak_worker:count(fired, 1, S))
    after 5000 -> await(Ks, Timers, soak_worker:error({timer_lost, K}, S))
    end.

%% After every expected message came and 35 ms more passed, no timer message is left.
flush(Timers, Cancelled, S) ->
    receive
        {timeout, _, {soak_timer, K}} -> flush(Timers, Cancelled, late(K, Cancelled, S));
        {soak_timer, K} -> flush(Timers, Cancelled, late(K, Cancelled, S))
    after 0 -> S
    end.

late(K, Cancelled, S) ->
    case lists:member(K, Cancelled) of
        true -> soak_worker:error({cancelled_timer_fired, K}, S);
        false -> soak_worker:error({timer_fired_twice, K}, S)
    end.

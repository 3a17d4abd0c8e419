%% Fairness: one endless busy loop per online scheduler, plus a ticker that waits 10 ms 100 times.
%% A preemptive scheduler keeps the ticker within a few ms of its schedule; prints
%% {fairness, ok} when the worst lateness of a tick is under 50 ms, else {fairness, {late, Ms}}.
%% The worst lateness in ms goes to stderr either way.
-module(fairness).
-export([main/0]).

-define(TICKS, 100).
-define(PERIOD, 10).
-define(LIMIT, 50).

main() ->
    Busy = [spawn(fun() -> spin(0) end) || _ <- lists:seq(1, erlang:system_info(schedulers_online))],
    Self = self(),
    Ticker = spawn(fun() -> Self ! {late, self(), tick(?TICKS, erlang:monotonic_time(millisecond), 0)} end),
    Late = receive {late, Ticker, L} -> L end,
    [exit(P, kill) || P <- Busy],
    catch io:format(standard_error, "fairness: ~b busy loops, worst tick lateness ~b ms~n", [length(Busy), Late]),
    erlang:display({fairness, if Late < ?LIMIT -> ok; true -> {late, Late} end}).

%% An endless loop of local calls and arithmetic: it never waits, so only preemption stops it.
spin(N) -> spin((N + 1) band 16#ffffff).

%% Each tick should end PERIOD ms after the previous one; returns the worst overshoot.
tick(0, _, Worst) -> Worst;
tick(N, Prev, Worst) ->
    receive after ?PERIOD -> ok end,
    Now = erlang:monotonic_time(millisecond),
    tick(N - 1, Now, max(Worst, Now - Prev - ?PERIOD)).

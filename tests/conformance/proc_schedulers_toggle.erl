%% Schedulers going offline and online again while processes run, wait and yield: every
%% process, bound to a scheduler (process_flag(scheduler, I)) or not, finishes its work, and
%% the toggling ends with every scheduler online.
-module(proc_schedulers_toggle).
-export([main/0]).

main() ->
    S = erlang:system_info(schedulers),
    Self = self(),
    Toggler = spawn(fun() -> toggle(S, 500), Self ! toggled end),
    Free = [spawn(fun() -> worker(Self) end) || _ <- lists:seq(1, 100)],
    Bound = [spawn(fun() -> process_flag(scheduler, I), erlang:yield(), worker(Self) end)
             || I <- lists:seq(1, S)],
    All = Free ++ Bound,
    [P ! {go, 100} || P <- All],
    Done = [receive {done, P} -> P end || P <- All],
    io:format("every process finished: ~p~n", [Done =:= All]),
    receive toggled -> ok end,
    io:format("all online at the end: ~p~n", [erlang:system_info(schedulers_online) =:= S]),
    exit(Toggler, kill),
    ok.

toggle(S, 0) -> erlang:system_flag(schedulers_online, S);
toggle(S, N) -> erlang:system_flag(schedulers_online, 1 + N rem S), erlang:yield(), toggle(S, N - 1).

worker(Parent) ->
    receive {go, K} -> loop(K), Parent ! {done, self()} end.

loop(0) -> ok;
loop(K) -> _ = lists:seq(1, 200), erlang:yield(), loop(K - 1).

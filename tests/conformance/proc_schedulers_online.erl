%% erlang:system_flag(schedulers_online, N): the answer is the previous number, system_info
%% reports the new one at once, out-of-range values are badarg, and with one scheduler online
%% every process runs on scheduler 1 (AtomVM corpus: test_system_flag, prime_smp).
-module(proc_schedulers_online).
-export([main/0]).

main() ->
    S = erlang:system_info(schedulers),
    io:format("all online at start: ~p~n", [erlang:system_info(schedulers_online) =:= S]),
    io:format("set 1 answers old: ~p~n", [erlang:system_flag(schedulers_online, 1) =:= S]),
    io:format("online now: ~p~n", [erlang:system_info(schedulers_online)]),
    io:format("scheduler ids with one online: ~p~n", [worker_ids(20)]),
    [io:format("bad ~p: ~p~n", [Label, try erlang:system_flag(schedulers_online, V)
                                       catch C:R -> {C, R} end])
     || {Label, V} <- [{zero, 0}, {above, S + 1}, {atom, a}, {float, 1.0}]],
    io:format("online after errors: ~p~n", [erlang:system_info(schedulers_online)]),
    io:format("set back answers: ~p~n", [erlang:system_flag(schedulers_online, S)]),
    io:format("all online again: ~p~n", [erlang:system_info(schedulers_online) =:= S]),
    Ids = worker_ids(20),
    io:format("workers after on valid schedulers: ~p~n",
              [Ids =/= [] andalso lists:all(fun(I) -> I >= 1 andalso I =< S end, Ids)]),
    ok.

%% Each worker does some work, then reports the scheduler it runs on.
worker_ids(N) ->
    Self = self(),
    Pids = [spawn(fun() -> _ = spin(20000, 0), Self ! {self(), erlang:system_info(scheduler_id)} end)
            || _ <- lists:seq(1, N)],
    lists:usort([receive {P, Id} -> Id end || P <- Pids]).

spin(0, Acc) -> Acc;
spin(K, Acc) -> spin(K - 1, Acc + K rem 7).

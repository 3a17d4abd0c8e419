%% statistics(reductions) counts the reductions of every process, not the caller's alone,
%% and erts_debug:get_internal_state(nbalance) (erts' count of run-queue balance checks)
%% advances while processes work: scheduler_SUITE waits for both (wait_reds, wait_balance),
%% and crashed, leaving its max-priority workers running and the VM starved, without them.
-module(stats_total_reductions).
-export([main/0]).

spin(0) -> ok;
spin(N) -> spin(N - 1).

main() ->
    logger:set_primary_config(level, none),
    {Total0, _} = statistics(reductions),
    {_, Mine0} = process_info(self(), reductions),
    Self = self(),
    Workers = [spawn(fun() -> spin(2000000), Self ! {self(), done} end) || _ <- lists:seq(1, 4)],
    [receive {W, done} -> ok end || W <- Workers],
    {Total1, Since} = statistics(reductions),
    {_, Mine1} = process_info(self(), reductions),
    io:format("total counts the workers' 8,000,000: ~p~n", [Total1 - Total0 >= 8000000]),
    io:format("since-last agrees with the totals: ~p~n", [Since =:= Total1 - Total0]),
    io:format("the caller's own count stays small: ~p~n", [Mine1 - Mine0 < 100000]),
    erts_debug:set_internal_state(available_internal_state, true),
    B0 = erts_debug:get_internal_state(nbalance),
    Busy = [spawn(fun() -> spin(40000000), Self ! {self(), done} end)
            || _ <- lists:seq(1, erlang:system_info(schedulers_online))],
    [receive {W, done} -> ok end || W <- Busy],
    B1 = erts_debug:get_internal_state(nbalance),
    io:format("nbalance is an integer that advanced: ~p~n", [is_integer(B0) andalso B1 > B0]),
    ok.

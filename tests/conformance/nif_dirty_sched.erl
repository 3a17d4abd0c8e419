%% enif_schedule_nif without dirty flags (tests/nif/dirty_nif_test.c): chains of 10,000
%% steps whose arguments (a growing list) survive the collections between steps, and which
%% give other processes their turn (erts ends the time slice at each step, so a step never
%% sees its slice spent unless it spends it whole); enif_consume_timeslice's answers and the
%% reductions it charges. Prints only facts that hold however the steps are spread over time slices.
-module(nif_dirty_sched).
-export([main/0]).
-include("nif_dirty_stubs.hrl").

main() ->
    load_dirty_nif(),
    chains(),
    interleaving(),
    timeslices(),
    ok.

chains() ->
    [begin
         {Spent, Sum, Acc} = chain(N, Percent),
         show({chain, N, Percent}, {Spent, Sum, length(Acc), Sum =:= N * (N + 1) div 2,
                                    lists:sublist(Acc, 3), Acc =:= [{I, "step"} || I <- lists:seq(1, N)]})
     end || {N, Percent} <- [{0, 0}, {1, 0}, {10, 0}, {10000, 0}, {10000, 10}, {1000, 100}]],
    %% The same from many processes at once, with collections forced meanwhile.
    Self = self(),
    Pids = [spawn(fun() -> Self ! {chain, self(), chain(5000, 5)} end) || _ <- lists:seq(1, 8)],
    [erlang:garbage_collect(P) || P <- Pids],
    Rs = [receive {chain, P, {S, Sum, Acc}} -> {S, Sum, length(Acc)} end || P <- Pids],
    show(parallel_chains, lists:usort(Rs)).

%% A chain that spends its slice at every step and a ticker, both on scheduler 1: the chain
%% yields, so the ticker gets turns while it runs.
interleaving() ->
    Self = self(),
    Ticker = spawn_opt(fun() -> count(Self, 0) end, [{scheduler, 1}]),
    spawn_opt(fun() -> Self ! {chained, chain(2000, 100)} end, [{scheduler, 1}]),
    {Spent, _, _} = receive {chained, R} -> R end,
    Ticker ! stop,
    Counted = receive {counted, N} -> N end,
    show(chain_all_spent, Spent),
    show(ticker_ran_meanwhile, Counted > 0).

count(Parent, N) ->
    receive stop -> Parent ! {counted, N}
    after 0 -> erlang:yield(), count(Parent, N + 1)
    end.

timeslices() ->
    %% A fresh slice first: the answers then depend on nothing that ran before.
    erlang:yield(),
    show({timeslice, 10, 12}, timeslice(10, 12)),
    erlang:yield(),
    show({timeslice, 25, 5}, timeslice(25, 5)),
    erlang:yield(),
    show({timeslice, 100, 2}, timeslice(100, 2)),
    erlang:yield(),
    show({timeslice, 0, 3}, timeslice(0, 3)),      % below 1 counts as 1
    erlang:yield(),
    show({timeslice, 150, 2}, timeslice(150, 2)),  % above 100 counts as 100
    show(timeslice_dirty, timeslice_cpu(100)),     % nothing on a dirty scheduler
    %% Charged as reductions of the process: the rest of a fresh slice.
    erlang:yield(),
    {reductions, R0} = process_info(self(), reductions),
    timeslice(100, 1),
    {reductions, R1} = process_info(self(), reductions),
    show(charged_most_of_a_slice, R1 - R0 >= 3500).

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

%% Real workload (issue 29): ETS under concurrent readers and writers. Three public tables:
%%   lookups   set, {read_concurrency, true}, filled before the run and only read;
%%   records   set, {write_concurrency, true}, each writer inserting and reading its own keys;
%%   counters  set, {write_concurrency, true}, {decentralized_counters, true}, every worker
%%             doing ets:update_counter/4 on a few shared keys (increments commute).
%% Workers process disjoint keys or commutative updates, so the final tables, and the checksum
%% taken from them, are the same whatever the interleaving.
-module(real_ets).
-export([main/0, quick/0]).

main() -> run(8, 80000).

quick() -> run(4, 5000).

run(Workers, Ops) ->
    Lookups = ets:new(lookups, [set, public, {read_concurrency, true}]),
    Records = ets:new(records, [set, public, {write_concurrency, true}]),
    Counters = ets:new(counters, [set, public, {write_concurrency, true},
                                  {decentralized_counters, true}]),
    ets:insert(Lookups, [{K, K * K, integer_to_binary(K)} || K <- lists:seq(0, 9999)]),
    Tabs = {Lookups, Records, Counters},
    Self = self(),
    Pids = [spawn_link(fun() -> Self ! {self(), worker(W, Ops, Tabs)} end)
            || W <- lists:seq(1, Workers)],
    Reads = [receive {P, R} -> R end || P <- Pids],
    Counts = lists:sort(ets:tab2list(Counters)),
    RecordSum = ets:foldl(fun({{_W, _I}, V, _}, A) -> A + V end, 0, Records),
    io:format("real_ets: ~p workers x ~p ops: read sum ~p, ~p records (sum ~p), counters ~p~n",
              [Workers, Ops, lists:sum(Reads), ets:info(Records, size), RecordSum,
               erlang:phash2(Counts)]).

%% Each op: two lookups in the read-mostly table, one insert (a fresh key or an overwrite of one
%% of the last 1000 of this worker), one lookup of an own record, one shared counter update.
worker(W, Ops, Tabs) -> worker(W, 0, Ops, Tabs, 0).

worker(_W, Ops, Ops, _Tabs, Acc) -> Acc;
worker(W, I, Ops, {Lookups, Records, Counters} = Tabs, Acc) ->
    K = (I * 7919 + W) rem 10000,
    [{K, Sq, _}] = ets:lookup(Lookups, K),
    V2 = ets:lookup_element(Lookups, (K + 1) rem 10000, 2),
    Key = {W, I rem 1000},
    ets:insert(Records, {Key, I, W}),
    [{Key, I, W}] = ets:lookup(Records, Key),
    ets:update_counter(Counters, I rem 16, {2, W}, {I rem 16, 0}),
    worker(W, I + 1, Ops, Tabs, (Acc + Sq + V2) rem 1000000007).

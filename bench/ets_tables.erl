%% ETS: insert and lookup of N integer keys in a set and an ordered_set, then a select with a
%% match spec over each table. main/0 and quick/0 print a checksum (bench/run.sh compares it
%% across VMs); phases/0 prints each phase's time and the tables' memory (docs/benchmarks.md).
-module(ets_tables).
-export([main/0, quick/0, phases/0]).

lookup(_, 0, Acc) -> Acc;
lookup(T, N, Acc) -> [{_, V, _}] = ets:lookup(T, N), lookup(T, N - 1, Acc + V).

% Keys are spread over the range in a scrambled order, so ordered_set inserts are not sorted.
scramble(N, Size) -> (N * 7919) rem Size + 1.

insert_scrambled(_, 0, _) -> ok;
insert_scrambled(T, N, Size) ->
    K = scramble(N, Size),
    ets:insert(T, {K, K * 2, K rem 10}),
    insert_scrambled(T, N - 1, Size).

spec() -> [{{'$1', '$2', 3}, [{'>', '$1', 10}], ['$2']}].

run(Type, Size) ->
    T = ets:new(bench, [Type, public]),
    T0 = erlang:monotonic_time(microsecond),
    insert_scrambled(T, Size, Size),
    T1 = erlang:monotonic_time(microsecond),
    Sum = lookup(T, Size, 0),
    T2 = erlang:monotonic_time(microsecond),
    Sel = lists:sum(ets:select(T, spec())),
    T3 = erlang:monotonic_time(microsecond),
    Words = ets:info(T, memory),
    Count = ets:info(T, size),
    ets:delete(T),
    {{Type, Count, Sum, Sel}, [{insert_ms, (T1 - T0) div 1000}, {lookup_ms, (T2 - T1) div 1000},
                               {select_ms, (T3 - T2) div 1000}, {memory_words, Words}]}.

bench(Size) ->
    R = [element(1, run(Type, Size)) || Type <- [set, ordered_set]],
    erlang:display({ets_tables, Size, R}).

main() -> bench(1000000).
quick() -> bench(50000).

phases() ->
    [io:format("~p ~p~n", [Type, element(2, run(Type, 1000000))]) || Type <- [set, ordered_set]],
    ok.

%% ETS tables created, filled, queried and dropped: every table type with and without
%% concurrency options, and three ends for a table: ets:delete/1, given away to a process
%% that deletes it, or freed with its owner's exit. Sizes are checked after each change.
-module(soak_ets).
-export([start/0]).

-define(N, 400).

start() ->
    soak_worker:start(ets, fun() -> (soak_worker:new())#{i => 0} end, fun step/1).

step(#{i := I} = S0) ->
    S = S0#{i := I + 1},
    Type = element(I rem 4 + 1, {set, ordered_set, bag, duplicate_bag}),
    Opts = element(I rem 3 + 1, {[], [{write_concurrency, true}], [{read_concurrency, true}, {decentralized_counters, true}]}),
    Named = I rem 5 =:= 0,
    T = ets:new(soak_ets_table, [Type, public | [named_table || Named] ++ Opts]),
    true = ets:insert(T, [{K, K * 2, <<K:32>>} || K <- lists:seq(1, ?N)]),
    S1 = check(size, ?N, ets:info(T, size), soak_worker:count(tables, 1, S)),
    Deleted = ets:select_delete(T, [{{'$1', '_', '_'}, [{'=:=', {'rem', '$1', 2}, 0}], [true]}]),
    S2 = check(select_delete, ?N div 2, Deleted, S1),
    S3 = check(after_delete, ?N - ?N div 2, ets:info(T, size), S2),
    S4 = check(match, [[14]], ets:match(T, {7, '$1', '_'}), S3),
    S5 = check(lookup, [], ets:lookup(T, 8), S4),
    S6 = check(update_counter, 7 * 2 + 5, counter(Type, T), S5),
    finish(I rem 3, T, S6).

counter(Type, T) when Type =:= set; Type =:= ordered_set -> ets:update_counter(T, 7, {2, 5});
counter(_, T) -> [{7, V, _}] = ets:lookup(T, 7), V + 5.

finish(0, T, S) ->
    true = ets:delete(T),
    soak_worker:count(deleted, 1, S);
finish(1, T, S) ->
    {Heir, Ref} = spawn_monitor(fun() ->
        receive {'ETS-TRANSFER', Tab, _, soak} -> ets:delete(Tab) end
    end),
    true = ets:give_away(T, Heir, soak),
    receive {'DOWN', Ref, process, _, normal} -> soak_worker:count(given_away, 1, S)
    after 10000 -> soak_worker:error(give_away_not_done, S)
    end;
finish(2, T, S) ->
    %% A table of a process that exits is freed with it.
    {Owner, Ref} = spawn_monitor(fun() -> receive {'ETS-TRANSFER', _, _, _} -> ok end end),
    true = ets:give_away(T, Owner, soak),
    receive {'DOWN', Ref, process, _, normal} -> ok after 10000 -> ok end,
    check(freed_with_owner, undefined, ets:info(T, size), soak_worker:count(owner_exited, 1, S)).

check(_, Same, Same, S) -> S;
check(What, Expected, Got, S) -> soak_worker:error({ets, What, expected, Expected, got, Got}, S).

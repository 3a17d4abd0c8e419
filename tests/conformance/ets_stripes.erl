%% ETS tables with write_concurrency under processes that each work on keys of their own and
%% on keys they share, while the table grows from empty (beamvm locks such a set or bag by
%% stripes of buckets: a key's operations take its stripe, a resize or a scan takes them all).
%% Single-key operations (insert, insert_new, update_counter with a default, update_element,
%% take, delete, delete_object, lookup, member) race with multi-object inserts and selects.
%% With read_concurrency alone the table has one lock whose readers count in per-scheduler
%% groups (ets/ets_lock.hpp): the same mix then checks the writers' wait for those groups.
%% Prints only what holds whatever the interleaving: totals of commutative updates, and the
%% contents of the keys each process owned.
-module(ets_stripes).
-export([main/0]).

-define(WORKERS, 6).
-define(OPS, 4000).

main() ->
    [run(Type, Opts) || Type <- [set, bag, duplicate_bag],
                        Opts <- [[{read_concurrency, true}], [{write_concurrency, true}],
                                 [{write_concurrency, true}, {read_concurrency, true}]]],
    run(set, [{write_concurrency, auto}]),
    run(ordered_set, [{write_concurrency, true}]),
    options(),
    ok.

%% What ets:info reports of the concurrency options (as erts: none of them with one scheduler
%% or on a private table; decentralized counters depend on the options' order).
options() ->
    Opts = [[set, {read_concurrency, true}, {write_concurrency, true}],
            [set, {write_concurrency, auto}],
            [ordered_set, {write_concurrency, true}],
            [{write_concurrency, true}, ordered_set],
            [set, {write_concurrency, auto}, {decentralized_counters, false}],
            [ordered_set, {write_concurrency, auto}],
            [bag, {write_concurrency, true}, {decentralized_counters, true}],
            [private, set, {write_concurrency, true}, {read_concurrency, true}],
            [set, {write_concurrency, false}, {decentralized_counters, true}]],
    [begin
         T = ets:new(a, O),
         io:format("~w: ~w~n", [O, [ets:info(T, K) || K <- [read_concurrency, write_concurrency,
                                                             decentralized_counters]]]),
         ets:delete(T)
     end || O <- Opts].

run(Type, Opts) ->
    T = ets:new(stripes, [Type, public | Opts]),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, self(), worker(T, Type, W)} end) || W <- lists:seq(1, ?WORKERS)],
    Results = [receive {done, P, R} -> R end || P <- Pids],
    Shared = case Type of
                 set -> [ets:lookup_element(T, {shared, K}, 2) || K <- lists:seq(0, 9)];
                 ordered_set -> [ets:lookup_element(T, {shared, K}, 2) || K <- lists:seq(0, 9)];
                 _ -> []
             end,
    Own = lists:sort([O || O = {{own, _, _}, _} <- ets:tab2list(T)]),
    io:format("~p ~p: ~p ~p size ~p own ~p ~p~n",
              [Type, Opts, Results, Shared, ets:info(T, size), length(Own), erlang:phash2(Own)]),
    ets:delete(T).

worker(T, Type, W) ->
    worker(T, Type, W, 1, 0).

worker(_, _, _, N, Acc) when N > ?OPS -> Acc;
worker(T, Type, W, N, Acc) ->
    Own = {own, W, N rem 700},
    R = case N rem 9 of
            0 when Type =:= set; Type =:= ordered_set ->
                ets:update_counter(T, {shared, N rem 10}, {2, W}, {{shared, N rem 10}, 0}), 0;
            0 -> ets:insert(T, {{shared, N rem 10}, W}), 0;
            1 -> ets:insert(T, {Own, N}), 1;
            2 -> case ets:insert_new(T, {{own, W, N rem 700 + 1000}, N}) of true -> 1; false -> 0 end;
            3 -> length(ets:lookup(T, Own));
            4 -> case ets:member(T, Own) of true -> 1; false -> 0 end;
            5 -> ets:insert(T, [{{own, W, N rem 50 + 2000}, N}, {{own, W, N rem 50 + 3000}, N}]), 2;
            6 when Type =:= set; Type =:= ordered_set ->
                case ets:update_element(T, Own, {2, -N}) of true -> 1; false -> 0 end;
            6 -> ets:delete_object(T, {Own, N - 5}), 0;
            7 -> length(ets:take(T, {own, W, N rem 700 + 1000}));
            8 when N rem 4 =:= 0 -> ets:select_count(T, [{{{own, W, '_'}, '_'}, [], [true]}]) * 0;
            _ -> ets:delete(T, {own, W, N rem 13 + 2000}), 0
        end,
    worker(T, Type, W, N + 1, Acc + R).

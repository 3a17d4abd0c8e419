%% ets:update_counter/3,4 on the edges of updating small-integer counters in place: a
%% position twice in one list, thresholds with small and big set values, sums that leave the
%% small-integer range (in both directions), big increments, errors after a valid op (the
%% object must be unchanged), the empty op list, the default object, and concurrent updaters
%% whose total must come out exact. Every result and the object after it are printed.
-module(ets_counter_inplace).
-export([main/0]).

-define(SMALL_MAX, 576460752303423487).  % 2^59 - 1: beamvm's largest immediate integer

show(Label, V) -> io:format("~s: ~p~n", [Label, V]).
try_(F) -> try F() catch C:R -> {C, R} end.

main() ->
    [run(Type) || Type <- [set, ordered_set]],
    concurrent(),
    ok.

run(Type) ->
    T = ets:new(t, [Type, public, {write_concurrency, true}]),
    ets:insert(T, {k, 0, 10, -5, x}),
    Step = fun(Label, Op) ->
                   R = try_(Op),
                   show(atom_to_list(Type) ++ " " ++ Label, {R, ets:lookup(T, k)})
           end,
    Step("plain", fun() -> ets:update_counter(T, k, 1) end),
    Step("pos", fun() -> ets:update_counter(T, k, {3, 7}) end),
    Step("list", fun() -> ets:update_counter(T, k, [{2, 1}, {3, -1}, {4, 5}]) end),
    Step("same pos twice", fun() -> ets:update_counter(T, k, [{2, 1}, {2, 10}]) end),
    Step("threshold hit", fun() -> ets:update_counter(T, k, {2, 100, 50, 7}) end),
    Step("threshold miss", fun() -> ets:update_counter(T, k, {2, 1, 50, 0}) end),
    Step("threshold down", fun() -> ets:update_counter(T, k, {4, -10, -3, 99}) end),
    Step("big set value", fun() -> ets:update_counter(T, k, {2, 100, 50, 1 bsl 70}) end),
    Step("from big", fun() -> ets:update_counter(T, k, {2, 1}) end),
    Step("reset", fun() -> ets:update_element(T, k, {2, ?SMALL_MAX}) end),
    Step("past small max", fun() -> ets:update_counter(T, k, {2, 1}) end),
    Step("back to small", fun() -> ets:update_counter(T, k, {2, -2}) end),
    Step("big incr", fun() -> ets:update_counter(T, k, {3, 1 bsl 64}) end),
    Step("neg big incr", fun() -> ets:update_counter(T, k, {3, -(1 bsl 64)}) end),
    Step("valid then keypos", fun() -> ets:update_counter(T, k, [{2, 1}, {1, 1}]) end),
    Step("valid then non-integer", fun() -> ets:update_counter(T, k, [{2, 1}, {5, 1}]) end),
    Step("valid then past arity", fun() -> ets:update_counter(T, k, [{2, 1}, {9, 1}]) end),
    Step("empty list", fun() -> ets:update_counter(T, k, []) end),
    Step("nine ops", fun() -> ets:update_counter(T, k, [{3, 1} || _ <- lists:seq(1, 9)]) end),
    Step("default", fun() -> ets:update_counter(T, d, {2, 5}, {d, 1}) end),
    Step("missing", fun() -> ets:update_counter(T, nokey, 1) end),
    show(atom_to_list(Type) ++ " default object", ets:lookup(T, d)),
    ets:delete(T).

%% Four processes add to one counter and to their own; the totals are exact.
concurrent() ->
    T = ets:new(c, [set, public, {write_concurrency, true}, {read_concurrency, true}]),
    ets:insert(T, [{total, 0} | [{N, 0} || N <- lists:seq(1, 4)]]),
    Self = self(),
    Pids = [spawn(fun() ->
                          [begin ets:update_counter(T, total, 1), ets:update_counter(T, N, [{2, 2}]) end
                           || _ <- lists:seq(1, 20000)],
                          Self ! {done, self()}
                  end) || N <- lists:seq(1, 4)],
    [receive {done, P} -> ok end || P <- Pids],
    show("concurrent", lists:sort(ets:tab2list(T))).

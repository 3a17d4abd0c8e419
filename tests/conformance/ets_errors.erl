%% ETS errors as erl describes them: erl_stdlib_errors:format_error/2 for badarg from ets
%% natives (it asks ets:info/2 about the table to tell which argument was wrong).
-module(ets_errors).
-export([main/0]).

describe(Label, F) ->
    try F() of
        V -> io:format("~s: ok ~p~n", [Label, V])
    catch
        error:R:St ->
            Info = erl_stdlib_errors:format_error(R, St),
            io:format("~s: ~p ~p~n", [Label, R, lists:sort(maps:to_list(Info))])
    end.

main() ->
    T = ets:new(t, [set]),
    O = ets:new(o, [ordered_set, private]),
    B = ets:new(b, [bag]),
    ets:insert(T, {k, 1, a}),
    Gone = ets:new(gone, []),
    ets:delete(Gone),
    describe("lookup gone", fun() -> ets:lookup(Gone, k) end),
    describe("lookup atom", fun() -> ets:lookup(nosuch, k) end),
    describe("insert bad", fun() -> ets:insert(T, [a]) end),
    describe("insert empty", fun() -> ets:insert(T, {}) end),
    describe("lookup_element missing", fun() -> ets:lookup_element(T, zz, 2) end),
    describe("lookup_element pos", fun() -> ets:lookup_element(T, k, 9) end),
    describe("update_counter key", fun() -> ets:update_counter(T, zz, 1) end),
    describe("update_counter bag", fun() -> ets:update_counter(B, k, 1) end),
    describe("update_counter nonint", fun() -> ets:update_counter(T, k, {3, 1}) end),
    describe("update_element pos", fun() -> ets:update_element(T, k, {1, x}) end),
    describe("select bad ms", fun() -> ets:select(T, [{a, b}]) end),
    describe("select bad limit", fun() -> ets:select(T, [{'_', [], ['$_']}], 0) end),
    describe("new bad", fun() -> ets:new(x, [bag, {keypos, 0}]) end),
    describe("new named twice", fun() -> ets:new(x, [named_table]), ets:new(x, [named_table]) end),
    describe("slot bad", fun() -> ets:slot(T, -1) end),
    describe("next missing", fun() -> ets:next(T, zz) end),
    describe("give_away self", fun() -> ets:give_away(T, self(), x) end),
    describe("info bad", fun() -> ets:info(T, bogus) end),
    describe("match bad limit", fun() -> ets:match(T, '_', -1) end),
    describe("delete_object bad", fun() -> ets:delete_object(T, 1) end),
    describe("private other", fun() ->
                                   Self = self(),
                                   spawn(fun() -> Self ! (catch ets:lookup(O, k)) end),
                                   receive {'EXIT', {R, _}} -> R end
                           end),
    describe("rename taken", fun() -> ets:new(y, [named_table]), ets:rename(x, y) end),
    ok.

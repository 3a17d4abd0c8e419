%% persistent_term: get/0,1,2, put/2, erase/1 and info/0 counts, many keys of every type
%% (binaries heap and off-heap, bignums, floats, maps, funs, references), replacement with an
%% equal and a different value, and values read by other processes.
-module(persistent_terms).
-export([main/0]).

main() ->
    %% Printing a map first stores erl_features' persistent terms (erl does it at boot): count after.
    io:format("start ~p~n", [#{a => 1}]),
    Base = maps:get(count, persistent_term:info()),
    Keys = [{?MODULE, I} || I <- lists:seq(1, 500)] ++
           [<<"key">>, binary:copy(<<"k">>, 100), 1 bsl 80, 1.5, #{a => 1}, [1, 2, 3], {?MODULE}],
    [persistent_term:put(K, {value, K}) || K <- Keys],
    io:format("count ~p~n", [maps:get(count, persistent_term:info()) - Base]),
    io:format("all found ~p~n", [lists:all(fun(K) -> persistent_term:get(K) =:= {value, K} end, Keys)]),
    io:format("lookup by equal terms ~p~n",
              [[persistent_term:get(K, none) || K <- [list_to_binary("key"), binary:copy(<<"k">>, 100),
                                                     (1 bsl 80) + 0, #{a => 1}, {?MODULE, 250}]]]),
    io:format("missing ~p ~p~n", [persistent_term:get(nokey, default),
                                   try persistent_term:get(nokey) catch C:E -> {C, E} end]),
    io:format("exact match only ~p~n", [persistent_term:get(1.5 * 1, x) =:= {value, 1.5}]),
    io:format("int vs float key ~p~n", [persistent_term:get({?MODULE, 1.0}, none)]),
    Mine = lists:sort([KV || {{?MODULE, _}, _} = KV <- persistent_term:get()]),
    io:format("get/0 ~p ~p~n", [length(Mine), hd(Mine)]),
    ok = persistent_term:put({?MODULE, 1}, {value, {?MODULE, 1}}),
    ok = persistent_term:put({?MODULE, 2}, changed),
    io:format("replaced ~p ~p~n", [persistent_term:get({?MODULE, 1}), persistent_term:get({?MODULE, 2})]),
    Self = self(),
    spawn(fun() -> Self ! {seen, persistent_term:get({?MODULE, 3}), persistent_term:get(<<"key">>)} end),
    receive {seen, V3, VK} -> io:format("other process ~p ~p~n", [V3, VK]) end,
    F = fun(X) -> X + 1 end,
    persistent_term:put(fun_key, F),
    io:format("fun value ~p~n", [(persistent_term:get(fun_key))(41)]),
    io:format("erase ~p ~p~n", [lists:usort([persistent_term:erase(K) || K <- Keys]), persistent_term:erase(fun_key)]),
    io:format("erase again ~p~n", [persistent_term:erase({?MODULE, 1})]),
    io:format("count after ~p~n", [maps:get(count, persistent_term:info()) - Base]),
    io:format("info keys ~p~n", [lists:sort(maps:keys(persistent_term:info()))]),
    ok.

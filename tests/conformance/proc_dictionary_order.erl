%% process_info(P, dictionary) lists the entries in the same order as P's get/0
%% (test_server matches one against the other before spawning parallel cases).
-module(proc_dictionary_order).
-export([main/0]).

main() ->
    check(empty),
    [put({key, N}, N * N) || N <- lists:seq(1, 40)],
    put(atom_key, value),
    put("string key", <<"binary value">>),
    check(after_puts),
    put({key, 7}, replaced),
    erase({key, 3}),
    check(after_replace_and_erase),
    %% Replacing the newest, the oldest and a middle entry, by immediate and compound keys.
    Olds = [put(K, {new, K}) || K <- ["string key", {key, 1}, {key, 20}, atom_key, {key, 3}]],
    io:format("replaced: ~p~n", [Olds]),
    io:format("after replacing: ~p~n", [[get(K) || K <- ["string key", {key, 1}, {key, 2}, {key, 20}, atom_key, {key, 3}]]]),
    check(after_replacing_ends),
    %% Erasing the newest, the oldest and a middle entry.
    Erased = [erase(K) || K <- ["string key", {key, 1}, {key, 20}, {key, 999}]],
    io:format("erased: ~p, left: ~p~n", [Erased, [get(K) || K <- ["string key", {key, 1}, {key, 2}, {key, 19}, {key, 21}, atom_key]]]),
    check(after_erasing_ends),
    Self = self(),
    Pid = spawn(fun() ->
                        [put(K, K) || K <- [c, a, b, {x, 1}, 2.5]],
                        Self ! {dict, get()},
                        receive stop -> ok end
                end),
    receive {dict, D} -> ok end,
    {dictionary, Other} = process_info(Pid, dictionary),
    io:format("other process: ~p~n", [Other =:= D]),
    io:format("other process sorted: ~w~n", [lists:sort(Other)]),
    Pid ! stop,
    erase(),
    check(after_erase_all).

check(Label) ->
    {dictionary, D} = process_info(self(), dictionary),
    io:format("~p: same order as get/0: ~p, ~p entries, sorted head ~w~n",
              [Label, D =:= get(), length(D), lists:sublist(lists:sort(D), 3)]).

%% Loads hello_nif.so from the directory of this module's .beam file (see README, "NIF libraries").
-module(hello_nif).
-export([greet/1, sum/1, main/0]).
-nifs([greet/1, sum/1]).
-on_load(init/0).

init() ->
    Dir = filename:dirname(code:which(?MODULE)),
    erlang:load_nif(filename:join(Dir, "hello_nif"), 0).

greet(_Name) -> erlang:nif_error(not_loaded).
sum(_List) -> erlang:nif_error(not_loaded).

main() ->
    io:format("~s~n", [greet(<<"beamvm">>)]),
    io:format("~p~n", [sum(lists:seq(1, 100))]),
    io:format("~p~n", [catch sum([1, two])]).

%% A module for `beamvm m.beam Args` (quick_start_compressed.sh): main/1 with the arguments.
-module(quick_main).
-export([main/1]).

main(Args) ->
    io:format("~p ~p~n", [Args, lists:sum([length(A) || A <- Args])]),
    io:format("~p~n", [lists:sort(module_info(exports))]).

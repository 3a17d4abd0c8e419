%% The module of the precompiled (beam) and archive escripts that tools/escript_check.sh builds.
-module(escript_main).
-export([main/1]).

main(Args) ->
    io:format("compiled ~p ~p~n", [Args, lists:reverse(Args)]),
    io:format("script: ~p~n", [filename:basename(escript:script_name())]),
    halt(length(Args)).

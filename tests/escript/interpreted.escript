#!/usr/bin/env escript
%% An interpreted escript (no -mode): records, local functions, and a bad argument.
-record(point, {x = 0, y = 0}).

main([]) ->
    usage();
main(Args) ->
    Ps = [#point{x = list_to_integer(A), y = length(A)} || A <- Args],
    io:format("~p~n", [Ps]),
    io:format("sum ~p~n", [lists:sum([X || #point{x = X} <- Ps])]).

usage() ->
    io:format("usage: interpreted N...~n"),
    halt(1).

%% lists:reverse/2 (bifs/lists.cpp) on lists longer than the heap's free gap, whose cells go partly
%% into the gap and partly into a fragment, with a tail; short improper lists and non-lists raise
%% badarg with the arguments as given. A long improper list is only checked for badarg: erl
%% reverses it in slices, yielding between them, and its error names the rest of the list as it
%% stood at the last slice, where beamvm names the whole list.
-module(lists_reverse_long).
-export([main/0]).
main() ->
    L = lists:seq(1, 1000000),
    R = lists:reverse(L, [tail]),
    io:format("~p~n", [{length(R), hd(R), lists:last(R), lists:nth(1000000, R)}]),
    io:format("~p~n", [[catch lists:reverse(X, t) || X <- [[], [a], [a | b], a, [a, b | c], "abc"]]]),
    Big = [{I} || I <- lists:seq(1, 300000)],
    io:format("~p~n", [erlang:phash2([lists:reverse(Big) || _ <- lists:seq(1, 5)])]),
    {error, badarg} = try lists:reverse(lists:seq(1, 500000) ++ improper) catch error:E -> {error, E} end,
    ok.

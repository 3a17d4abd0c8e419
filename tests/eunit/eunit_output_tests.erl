%% EUnit suite run on erl and on beamvm by tools/eunit_compare.sh: tests that print.
%% ?debugMsg writes to the console from the test process while EUnit's listener prints its
%% progress from another, so this module runs without [verbose] (where the interleaving of
%% the two would depend on scheduling).
-module(eunit_output_tests).
-include_lib("eunit/include/eunit.hrl").

%% io:format inside a test is captured by EUnit (shown only when the test fails).
output_test() ->
    io:format("captured by eunit~n"),
    ?assertEqual(ok, ok).

debug_msg_test() ->
    ?debugMsg("a debug message"),
    ?debugFmt("formatted: ~p ~s", [{a, 1}, "text"]).

debug_val_test() ->
    X = 7,
    ?assertEqual(49, ?debugVal(X * X)).

debug_here_test() -> ?debugHere.

debug_in_generator_test_() ->
    [?_test(?debugFmt("generated ~w", [N])) || N <- [1, 2]].

%% EUnit suite run on erl and on beamvm by tools/eunit_compare.sh: tests that fail on
%% purpose, so that every failure report format is printed and compared.
-module(eunit_failing_tests).
-include_lib("eunit/include/eunit.hrl").

%% Assertion failures.
equal_fails_test() -> ?assertEqual(3, 1 + 1).
assert_fails_test() -> ?assert(length([a]) =:= 2).
match_fails_test() -> ?assertMatch({ok, _}, list_to_tuple([error, why])).
not_equal_fails_test() -> ?assertNotEqual(same, same).
error_expected_test() -> ?assertError(badarg, ok).
throw_wrong_test() -> ?assertThrow(a, throw(b)).
exit_expected_test() -> ?assertExit(normal, erlang:error(not_exit)).

%% Crashes.
badmatch_test() -> {ok, _} = lookup(missing).
function_clause_test() -> only_atoms(17).
undef_test() -> ?MODULE:no_such_function().
badarith_test() -> 1 + list_to_atom("a").
exit_in_test_test() -> exit({shutdown, fails}).
throw_in_test_test() -> throw(not_caught).

%% A failure after the test printed something: the report shows the output.
output_then_fail_test() ->
    io:format("line one~nline two: ~p~n", [[1, 2]]),
    ?assertEqual(a, b).

%% Generators with failing test objects among passing ones.
mixed_test_() ->
    [?_assertEqual(1, 1),
     ?_assertEqual(1, 2),
     {"titled failure", ?_assertMatch([_], [])},
     ?_assertError(badarith, ok)].

%% A test that times out (kept short). The timeout kills the process that runs the test, so
%% it runs in a process of its own to let the tests after it run.
timeout_fails_test_() ->
    {spawn, {timeout, 0.5, ?_test(receive never -> ok end)}}.

%% A setup that crashes: its tests are cancelled.
failing_setup_test_() ->
    {setup, fun() -> erlang:error(setup_broken) end,
     [?_assert(true), ?_assert(true)]}.

%% A foreach whose setup fails.
failing_foreach_test_() ->
    {foreach, fun() -> throw(no_state) end, [fun(_) -> ?_assert(true) end]}.

%% A spawned test that exits.
spawn_fails_test_() ->
    {spawn, ?_test(exit(self(), kill))}.

%% A generator that crashes. EUnit stops the module's remaining tests there, so it comes last.
bad_generator_test_() -> erlang:error(generator_broken).

lookup(K) -> proplists:get_value(K, [{present, 1}]).
only_atoms(A) when is_atom(A) -> A.

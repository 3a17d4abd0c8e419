%% EUnit suite run on erl and on beamvm by tools/eunit_compare.sh: plain tests and
%% generators with the assertion macros, all passing.
-module(eunit_basic_tests).
-include_lib("eunit/include/eunit.hrl").
-export([helper_passes/0]).

%% Plain test functions.
addition_test() -> ?assertEqual(4, 2 + 2).
list_reverse_test() -> ?assertEqual([3, 2, 1], lists:reverse([1, 2, 3])).
assert_true_test() -> ?assert(is_atom(hello)).
assert_not_test() -> ?assertNot(is_integer(hello)).
not_equal_test() -> ?assertNotEqual(1, 1.0 + 0.5).
match_test() -> ?assertMatch({ok, [_ | _]}, {ok, [a, b]}).
not_match_test() -> ?assertNotMatch({error, _}, {ok, 1}).
error_test() -> ?assertError(badarith, 1 / zero()).
throw_test() -> ?assertThrow(oops, throw(oops)).
exit_test() -> ?assertExit(bye, exit(bye)).
exception_test() -> ?assertException(error, {badmatch, _}, begin 1 = one() + 1 end).
bignum_test() -> ?assertEqual(1267650600228229401496703205376, 1 bsl 100).
binary_test() -> ?assertEqual(<<"abc">>, list_to_binary([$a, <<"b">>, "c"])).
map_test() ->
    M = #{a => 1, b => 2},
    ?assertEqual([a, b], lists:sort(maps:keys(M))),
    ?assertMatch(#{a := 1}, M).
string_test() -> ?assertEqual("HELLO", string:uppercase("hello")).
io_lib_test() -> ?assertEqual("x=42", lists:flatten(io_lib:format("x=~p", [42]))).
ets_test() ->
    T = ets:new(t, [set]),
    true = ets:insert(T, [{k1, 1}, {k2, 2}]),
    ?assertEqual([{k2, 2}], ets:lookup(T, k2)),
    ets:delete(T).
process_test() ->
    Self = self(),
    Pid = spawn(fun() -> Self ! {self(), pong} end),
    ?assertEqual(pong, receive {Pid, Msg} -> Msg end).

%% A generator of simple test objects.
simple_test_() ->
    [?_assert(true),
     ?_assertEqual(6, lists:sum([1, 2, 3])),
     ?_assertMatch([_, _], lists:seq(1, 2)),
     ?_assertError(function_clause, lists:nth(0, [])),
     ?_assertThrow({x, 1}, throw({x, 1})),
     ?_assertExit(normal, exit(normal)),
     ?_assertNotEqual(a, b),
     ?_test(?assert(length("abc") =:= 3))].

%% Titled tests and nested lists.
described_test_() ->
    {"described group",
     [{"sorting", ?_assertEqual([1, 2, 3], lists:sort([3, 1, 2]))},
      {"tuple size", ?_assertEqual(3, tuple_size({a, b, c}))},
      [?_assertEqual(<<1, 2>>, <<1:8, 2:8>>),
       {"nested title", ?_assertMatch("ab" ++ _, "abc")}]]}.

%% Generated from data.
table_test_() ->
    [?_assertEqual(N * N, square(N)) || N <- lists:seq(1, 6)].

%% {generator, F} and a module-qualified fun.
generator_test_() ->
    {generator, fun() -> [?_assertEqual(ok, ok), ?_assert(is_list([]))] end}.

mfa_test_() ->
    [{?MODULE, helper_passes}, fun ?MODULE:helper_passes/0].

helper_passes() -> ?assertEqual(2, length([a, b])).

square(N) -> N * N.
zero() -> 0.
one() -> 1.

%% EUnit suite run on erl and on beamvm by tools/eunit_compare.sh: fixtures, spawned and
%% parallel tests, timeouts and tests that print; all passing.
-module(eunit_fixture_tests).
-include_lib("eunit/include/eunit.hrl").

%% setup: one state for all the instantiated tests.
setup_test_() ->
    {setup,
     fun() -> ets:new(fixture_table, [public, set]) end,
     fun(T) -> ets:delete(T) end,
     fun(T) ->
             [?_assert(ets:insert(T, {a, 1})),
              ?_assertEqual([{a, 1}], ets:lookup(T, a)),
              ?_assertEqual(1, ets:info(T, size))]
     end}.

%% foreach: a fresh state per test.
foreach_test_() ->
    {foreach,
     fun() -> spawn(fun() -> receive stop -> ok end end) end,
     fun(Pid) -> Pid ! stop end,
     [fun(Pid) -> ?_assert(is_process_alive(Pid)) end,
      fun(Pid) -> ?_assert(is_pid(Pid)) end,
      fun(Pid) -> ?_assertNotEqual(self(), Pid) end]}.

%% setup with a title and a plain instantiator of one test.
titled_setup_test_() ->
    {"titled setup",
     {setup, fun() -> 21 end, fun(N) -> ?_assertEqual(42, 2 * N) end}}.

%% Tests run in parallel; the report keeps the order of the tree.
parallel_test_() ->
    {inparallel,
     [?_assertEqual(I + 1, succ(I)) || I <- lists:seq(1, 5)]}.

parallel_limited_test_() ->
    {inparallel, 2,
     [?_test(timer:sleep(1)), ?_test(timer:sleep(2)), ?_assert(true)]}.

%% A generous timeout that the test never comes near.
timeout_test_() ->
    {timeout, 60, ?_test(timer:sleep(10))}.

%% Tests in a process of their own.
spawn_test_() ->
    {spawn,
     [?_assertEqual(undefined, get(spawn_key)),
      ?_test(begin put(spawn_key, 1), ?assertEqual(1, get(spawn_key)) end)]}.

spawn_node_local_test_() ->
    {spawn, {"in a spawned process", ?_assertNotEqual(self(), whereis(init))}}.

%% inorder and setup nested.
inorder_test_() ->
    {inorder,
     {setup, fun() -> put(order, []) end,
      [?_test(put(order, [one])), ?_test(?assertEqual(undefined, erase(unused)))]}}.

succ(I) -> I + 1.

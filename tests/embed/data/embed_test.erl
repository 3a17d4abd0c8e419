%% Erlang side of the embedding API tests (tests/embed/embed_api.cpp).
-module(embed_test).
-export([echo_loop/0, add/2, host_add/2, host_fail/1, host_crash/0, host_notify/0, host_spin/1,
         print/1, crash/1, make_refs/0]).

echo_loop() ->
    receive
        {From, Msg} ->
            From ! {echo, Msg},
            echo_loop();
        stop ->
            ok
    end.

add(A, B) -> A + B.

host_add(A, B) -> host_math:add(A, B).

host_fail(X) ->
    try host_math:fail(X) of
        V -> {returned, V}
    catch
        error:R -> {caught, R}
    end.

host_crash() ->
    try host_math:crash() of
        V -> {returned, V}
    catch
        error:R -> {caught, R}
    end.

%% host_math:notify/0 sends {from_host, Self} to the caller.
host_notify() ->
    ok = host_math:notify(),
    receive
        {from_host, Pid} -> Pid =:= self()
    after 5000 ->
        timeout
    end.

%% The dirty host function, N times from N processes at once.
host_spin(N) ->
    Self = self(),
    [spawn(fun() -> Self ! {spun, host_math:slow(K)} end) || K <- lists:seq(1, N)],
    lists:sort([receive {spun, V} -> V end || _ <- lists:seq(1, N)]).

print(X) ->
    io:format("printed ~p~n", [X]),
    io:format(standard_error, "to stderr~n", []),
    erlang:display(X),
    ok.

crash(Reason) -> exit(Reason).

make_refs() -> {self(), make_ref(), fun lists:sum/1, fun(X) -> X end, hd(erlang:ports() ++ [none])}.

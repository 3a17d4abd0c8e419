%% erlang:hibernate/3 shrinks the heap to what is live (at most erts_debug:size of the
%% arguments plus a few words), the process stays waiting in erlang:hibernate/3, wakes on a
%% message and grows again; more arguments than the registers hold are a system_limit.
-module(proc_hibernate_heap).
-export([main/0, sleeper/1]).

sleeper(State) ->
    receive
        {get, From} ->
            From ! {state, State},
            erlang:hibernate(?MODULE, sleeper, [State]);
        {grow, From} ->
            Big = lists:seq(1, 5000),
            From ! {grown, length(Big)},
            erlang:hibernate(?MODULE, sleeper, [{State, length(Big)}])
    end.

wait_hibernating(P) ->
    case process_info(P, current_function) of
        {current_function, {erlang, hibernate, 3}} -> ok;
        _ -> erlang:yield(), wait_hibernating(P)
    end.

main() ->
    State = {self(), make_ref(), [a, b, c]},
    P = spawn(fun() -> erlang:hibernate(?MODULE, sleeper, [State]) end),
    lists:foldl(
      fun(N, Cur) ->
              wait_hibernating(P),
              {heap_size, H} = process_info(P, heap_size),
              Max = erts_debug:size([Cur]) + 8,
              io:format("round ~p: small heap ~p, status ~p~n",
                        [N, H =< Max, element(2, process_info(P, status))]),
              P ! {grow, self()},
              receive {grown, L} -> io:format("grown ~p~n", [L]) end,
              {Cur, L}
      end, State, [1, 2, 3]),
    P ! {get, self()},
    receive {state, S} -> io:format("state kept: ~p~n", [element(3, element(1, element(1, element(1, S))))]) end,
    io:format("~p~n", [element(1, catch erlang:hibernate(x, y, lists:duplicate(5000, a)))]),
    io:format("~p~n", [element(1, element(2, catch erlang:hibernate(x, y, [a | b])))]),
    exit(P, kill),
    ok.

%% process_info(P, current_stacktrace) of the caller and of a waiting process, and the
%% frames of an exception raised deep in a non-tail recursion: as OTP, a return address
%% repeated on the stack is recorded once.
-module(proc_current_stacktrace).
-export([main/0]).

t(Label, F) -> io:format("~p: ~p~n", [Label, try F() catch C:R -> {C, R} end]).

down(0) -> {current_stacktrace, S} = process_info(self(), current_stacktrace), S;
down(N) -> [N | down(N - 1)].

crash(0) -> error(bottom);
crash(N) -> [N | crash(N - 1)].

two(0) -> {current_stacktrace, S} = process_info(self(), current_stacktrace), S;
two(N) when N rem 2 =:= 0 -> [a | two(N - 1)];
two(N) -> [b | two(N - 1)].

waiter() -> receive stop -> ok end.

main() ->
    t(self_shallow, fun() -> down(0) end),
    t(self_recursive, fun() -> down(5) end),
    t(self_alternating, fun() -> two(4) end),
    t(exception_recursive, fun() -> try crash(6) catch error:bottom:St -> St end end),
    t(other_waiting, fun() ->
        P = spawn(fun waiter/0),
        _ = sys_sync(P),
        R = process_info(P, current_stacktrace), P ! stop, R end),
    t(other_in_list, fun() ->
        P = spawn(fun waiter/0),
        _ = sys_sync(P),
        R = process_info(P, [current_function, current_stacktrace]), P ! stop, R end),
    ok.

%% Waits until P has reached its receive: its status is `waiting` then.
sys_sync(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> erlang:yield(), sys_sync(P)
    end.

%% Stack traces record a return address only when it differs from the one just recorded
%% (OTP's gather_stacktrace): body recursion through one call site is one frame, while
%% recursion through two call sites alternates and keeps its frames.
-module(exc_trace_dedup).
-export([main/0]).

id(X) -> X.

down(0) -> erlang:error(bottom);
down(N) -> down(N - 1), id(ok).

two(0) -> erlang:error(bottom);
two(N) when N rem 2 =:= 0 -> two(N - 1), id(even);
two(N) -> two(N - 1), id(odd).

stk([_ | L]) -> stk(L), id(ok);
stk([]) -> tail(id(x)), id(ok).

tail(X) -> erlang:error(oops, [X]).

main() ->
    [erlang:display({N, catch down(N)}) || N <- [0, 1, 3, 20]],
    [erlang:display({two, N, catch two(N)}) || N <- [1, 2, 5]],
    erlang:display(catch stk([a, b, c, d])),
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() -> stk([a, b, c]) end),
    receive {'DOWN', Ref, process, Pid, Why} -> erlang:display(Why) end,
    Self ! done,
    receive done -> ok end.

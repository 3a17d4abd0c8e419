%% A fun called in tail position replaces its caller's frame, as on erl (OTP's loader turns
%% `call_fun`, `deallocate`, `return` into one tail call): stack traces through such calls
%% show the frame the fun returns to, never the caller that jumped to it, and a loop through
%% funs in tail position runs in constant stack.
-module(fun_tail_calls).
-export([main/0, ext_tail/2]).

main() ->
    trace("local fun, tail call", fun() -> via_local(fun crash/1) end),
    trace("fun with captured variables", fun() -> via_closure(7) end),
    trace("fun called in a try (not a tail call)", fun() -> via_try(fun crash/1) end),
    trace("two levels", fun() -> outer(fun crash/1) end),
    trace("external fun, tail call", fun() -> via_local(fun ?MODULE:ext_tail/2) end),
    trace("fun of the wrong arity, tail call", fun() -> via_local(fun(_, _) -> ok end) end),
    trace("not a fun, tail call", fun() -> via_local(not_a_fun) end),
    io:format("loop: ~p~n", [loop(fun step/2, 1000000, 0)]),
    {stack_size, Small} = process_info(self(), stack_size),
    io:format("deep fun loop leaves a small stack: ~p~n", [deep(fun deep_step/2, 100000) < Small + 100]),
    ok.

trace(Label, F) ->
    try F() of
        V -> io:format("~s: returned ~p~n", [Label, V])
    catch
        C:R:St -> io:format("~s: ~p:~p~n  ~p~n", [Label, C, R, strip(St)])
    end.

%% Frames without the error_info detail, which is about the failing call only.
strip(St) -> [{M, F, A, proplists:delete(error_info, I)} || {M, F, A, I} <- St, M =/= erl_eval].

via_local(F) ->
    X = id(1),
    F(X).

via_closure(N) ->
    G = fun(X) -> crash(X + N) end,
    Y = id(2),
    G(Y).

via_try(F) ->
    try F(id(3)) of V -> V after ok end.

outer(F) ->
    Z = id(4),
    middle(F, Z).

middle(F, Z) ->
    H = fun(V) -> F(V + 1) end,
    W = id(Z),
    H(W).

crash(X) -> erlang:error({crash, X}).

ext_tail(_, _) -> ok.

loop(_, 0, Acc) -> Acc;
loop(F, N, Acc) ->
    A = id(Acc),
    F(fun loop/3, {N, A}).

step(Loop, {N, A}) -> Loop(fun step/2, N - 1, A + 1).

deep(_, 0) ->
    {stack_size, S} = process_info(self(), stack_size),
    S;
deep(F, N) ->
    M = id(N),
    F(fun deep/2, M).

deep_step(Deep, N) -> Deep(fun deep_step/2, N - 1).

id(X) -> X.

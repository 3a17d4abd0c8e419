%% A call M:F(...) or apply/2,3 whose module, function or argument list is bad raises badarg
%% from erlang:apply; the applying function stays in the stack trace whether the call is a
%% tail call or not, as erl keeps it (AtomVM corpus: fail_apply_last).
-module(exc_apply_tail_badarg).
-export([main/0, only/2, last/2, body/2, apply3_only/3, apply3_last/3, apply2_last/2, fun_last/1]).

main() ->
    Cases = [{only, [6, bar]}, {only, [?MODULE, 11]}, {last, [6, bar]}, {last, [?MODULE, "f"]},
             {body, [6, bar]}, {apply3_only, [6, bar, []]}, {apply3_last, [6, bar, []]},
             {apply3_only, [?MODULE, only, x]}, {apply3_last, [?MODULE, only, [a | b]]},
             {apply2_last, [fun only/2, x]}, {fun_last, [3]}],
    [show(F, Args) || {F, Args} <- Cases],
    ok.

only(M, F) -> M:F().
last(M, F) -> pad(), M:F().
body(M, F) -> X = M:F(), {X}.
apply3_only(M, F, A) -> apply(M, F, A).
apply3_last(M, F, A) -> pad(), apply(M, F, A).
apply2_last(F, A) -> pad(), apply(F, A).
fun_last(F) -> pad(), F().

pad() -> ok.

show(F, Args) ->
    R = try apply(?MODULE, F, Args) of V -> {returned, V}
        catch C:E:St -> {C, E, [frame(Fr) || Fr <- St, element(1, Fr) =/= init]}
        end,
    io:format("~p ~p: ~p~n", [F, Args, R]).

frame({M, F, A, Loc}) ->
    {M, F, A, [I || {K, _} = I <- Loc, K =/= file]}.

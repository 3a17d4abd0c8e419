%% A traced BIF that raises, caught in the function that called it: erl reports the
%% exception_from of the BIF and then return_to the catching function. The undefined call
%% goes through error_handler:undefined_function/3 and error_handler:crash/1, whose
%% erlang:error(undef) is the traced BIF caught there; then the undef passes the traced
%% function that made the call (exception_from) and is caught by the caller.
-module(trace_call_bif_catch).
-export([main/0, undef/1, id/1, bad_arith/1, catcher/1]).

id(X) -> X.
undef(X) -> ?MODULE:undef(X, X).
bad_arith(X) -> try erlang:error({bad, X}) catch error:{bad, _} -> caught end.
catcher(X) -> catch erlang:throw(X).

main() ->
    Self = self(),
    P = spawn(fun() ->
                      receive go -> ok end,
                      R1 = (catch undef(id(1))),
                      R2 = bad_arith(2),
                      R3 = catcher(3),
                      Self ! {done, [element(1, R1), R2, R3]}
              end),
    1 = erlang:trace(P, true, [call, return_to]),
    Mprog = [{'_', [], [{exception_trace}]}],
    [erlang:trace_pattern({?MODULE, F, 1}, Mprog, [local]) || F <- [id, undef, bad_arith, catcher]],
    [erlang:trace_pattern({erlang, F, A}, Mprog, [local]) || {F, A} <- [{error, 1}, {throw, 1}]],
    P ! go,
    receive {done, Rs} -> io:format("results ~p~n", [Rs]) end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    flush(P),
    erlang:trace_pattern({'_', '_', '_'}, false, [local]),
    ok.

flush(P) ->
    receive
        M when element(1, M) =:= trace, element(2, M) =:= P ->
            io:format("~p~n", [setelement(2, M, traced)]),
            flush(P)
    after 0 -> ok
    end.

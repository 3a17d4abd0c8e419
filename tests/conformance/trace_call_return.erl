%% Call tracing's return_trace, exception_trace and return_to (trace_pattern/3 match-spec
%% actions and the return_to process flag): through body calls, tail calls, catches, try,
%% uncaught exceptions and BIFs. Pids are masked; each case prints the messages in order.
-module(trace_call_return).
-export([main/0, f/1, g/1, h/1, tail/1, loop/1, thrower/1, catcher/1, trier/1, deep/1, bif_user/1,
         crash/1]).

f(X) -> g(X) + 1.
g(X) -> h(X) * 2.
h(X) -> X.
tail(X) -> h(X).
loop(0) -> done;
loop(N) -> loop(N - 1).
thrower(X) -> erlang:error({bad, X}).
catcher(X) -> catch thrower(X).
trier(X) ->
    try deep(X) of
        V -> {value, V}
    catch
        C:R -> {caught, C, R}
    end.
deep(X) -> [deep2(X)].
deep2(X) -> [thrower(X)].
bif_user(X) -> {erlang:phash2(X, 1000), lists:reverse([X, 2])}.
crash(X) -> exit({crash, X}).

%% The traced process waits in this module's untraced wait/0 before it runs Fun.
run(Flags, Fun) ->
    Self = self(),
    P = spawn(fun() -> wait(), Fun(), Self ! {done, self()} end),
    erlang:trace(P, true, Flags),
    P ! go,
    Ref = monitor(process, P),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    collect(P).

wait() -> receive go -> ok end.

collect(P) ->
    receive
        {done, P} -> collect(P);
        M when element(1, M) =:= trace -> [mask(M) | collect(P)]
    after 0 -> []
    end.

mask(M) -> mask_stack(setelement(2, M, pid)).
%% Stack traces in exception values name line numbers: keep only the functions.
mask_stack({trace, pid, What, MFA, V}) -> {trace, pid, What, MFA, strip(V)};
mask_stack(M) -> M.
strip({'EXIT', {R, Stack}}) when is_list(Stack) -> {'EXIT', {R, [{M, F, A} || {M, F, A, _} <- Stack]}};
strip(V) -> V.

pattern(Fs, MS, Flags) ->
    [erlang:trace_pattern({?MODULE, F, A}, MS, Flags) || {F, A} <- Fs].

case_(Name, Flags, Fun) ->
    io:format("~s:~n", [Name]),
    [io:format("  ~p~n", [M]) || M <- run(Flags, Fun)].

main() ->
    Rt = [{'_', [], [{return_trace}]}],
    Ex = [{'_', [], [{exception_trace}]}],
    Fs = [{f, 1}, {g, 1}, {h, 1}, {tail, 1}, {loop, 1}, {thrower, 1}, {catcher, 1}, {trier, 1},
          {deep, 1}, {deep2, 1}, {bif_user, 1}, {crash, 1}],
    io:format("~p~n", [pattern(Fs, Rt, [local])]),
    case_("return body", [call], fun() -> ?MODULE:f(3) end),
    case_("return tail", [call], fun() -> ?MODULE:tail(4) end),
    case_("return loop", [call], fun() -> ?MODULE:loop(3) end),
    case_("return catch", [call], fun() -> ?MODULE:catcher(5) end),
    case_("return try", [call], fun() -> ?MODULE:trier(6) end),
    case_("return arity", [call, arity], fun() -> ?MODULE:f(3) end),
    io:format("~p~n", [pattern(Fs, Ex, [local])]),
    case_("exception catch", [call], fun() -> ?MODULE:catcher(5) end),
    case_("exception try", [call], fun() -> ?MODULE:trier(6) end),
    case_("exception uncaught", [call], fun() -> ?MODULE:crash(7) end),
    case_("exception value", [call], fun() -> ?MODULE:f(1) end),
    io:format("~p~n", [pattern(Fs, [], [local])]),
    case_("return_to body", [call, return_to], fun() -> ?MODULE:f(3) end),
    case_("return_to tail", [call, return_to], fun() -> ?MODULE:tail(4) end),
    case_("return_to catch", [call, return_to], fun() -> ?MODULE:catcher(5) end),
    case_("return_to try", [call, return_to], fun() -> ?MODULE:trier(6) end),
    io:format("~p~n", [pattern(Fs, Rt, [local])]),
    case_("return_to and return", [call, return_to], fun() -> ?MODULE:f(3) end),
    case_("return_to and return, tail", [call, return_to], fun() -> ?MODULE:tail(2) end),
    io:format("~p~n", [pattern(Fs, Ex, [local])]),
    case_("return_to and exception, try", [call, return_to], fun() -> ?MODULE:trier(6) end),
    io:format("~p~n", [[erlang:trace_pattern(MFA, Rt, [local]) || MFA <- [{erlang, phash2, 2}, {lists, reverse, 1}]]]),
    case_("bifs, return", [call], fun() -> ?MODULE:bif_user(9) end),
    io:format("~p~n", [[erlang:trace_pattern(MFA, Rt, [global]) || MFA <- [{erlang, phash2, 2}, {lists, reverse, 1}]]]),
    case_("bifs global, return", [call], fun() -> ?MODULE:bif_user(9) end),
    io:format("~p~n", [is_integer(erlang:trace_pattern({'_', '_', '_'}, false, [local]))]),
    io:format("~p~n", [erlang:trace_pattern({'_', '_', '_'}, false, [global]) > 0]),
    case_("all off", [call, return_to], fun() -> ?MODULE:f(3) end),
    ok.

%% dbg (OTP's runtime_tools) on top of beamvm's tracing: dbg:tracer/2 with a handler, dbg:p/2
%% with message, process and call flags, dbg:tp/2 and dbg:tpl/2 with match specifications from
%% dbg:fun2ms/1 (shell-less form, through ms_transform), dbg:ctp/ctpl, dbg:stop/0. Every trace
%% message is printed by dbg's own formatter (dbg:dhandler/2) after its pids are named, so
%% the lines do not depend on pid numbers.
-module(trace_dbg_session).
-export([main/0, worker/1, double/1, fact/1]).
-include_lib("stdlib/include/ms_transform.hrl").

double(X) -> 2 * X.
fact(0) -> 1;
fact(N) -> N * fact(N - 1).

worker(Parent) ->
    receive
        {square, X} -> Parent ! {result, ?MODULE:double(X) + fact(3)}, worker(Parent);
        {spawn, Parent2} -> spawn(fun() -> Parent2 ! child_done end), worker(Parent);
        stop -> Parent ! {done, self()}
    end.

main() ->
    Self = self(),
    {ok, Tracer} = dbg:tracer(process, {fun(Msg, N) -> Self ! {traced, Msg}, N + 1 end, 0}),
    io:format("tracer is a pid: ~p~n", [is_pid(Tracer)]),
    W = spawn(?MODULE, worker, [Self]),
    Names = [{W, worker}, {Self, main}],
    show("p m", dbg:p(W, [m])),
    W ! {square, 4},
    receive {result, R1} -> io:format("result ~p~n", [R1]) end,
    show("p c", dbg:p(W, [c])),
    show("tp double", dbg:tp(?MODULE, double, 1, dbg:fun2ms(fun([X]) when X > 2 -> return_trace() end))),
    show("tpl fact", dbg:tpl(?MODULE, fact, '_', [])),
    W ! {square, 5},
    receive {result, R2} -> io:format("result ~p~n", [R2]) end,
    W ! {square, 1},
    receive {result, R3} -> io:format("result ~p~n", [R3]) end,
    show("ctpl fact", dbg:ctpl(?MODULE, fact, '_')),
    show("p p", dbg:p(W, [p])),
    W ! {spawn, Self},
    receive child_done -> ok end,
    W ! stop,
    receive {done, W} -> ok end,
    drain(Names, W),
    show("ctp", dbg:ctp(?MODULE)),
    show("stop", dbg:stop()),
    ok.

show(What, Result) -> io:format("~s: ~p~n", [What, Result]).

%% Prints the trace messages in the order the tracer got them, up to the worker's exit.
drain(Names, W) ->
    receive
        {traced, Msg} ->
            Named = name(Msg, Names),
            dbg:dhandler(Named, standard_io),
            case Msg of
                {trace, W, exit, _} -> ok;
                _ -> drain(Names, W)
            end
    end.

name(T, Names) when is_tuple(T) -> list_to_tuple([name(E, Names) || E <- tuple_to_list(T)]);
name(L, Names) when is_list(L) -> [name(E, Names) || E <- L];
name(P, Names) when is_pid(P) -> proplists:get_value(P, Names, other_pid);
name(X, _) -> X.

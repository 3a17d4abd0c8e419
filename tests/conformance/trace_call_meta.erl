%% Meta tracing (trace_pattern/3 with meta, {meta, Pid}): messages go to the meta tracer with
%% a timestamp whatever the process's trace flags, return_trace and exception_trace with it,
%% and local tracing at the same time. Pids and timestamps are masked.
-module(trace_call_meta).
-export([main/0, f/1, g/1, boom/1]).

f(X) -> g(X) + 1.
g(X) -> X * 2.
boom(X) -> catch error({boom, X}).

collector() ->
    receive
        {get, From} -> From ! {msgs, lists:reverse(get(msgs))};
        M -> put(msgs, [M | case get(msgs) of undefined -> []; L -> L end]), collector()
    end.

msgs(C) ->
    C ! {get, self()},
    receive {msgs, L} -> [mask(M) || M <- L] end.

mask(M) when element(1, M) =:= trace_ts ->
    L = tuple_to_list(M),
    {Ts, Rest} = {lists:last(L), lists:droplast(L)},
    {3, _, _} = {tuple_size(Ts), Ts, ok},
    list_to_tuple([mask_pid(E) || E <- Rest] ++ [ts]);
mask(M) ->
    mask_pid(M).

mask_pid(P) when is_pid(P) -> pid;
mask_pid(L) when is_list(L) -> [mask_pid(E) || E <- L];
mask_pid(T) when is_tuple(T) -> list_to_tuple(mask_pid(tuple_to_list(T)));
mask_pid(X) -> X.

%% Waits for the process to end: its last return_from goes out after it sends `done`.
run(Fun) ->
    Self = self(),
    P = spawn(fun() -> receive go -> ok end, Fun(), Self ! done end),
    Ref = monitor(process, P),
    P ! go,
    receive done -> ok end,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    P.

show(Name, C) ->
    io:format("~s:~n", [Name]),
    [io:format("  ~p~n", [M]) || M <- msgs(C)].

main() ->
    C1 = spawn(fun collector/0),
    io:format("~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, [{'_', [], [{return_trace}]}], [{meta, C1}])]),
    run(fun() -> ?MODULE:f(2) end),
    show("meta return", C1),
    C2 = spawn(fun collector/0),
    io:format("~p~n", [erlang:trace_pattern({?MODULE, boom, 1}, [{'_', [], [{exception_trace}]}], [{meta, C2}])]),
    io:format("~p~n", [erlang:trace_pattern({erlang, error, 1}, [{'_', [], [{exception_trace}]}], [{meta, C2}])]),
    run(fun() -> ?MODULE:boom(3) end),
    show("meta exception", C2),
    io:format("~p~n", [case erlang:trace_info({?MODULE, boom, 1}, meta) of {meta, C2} -> c2; X -> X end]),
    io:format("~p~n", [erlang:trace_info({?MODULE, boom, 1}, meta_match_spec)]),
    C3 = spawn(fun collector/0),
    io:format("~p~n", [erlang:trace_pattern({?MODULE, g, 1}, [{['$1'], [{'>', '$1', 5}], []}], [{meta, C3}])]),
    run(fun() -> ?MODULE:f(2), ?MODULE:f(10) end),
    show("meta guard", C3),
    %% local and meta at once: the process's tracer and the meta tracer each get theirs
    T = spawn(fun collector/0),
    C4 = spawn(fun collector/0),
    io:format("~p~n", [erlang:trace_pattern({?MODULE, g, 1}, true, [local, {meta, C4}])]),
    Self = self(),
    P = spawn(fun() -> receive go -> ok end, ?MODULE:f(1), Self ! done end),
    Ref = monitor(process, P),
    erlang:trace(P, true, [call, {tracer, T}]),
    P ! go,
    receive done -> ok end,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    show("local tracer", T),
    show("meta tracer", C4),
    io:format("~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [meta, local])]),
    io:format("~p~n", [erlang:trace_pattern({erlang, error, 1}, false, [meta])]),
    ok.

%% Hot code loading under load: a reloader compiles and loads a new version of the module
%% soak_hot_target every few milliseconds (after a soft purge of the version before the
%% current one) while callers keep calling it. Each version V answers version() -> V and
%% work(N) -> N * (N + 1) div 2 + V, with a deep recursion through its own code, so callers
%% are often inside the old version when the next one comes. A caller must never see a
%% version go backwards, nor a work/1 answer that is not its version's.
-module(soak_hot).
-export([start/1]).

-define(MOD, soak_hot_target).

start(Callers) ->
    ok = load(1),
    Reloader = soak_worker:start(hot_reload, fun() -> (soak_worker:new())#{version => 1} end,
                                 fun reload/1),
    Cs = [soak_worker:start({hot_caller, I}, fun() -> (soak_worker:new())#{last => 0} end,
                            fun call/1) || I <- lists:seq(1, Callers)],
    [{hot_reload, Reloader} | [{{hot_caller, I}, P} || {I, P} <- lists:zip(lists:seq(1, Callers), Cs)]].

reload(#{version := V} = S) ->
    receive after 5 -> ok end,
    case code:soft_purge(?MOD) of
        true ->
            case load(V + 1) of
                ok -> soak_worker:count(loaded, 1, S#{version := V + 1});
                Error -> soak_worker:error({load, V + 1, Error}, S)
            end;
        false ->
            soak_worker:count(purge_busy, 1, S)
    end.

call(#{last := Last} = S) ->
    V = ?MOD:version(),
    W = ?MOD:work(100),
    S1 = soak_worker:count(calls, 2, S#{last := V}),
    if
        V < Last -> soak_worker:error({version_went_back, Last, V}, S1);
        W - 5050 < V -> soak_worker:error({work_from_older_version, V, W - 5050}, S1);
        true -> S1
    end.

load(V) ->
    Forms = forms(V),
    {ok, ?MOD, Bin} = compile:forms(Forms, [binary, return_errors]),
    case code:load_binary(?MOD, "soak_hot_target.erl", Bin) of
        {module, ?MOD} -> ok;
        Other -> Other
    end.

%% -module(soak_hot_target). -export([version/0, work/1]).
%% version() -> V.   work(N) -> sum(N) + V.   sum(0) -> 0; sum(N) -> N + sum(N - 1).
forms(V) ->
    [{attribute, 1, module, ?MOD},
     {attribute, 2, export, [{version, 0}, {work, 1}]},
     {function, 3, version, 0, [{clause, 3, [], [], [{integer, 3, V}]}]},
     {function, 4, work, 1,
      [{clause, 4, [{var, 4, 'N'}], [],
        [{op, 4, '+', {call, 4, {atom, 4, sum}, [{var, 4, 'N'}]}, {integer, 4, V}}]}]},
     {function, 5, sum, 1,
      [{clause, 5, [{integer, 5, 0}], [], [{integer, 5, 0}]},
       {clause, 6, [{var, 6, 'N'}], [],
        [{op, 6, '+', {var, 6, 'N'}, {call, 6, {atom, 6, sum}, [{op, 6, '-', {var, 6, 'N'}, {integer, 6, 1}}]}}]}]}].

%% The checks of the beamvm-only tests (no erl to compare with: beamvm:* does not exist there).
%% Each check computes a result and compares it with what it must be; one line per check,
%% `ok Name` or `FAIL Name: ...`; the VM exits 1 if any check failed, else 0.
-module(ns_check).
-export([run/1, equal/2, raises/2, in/2, call/4, reply/2]).

run(Checks) ->
    Results = [check(Name, Fun) || {Name, Fun} <- Checks],
    case lists:all(fun(R) -> R end, Results) of
        true -> erlang:halt(0);
        false -> erlang:halt(1)
    end.

check(Name, Fun) ->
    R = try Fun() catch C:E:S -> {crashed, C, E, S} end,
    case R of
        ok -> io:format("ok ~s~n", [Name]), true;
        _ -> io:format("FAIL ~s: ~p~n", [Name, R]), false
    end.

equal(Want, Want) -> ok;
equal(Want, Got) -> {expected, Want, got, Got}.

%% ok if Fun() raises error:Reason.
raises(Reason, Fun) ->
    try Fun() of
        V -> {no_exception, V}
    catch
        error:Reason -> ok;
        C:E -> {raised, C, E}
    end.

%% Runs Fun() in a new process of namespace Ns and returns {ok, Value} or {Class, Reason},
%% once that process has exited (so process counts do not see it).
in(Ns, Fun) ->
    Pid = beamvm:namespace_spawn(Ns, ns_check, reply, [self(), Fun]),
    Ref = erlang:monitor(process, Pid),
    receive
        {Pid, Result} ->
            receive {'DOWN', Ref, process, Pid, _} -> Result end
    after 5000 -> timeout
    end.

%% M:F(Args...) in a new process of Ns.
call(Ns, M, F, Args) -> in(Ns, fun() -> apply(M, F, Args) end).

reply(To, Fun) ->
    To ! {self(), try {ok, Fun()} catch C:E -> {C, E} end}.

%% The parts of beamvm's own API (module `beamvm`) written in Erlang. Every other beamvm:*
%% function is native (bifs/system_namespaces.cpp); semantics in docs/namespaces.md.
-module(beamvm).
-export([namespace_destroy/1]).

%% Kills the processes of Ns (reason `killed`), waits until they have exited, then frees the
%% namespace's code and names. Waiting is done here because a native cannot wait for other
%% processes without blocking the scheduler they may need in order to exit. A process that a
%% dying one spawned meanwhile is caught by the next round, and so is one that has sent its
%% DOWN but is not out of the process table yet.
namespace_destroy(Ns) ->
    Pids = beamvm_internal:namespace_kill(Ns),
    wait_exited(Pids),
    case beamvm_internal:namespace_free(Ns) of
        ok -> ok;
        retry ->
            erlang:yield(),
            namespace_destroy(Ns)
    end.

wait_exited([]) ->
    ok;
wait_exited([Pid | Pids]) ->
    Ref = erlang:monitor(process, Pid),
    receive
        {'DOWN', Ref, process, Pid, _} -> wait_exited(Pids)
    end.

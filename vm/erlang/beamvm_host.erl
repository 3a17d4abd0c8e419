%% The Erlang side of a VM embedded in a host program (include/beamvm/vm.hpp): the processes
%% the host starts to call functions, load modules and make namespaces, and host mailboxes.
%% Each hands its result to the host queue it was started with (beamvm_internal:host_deliver/2,
%% which only that process may use).
-module(beamvm_host).
-export([call/6, worker/4, mailbox/1, load/3]).

%% M:F(A) for the host, in a process of namespace Ns (root: the root), which this one watches:
%% delivers {ok, Result}, {Class, Reason, Stacktrace} (an exit of the process is
%% {exit, Reason, []}), or timeout after Timeout milliseconds (the process is then killed).
call(Queue, Ns, M, F, A, Timeout) ->
    {Pid, Ref} = start_worker(Ns, [self(), M, F, A]),
    Result = receive
                 {Pid, R} ->
                     erlang:demonitor(Ref, [flush]),
                     R;
                 {'DOWN', Ref, process, Pid, Why} ->
                     {exit, Why, []}
             after Timeout ->
                 exit(Pid, kill),
                 timeout
             end,
    beamvm_internal:host_deliver(Queue, Result).

start_worker(root, Args) ->
    spawn_monitor(?MODULE, worker, Args);
start_worker(Ns, Args) ->
    Pid = beamvm:namespace_spawn(Ns, ?MODULE, worker, Args),
    {Pid, erlang:monitor(process, Pid)}.

worker(Parent, M, F, A) ->
    R = try apply(M, F, A) of
            V -> {ok, V}
        catch
            Class:Reason:Stack -> {Class, Reason, Stack}
        end,
    Parent ! {self(), R}.

%% A host mailbox: every message goes to the host.
mailbox(Queue) ->
    receive
        Msg ->
            beamvm_internal:host_deliver(Queue, Msg),
            mailbox(Queue)
    end.

%% Loads a module's bytes into Ns (root: the root), as code:load_binary/3 does: old code left
%% from an earlier load is purged first (killing what still runs it), then the new version is
%% loaded. Run by the host through call/6, so it answers {ok, Mod} or {error, Why}.
load(Ns, Origin, Bin) ->
    case beam_lib:chunks(Bin, []) of
        {ok, {Mod, []}} when Ns =:= root ->
            case code:load_binary(Mod, Origin, Bin) of
                {module, Mod} -> {ok, Mod};
                {error, Why} -> {error, Why}
            end;
        {ok, {Mod, []}} ->
            _ = beamvm:namespace_purge(Ns, Mod),
            case beamvm:namespace_load(Ns, Mod, Bin) of
                {module, Mod} -> {ok, Mod};
                {error, Why} -> {error, Why}
            end;
        {error, beam_lib, Why} ->
            {error, Why}
    end.

%% Every function erlang:module_info(exports) lists has a native or Erlang body: called with
%% arguments it cannot use, none may raise undef from the erlang (or erts_internal) module
%% itself. Prints the offenders; erl prints []. Left out: halt/0, which ends the node, the
%% display functions, which print, and nif_error/1,2, which raise by design.
-module(bif_erlang_exports).
-export([main/0]).

skipped() ->
    [{halt, 0}, {module_info, 0}, {module_info, 1}, {nif_error, 1}, {nif_error, 2},
     {display, 1}, {display_string, 1}, {display_nl, 0}].

not_yet(F) ->
    lists:member(F, [open_port, port_command, port_connect, port_close, port_control, port_call,
                     port_info, trace, trace_pattern, trace_info,
                     trace_delivered, seq_trace, seq_trace_info, seq_trace_print,
                     system_monitor, system_profile]).

main() ->
    Exports = erlang:module_info(exports),
    Probed = [FA || {F, _} = FA <- Exports, not lists:member(FA, skipped()), not not_yet(F)],
    io:format("probed ~p~n", [length(Probed) > 300]),
    io:format("undef ~p~n", [[FA || {F, A} = FA <- Probed, probe(F, A) =:= undef]]).

probe(F, A) ->
    Args = lists:duplicate(A, '$nonsense'),
    Self = self(),
    {Pid, Ref} = spawn_monitor(fun() ->
        R = try apply(erlang, F, Args) of
                _ -> returned
            catch
                error:undef:S ->
                    case lists:member(element(1, hd(S)), [erlang, erts_internal]) of
                        true -> undef;
                        false -> raised
                    end;
                _:_ -> raised
            end,
        Self ! {self(), R}
    end),
    receive
        {Pid, R} -> erlang:demonitor(Ref, [flush]), R;
        {'DOWN', Ref, process, Pid, _} -> died
    after 5000 ->
        exit(Pid, kill),
        erlang:demonitor(Ref, [flush]),
        blocked
    end.

%% The trace/2,3 match-specification action run by a process with no tracer of its own: the
%% tracer is the one named in the flag lists, else the running process's, and without any the
%% target loses every flag (as erts' set_tracee_flags); its value says whether anything changed.
-module(trace_call_ms_trace).
-export([main/0, fn/3]).

fn(_Target, _Off, _On) -> ok.

main() ->
    Self = self(),
    Target = spawn(fun() -> receive stop -> ok end end),
    Sink = spawn(fun Loop() -> receive {results, From} -> From ! {results, []}, Loop(); _ -> Loop() end end),
    erlang:trace_pattern({?MODULE, fn, 3}, [{['$1', '$2', '$3'], [], [{message, {trace, '$1', '$2', '$3'}}]}],
                         [{meta, Sink}]),
    Steps = [{[], [send, 'receive', {tracer, Self}]},
             {[], [send]},
             {[send], [procs]},
             {[procs], []},
             {['receive'], []},
             {[], [send, {tracer, Sink}]},
             {[all], []}],
    Runner = spawn(fun() -> run(Target, Steps, Self) end),
    receive {done, Runner} -> ok end,
    Target ! stop,
    erlang:trace_pattern({?MODULE, fn, 3}, false, [meta]),
    ok.

run(Target, Steps, Parent) ->
    lists:foreach(
      fun({Off, On}) ->
              ?MODULE:fn(Target, Off, On),
              {flags, F} = erlang:trace_info(Target, flags),
              {tracer, T} = erlang:trace_info(Target, tracer),
              Name = case T of Parent -> main; [] -> none; _ -> other end,
              io:format("off ~p on ~p -> flags ~p tracer ~p~n", [strip(Off), strip(On), lists:sort(F), Name])
      end, Steps),
    Parent ! {done, self()}.

strip(L) -> [case X of {tracer, _} -> tracer; _ -> X end || X <- L].

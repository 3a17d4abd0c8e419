%% trace_pattern(send, ...): match specifications over [Receiver, Msg] filter the send events
%% of processes traced for send; message/1 adds its value to the trace message; silent/1 stops
%% the events while a specification is set; false turns send events off, true back on;
%% trace_info(send, match_spec); erl's errors for flags, restart/pause and caller().
-module(trace_send_pattern).
-export([main/0]).

main() ->
    Self = self(),
    Sender = spawn(fun Loop() -> receive {send, To, M} -> To ! M, Loop(); stop -> ok end end),
    1 = erlang:trace(Sender, true, [send]),
    Patterns = [true,
                [{[Self, '_'], [], []}],
                [{['_', keep], [], []}],
                [{['$1', '_'], [{is_atom, '$1'}], []}],
                [{['_', '_'], [], [{message, {self}}]}],
                [{['_', '_'], [], [{message, "text"}]}],
                [{['_', '_'], [], [{message, false}]}],
                false],
    register(trace_send_pattern_receiver, Self),
    lists:foreach(
      fun(Pat) ->
              R = erlang:trace_pattern(send, Pat, []),
              {match_spec, Info} = erlang:trace_info(send, match_spec),
              io:format("pattern ~p -> ~p, info ~p~n", [Pat, R, Info]),
              [begin
                   Sender ! {send, To, M},
                   receive M -> ok end
               end || {To, M} <- [{Self, keep}, {Self, drop}, {trace_send_pattern_receiver, keep}]],
              show(Sender, Self)
      end, Patterns),
    erlang:trace_pattern(send, [{['_', '_'], [], [{silent, true}]}], []),
    Sender ! {send, Self, silenced},
    receive silenced -> ok end,
    io:format("after silent/1: ~p~n", [collect(Sender, Self)]),
    erlang:trace_pattern(send, true, []),
    Sender ! {send, Self, loud},
    receive loud -> ok end,
    io:format("silent flag, pattern true: ~p~n", [collect(Sender, Self)]),
    [io:format("~p ~p: ~p~n", [P, F, catch erlang:trace_pattern(send, P, F)])
     || {P, F} <- [{true, [global]}, {true, [local]}, {true, [call_count]}, {restart, []}, {pause, []},
                   {[{['_', '_'], [], [{caller}]}], []}, {[{['_', '_'], [], [{message, {caller}}]}], []},
                   {[{['_'], [], []}], []}, {[{['_', '_'], [], [{return_trace}]}], []}, {bad, []}]],
    io:format("trace_info(send, traced): ~p~n", [catch erlang:trace_info(send, traced)]),
    erlang:trace_pattern(send, true, []),
    Sender ! stop,
    ok.

show(Sender, Self) ->
    [io:format("  ~p~n", [T]) || T <- collect(Sender, Self)].

%% The trace messages made so far, with pids named.
collect(Sender, Self) ->
    Ref = erlang:trace_delivered(Sender),
    receive {trace_delivered, Sender, Ref} -> ok end,
    flush(Sender, Self).

flush(Sender, Self) ->
    receive
        T when element(1, T) =:= trace ->
            [list_to_tuple([case E of Sender -> sender; Self -> self; _ -> E end || E <- tuple_to_list(T)])
             | flush(Sender, Self)]
    after 0 -> []
    end.

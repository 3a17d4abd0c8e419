%% Match-specification actions of call trace patterns not covered elsewhere: display/1 (erl
%% prints the term on the emulator's standard output, as erlang:display/1), process_dump/0
%% (a binary: erl's is its crash-dump text of the process, so only its type is printed),
%% message/1 of a computed term, and trace/3 on another process.
-module(trace_call_actions).
-export([main/0, shown/1, dumped/1, other/1, target/0]).

shown(X) -> X.
dumped(X) -> X.
other(X) -> X.

target() -> receive {call, F, X, From} -> ?MODULE:F(X), From ! {done, self()}, target(); stop -> ok end.

main() ->
    P = spawn(?MODULE, target, []),
    Q = spawn(?MODULE, target, []),
    1 = erlang:trace(P, true, [call]),
    1 = erlang:trace_pattern({?MODULE, shown, 1}, [{['$1'], [], [{display, {{shown, '$1'}}}]}], [global]),
    1 = erlang:trace_pattern({?MODULE, dumped, 1}, [{'_', [], [{message, {process_dump}}]}], [global]),
    1 = erlang:trace_pattern({?MODULE, other, 1},
                             [{['$1'], [{is_integer, '$1'}], [{message, {{double, {'*', '$1', 2}}}},
                                                              {trace, Q, [], [call]}]}], [global]),
    [call(P, F, X) || {F, X} <- [{shown, 1}, {shown, two}, {dumped, 3}, {other, 4}, {other, five}]],
    call(Q, other, 6),
    io:format("~p~n", [erlang:trace_info(Q, flags)]),
    show(P, Q),
    P ! stop,
    Q ! stop,
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]),
    ok.

%% Has P call ?MODULE:F(X) and waits until it did and its trace messages are here.
call(P, F, X) ->
    P ! {call, F, X, self()},
    receive {done, P} -> ok end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end.

show(P, Q) ->
    receive
        M when element(1, M) =:= trace ->
            Named = [case E of P -> p; Q -> q; B when is_binary(B) -> binary; _ -> E end || E <- tuple_to_list(M)],
            io:format("~p~n", [list_to_tuple(Named)]),
            show(P, Q)
    after 0 -> ok
    end.

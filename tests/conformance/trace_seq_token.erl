%% seq_trace tokens: setting and reading the token's parts, the serial rules as a message goes
%% out and back, print/1,2, and the sequential tracer's messages (pids shown by role).
-module(trace_seq_token).
-export([main/0]).

main() ->
    Tracer = spawn(fun() -> collect([]) end),
    false = seq_trace:set_system_tracer(Tracer),
    show(tracer_is_set, seq_trace:get_system_tracer() =:= Tracer),
    show(system_info, erlang:system_info(sequential_tracer) =:= {sequential_tracer, Tracer}),
    Echo = spawn(fun echo/0),
    Names = [{self(), main}, {Tracer, tracer}, {Echo, echo}],
    show(no_token, seq_trace:get_token()),
    show(no_token_parts, [seq_trace:get_token(X) || X <- [send, 'receive', print, label, serial, timestamp,
                                                           monotonic_timestamp, strict_monotonic_timestamp]]),
    %% Everything below runs with a token: results are kept and shown after it is gone.
    R1 = seq_trace:set_token(label, 17),
    T1 = seq_trace:get_token(),
    R2 = [seq_trace:set_token(F, true) || F <- [send, 'receive', print]],
    R3 = seq_trace:set_token(send, true),
    T2 = seq_trace:get_token(),
    Echo ! {self(), hello},
    receive {Echo, hello} -> ok end,
    T3 = seq_trace:get_token(),
    P1 = seq_trace:print(first),
    P2 = erlang:seq_trace_print(17, second),
    P3 = erlang:seq_trace_print(18, not_this_label),
    P4 = erlang:seq_trace_print(17.0, not_inexact),
    T4 = seq_trace:get_token(),
    S1 = seq_trace:set_token(serial, {100, 200}),
    Echo ! {self(), again},
    receive {Echo, again} -> ok end,
    T5 = seq_trace:get_token(),
    Parts = [seq_trace:get_token(X) || X <- [send, 'receive', print, label, serial, timestamp]],
    F1 = seq_trace:set_token(print, false),
    P5 = erlang:seq_trace_print(not_printed),
    Old = seq_trace:set_token([]),
    show(label_old, R1),
    show(token_after_label, norm(T1, Names)),
    show(flags_old, R2),
    show(send_again, R3),
    show(token_after_flags, norm(T2, Names)),
    show(token_after_echo, norm(T3, Names)),
    show(prints, [P1, P2, P3, P4, P5]),
    show(token_after_prints, norm(T4, Names)),
    show(serial_old, S1),
    show(token_after_serial, norm(T5, Names)),
    show(parts, Parts),
    show(print_old, F1),
    show(old_token, norm(Old, Names)),
    show(token_cleared, seq_trace:get_token()),
    show(print_without_token, erlang:seq_trace_print(nothing)),
    [show(event, norm(E, Names)) || E <- events(Tracer)],
    show(tracer_old, seq_trace:set_system_tracer(false) =:= Tracer),
    show(tracer_none, seq_trace:get_system_tracer()),
    show(process_info, process_info(self(), sequential_trace_token)),
    errors(),
    ok.

errors() ->
    [show(badarg, catch_error(F)) ||
        F <- [fun() -> erlang:seq_trace(foo, true) end,
              fun() -> erlang:seq_trace(send, 1) end,
              fun() -> erlang:seq_trace("send", true) end,
              fun() -> erlang:seq_trace(serial, {1, a}) end,
              fun() -> erlang:seq_trace(serial, {1, 2, 3}) end,
              fun() -> erlang:seq_trace(sequential_trace_token, x) end,
              fun() -> erlang:seq_trace_info(foo) end,
              fun() -> erlang:seq_trace_info(1) end,
              fun() -> erlang:system_flag(sequential_tracer, foo) end,
              fun() -> erlang:system_flag(sequential_tracer, {erl_tracer, foo}) end]],
    ok.

catch_error(F) ->
    try F() of V -> {returned, V} catch C:R -> {C, R} end.

echo() ->
    receive {From, M} -> From ! {self(), M}, echo() end.

collect(Acc) ->
    receive
        {dump, P} -> P ! {events, lists:reverse(Acc)};
        M -> collect([M | Acc])
    end.

events(Tracer) ->
    Tracer ! {dump, self()},
    receive {events, L} -> L end.

norm(T, Names) when is_pid(T) ->
    case lists:keyfind(T, 1, Names) of {_, N} -> N; false -> other_pid end;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(T, _) -> T.

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

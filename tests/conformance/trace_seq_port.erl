%% seq_trace and ports: Port ! {Pid, {command, Data}} by a token holder is counted and reported
%% as sent to the port; the port's answer (from the runtime) leaves the token as it is.
-module(trace_seq_port).
-export([main/0]).

main() ->
    Tracer = spawn(fun() -> collect([]) end),
    seq_trace:set_system_tracer(Tracer),
    Port = open_port({spawn, "cat"}, [binary]),
    seq_trace:set_token(label, port_test),
    [seq_trace:set_token(F, true) || F <- [send, 'receive']],
    Port ! {self(), {command, <<"hi">>}},
    Data = receive {Port, {data, D}} -> D end,
    Token = seq_trace:get_token(),
    seq_trace:set_token([]),
    port_close(Port),
    Tracer ! {dump, self()},
    Events = receive {events, L} -> L end,
    Names = [{self(), main}, {Port, port}],
    show(data, Data),
    show(token, norm(Token, Names)),
    [show(event, norm(E, Names)) || E <- Events],
    seq_trace:set_system_tracer(false),
    ok.

collect(Acc) ->
    receive
        {dump, P} -> P ! {events, lists:reverse(Acc)};
        M -> collect([M | Acc])
    end.

norm(T, Names) when is_pid(T); is_port(T) ->
    case lists:keyfind(T, 1, Names) of {_, N} -> N; false -> other end;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(T, _) -> T.

show(Tag, V) -> io:format("~p: ~p~n", [Tag, V]).

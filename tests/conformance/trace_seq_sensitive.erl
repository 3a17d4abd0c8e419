%% seq_trace and process_flag(sensitive, true): a sensitive process's sends, receives and
%% prints are not reported, but its token still counts and travels with its messages.
-module(trace_seq_sensitive).
-export([main/0]).
main() ->
    T = spawn(fun() -> collect([]) end),
    seq_trace:set_system_tracer(T),
    Me = self(),
    E = spawn(fun() -> process_flag(sensitive, true), receive {P, M} -> P ! {self(), M} end end),
    seq_trace:set_token(label, s), [seq_trace:set_token(F, true) || F <- [send, 'receive', print]],
    E ! {self(), x},
    receive {E, x} -> ok end,
    process_flag(sensitive, true),
    seq_trace:print(hidden),
    self() ! y, receive y -> ok end,
    process_flag(sensitive, false),
    seq_trace:print(shown),
    Tok = seq_trace:get_token(),
    seq_trace:set_token([]),
    T ! {dump, self()},
    receive {events, L} -> io:format("~p~n~p~n", [[norm(X, [{Me, me}, {E, e}]) || X <- L], norm(Tok, [{Me, me}, {E, e}])]) end.
norm(T, Names) when is_pid(T) -> case lists:keyfind(T, 1, Names) of {_, N} -> N; false -> other end;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(T, _) -> T.
collect(Acc) ->
    receive {dump, P} -> P ! {events, lists:reverse(Acc)}; M -> collect([M | Acc]) end.

%% seq_trace and exit signals: a token holder that dies passes its token with its link exit
%% signals, for a normal exit as for a crash, and reports them as sent; exit/2 carries no
%% token, so the trapped EXIT message clears the receiver's token. Events are shown sorted.
-module(trace_seq_exits).
-export([main/0]).

main() ->
    T = spawn(fun() -> collect([]) end),
    seq_trace:set_system_tracer(T),
    Me = self(),
    E = spawn_link(fun() -> receive {P, M} -> P ! {reply, M} end end),
    E2 = spawn_link(fun() -> receive {P, M} -> P ! {reply, M}, exit(bad) end end),
    E3 = spawn(fun() -> receive {P, M} -> P ! {reply, M}, exit(P, by_exit2), receive after infinity -> ok end end end),
    process_flag(trap_exit, true),
    seq_trace:set_token(label, s),
    [seq_trace:set_token(F, true) || F <- [send, 'receive']],
    E ! {self(), x},
    receive {reply, x} -> ok end,
    R1 = receive {'EXIT', E, X1} -> X1 end,
    E2 ! {self(), y},
    receive {reply, y} -> ok end,
    R2 = receive {'EXIT', E2, X2} -> X2 end,
    Tok1 = seq_trace:get_token(),
    E3 ! {self(), z},
    receive {reply, z} -> ok end,
    Tok2 = seq_trace:get_token(),
    R3 = receive {'EXIT', E3, X3} -> X3 end,
    Tok3 = seq_trace:get_token(),
    seq_trace:set_token([]),
    exit(E3, kill),
    T ! {dump, self()},
    Names = [{Me, me}, {E, e}, {E2, e2}, {E3, e3}],
    receive
        {events, L} ->
            %% Sorted: a dying process's exit event and its peer's receive of the message
            %% before it are made by two processes at once.
            [io:format("~p~n", [X]) || X <- lists:sort([norm(X, Names) || X <- L])],
            io:format("~p~n", [norm({R1, R2, R3, Tok1, Tok2, Tok3}, Names)])
    end,
    seq_trace:set_system_tracer(false),
    ok.

norm(T, Names) when is_pid(T) -> case lists:keyfind(T, 1, Names) of {_, N} -> N; false -> other end;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(T, _) -> T.

collect(Acc) ->
    receive {dump, P} -> P ! {events, lists:reverse(Acc)}; M -> collect([M | Acc]) end.

%% seq_trace's passing rules: a message from a process without a token clears the receiver's
%% token, a DOWN message (from the runtime) leaves it, a linked process that dies passes its
%% token with its exit signal, a message to oneself carries it, the token is taken when a
%% receive removes the message (not when it arrives), reset_seq_trace clears every token, and
%% the timestamp flags add a timestamp of their kind.
-module(trace_seq_rules).
-export([main/0]).

main() ->
    Tracer = spawn(fun() -> collect([]) end),
    seq_trace:set_system_tracer(Tracer),
    Me = self(),
    P = spawn(fun() -> receive go -> Me ! plain end, receive go2 -> Me ! plain2 end end),
    erlang:monitor(process, P),
    Names = [{Me, main}, {Tracer, tracer}, {P, p}],
    set([{label, a}, {send, true}, {'receive', true}]),
    P ! go,
    receive plain -> ok end,
    R1 = seq_trace:get_token(),
    seq_trace:set_token(label, b),
    P ! go2,
    seq_trace:set_token([]),
    set([{label, c}, {send, true}, {'receive', true}]),
    receive plain2 -> ok end,
    R2 = seq_trace:get_token(),
    seq_trace:set_token(label, d),
    receive {'DOWN', _, _, _, _} -> ok end,
    R3 = seq_trace:get_token(),
    process_flag(trap_exit, true),
    seq_trace:set_token([]),
    Q = spawn_link(fun() -> receive go -> exit(boom) end end),
    set([{label, e}, {send, true}, {'receive', true}]),
    Q ! go,
    receive {'EXIT', Q, _} -> ok end,
    R4 = seq_trace:get_token(),
    process_flag(trap_exit, false),
    %% A message sent to oneself, and one that arrives while a receive waits for another.
    seq_trace:set_token([]),
    set([{label, f}, {send, true}, {'receive', true}]),
    self() ! x,
    receive x -> ok end,
    R5 = seq_trace:get_token(),
    seq_trace:set_token([]),
    Sender = spawn(fun() -> set([{label, g}, {send, true}]), Me ! tokened, receive after infinity -> ok end end),
    wait_for_message(1),
    R6 = seq_trace:get_token(),
    receive tokened -> ok end,
    R7 = seq_trace:get_token(),
    exit(Sender, kill),
    %% reset_seq_trace: tokens in processes and in queued messages go.
    seq_trace:set_token([]),
    Sender2 = spawn(fun() -> set([{label, h}]), Me ! queued, receive after infinity -> ok end end),
    wait_for_message(1),
    set([{label, i}]),
    true = seq_trace:reset_trace(),
    R8 = seq_trace:get_token(),
    set([{label, j}]),
    receive queued -> ok end,
    R9 = seq_trace:get_token(),
    exit(Sender2, kill),
    %% Timestamps: now wins over the monotonic kinds, strict over plain monotonic.
    seq_trace:set_token([]),
    set([{label, ts}, {send, true}, {timestamp, true}, {monotonic_timestamp, true}]),
    self() ! t1, receive t1 -> ok end,
    seq_trace:set_token(strict_monotonic_timestamp, true),
    self() ! t2, receive t2 -> ok end,
    seq_trace:set_token(timestamp, false),
    self() ! t3, receive t3 -> ok end,
    seq_trace:set_token(strict_monotonic_timestamp, false),
    self() ! t4, receive t4 -> ok end,
    R10 = seq_trace:get_token(),
    seq_trace:set_token([]),
    [show(token, norm(R, Names)) || R <- [R1, R2, R3, R4, R5, R6, R7, R8, R9, R10]],
    [show(event, shape(norm(E, Names))) || E <- events(Tracer)],
    seq_trace:set_system_tracer(false),
    ok.

set(L) -> [seq_trace:set_token(K, V) || {K, V} <- L].

wait_for_message(N) ->
    case process_info(self(), message_queue_len) of
        {_, N} -> ok;
        _ -> receive after 1 -> wait_for_message(N) end
    end.

%% Timestamps shown by kind.
shape({seq_trace, L, I, {A, B, C}}) when is_integer(A), is_integer(B), is_integer(C) -> {seq_trace, L, I, now_ts};
shape({seq_trace, L, I, {M, U}}) when is_integer(M), is_integer(U) -> {seq_trace, L, I, strict_ts};
shape({seq_trace, L, I, M}) when is_integer(M) -> {seq_trace, L, I, monotonic_ts};
shape(E) -> E.

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

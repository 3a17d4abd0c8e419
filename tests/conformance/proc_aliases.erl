%% Process aliases (OTP 24+): alias/0,1, unalias/1, and sending to an alias with !, send/2 and
%% send/3. A message to an active alias reaches its owner; once the alias is deactivated
%% (unalias/1, or the first message through a `reply` alias) messages to it are dropped,
%% including one already on its way. Refs and pids never reach the output: they are compared.
%% Nothing waits on time: a message sent after the one under test (signals from one sender
%% arrive in order) says when to look, and `after 0` then tells whether it came.
-module(proc_aliases).
-export([main/0]).

t(Label, F) -> io:format("~p: ~p~n", [Label, try F() catch C:R -> {C, R} end]).

flush() -> receive X -> [X | flush()] after 0 -> [] end.

%% A helper process sends each message of Msgs to To, then `done` to the caller; the result is
%% what reached the caller's mailbox, in order.
send_from_other(To, Msgs) ->
    Self = self(),
    spawn(fun() -> [To ! M || M <- Msgs], Self ! done end),
    receive done -> ok end,
    flush().

main() ->
    t(alias_is_ref, fun() -> A = alias(), {is_reference(A), unalias(A)} end),
    t(self_send, fun() -> A = alias(), A ! hi, R = flush(), unalias(A), R end),
    t(other_send, fun() -> A = alias(), R = send_from_other(A, [a, b]), unalias(A), R end),
    t(after_unalias, fun() -> A = alias(), true = unalias(A), send_from_other(A, [a, b]) end),
    t(unalias_twice, fun() -> A = alias(), [unalias(A), unalias(A)] end),
    t(unalias_plain_ref, fun() -> unalias(make_ref()) end),
    t(unalias_not_ref, fun() -> unalias(self()) end),
    t(unalias_atom, fun() -> unalias(foo) end),
    t(unalias_others, fun() ->
        Self = self(),
        P = spawn(fun() -> Self ! {alias, alias()}, receive stop -> ok end end),
        A = receive {alias, X} -> X end,
        R = unalias(A), P ! stop, R end),
    t(other_process_alias, fun() ->
        Self = self(),
        P = spawn(fun() -> A = alias(), Self ! {alias, A}, receive M -> Self ! {got, M} end end),
        A = receive {alias, X} -> X end,
        A ! via_alias,
        receive {got, M} -> {M, is_pid(P)} end end),
    t(in_flight_dropped, fun() -> A = alias(), A ! hi, unalias(A), flush() end),
    t(order_alias_then_pid, fun() -> A = alias(), A ! x, self() ! y, A ! z, R = flush(), unalias(A), R end),
    t(reply_alias, fun() -> A = alias([reply]), A ! one, A ! two, R = flush(), {R, unalias(A)} end),
    t(reply_alias_other, fun() -> A = alias([reply]), R = send_from_other(A, [one, two]), {R, unalias(A)} end),
    t(reply_alias_unalias_first, fun() -> A = alias([reply]), true = unalias(A), send_from_other(A, [one]) end),
    t(explicit_alias, fun() -> A = alias([explicit_unalias]), R = send_from_other(A, [one, two]), {R, unalias(A)} end),
    t(last_option_wins, fun() -> A = alias([reply, explicit_unalias]), R = send_from_other(A, [one, two]), {R, unalias(A)} end),
    t(last_option_wins2, fun() -> A = alias([explicit_unalias, reply]), R = send_from_other(A, [one, two]), {R, unalias(A)} end),
    t(empty_options, fun() -> A = alias([]), R = send_from_other(A, [one]), {R, unalias(A)} end),
    t(bad_option, fun() -> alias([bad]) end),
    t(bad_option_tail, fun() -> alias([reply | bad]) end),
    t(not_a_list, fun() -> alias(reply) end),
    t(send2, fun() -> A = alias(), R1 = erlang:send(A, m), R = flush(), unalias(A), {R1, R} end),
    t(send3, fun() -> A = alias(), R1 = erlang:send(A, m, [noconnect]), R = flush(), unalias(A), {R1, R} end),
    t(send3_bad_option, fun() -> A = alias(), erlang:send(A, m, [bad]) end),
    t(send_inactive, fun() -> A = alias(), unalias(A), {A ! m, erlang:send(A, m), erlang:send(A, m, []), flush()} end),
    t(send_plain_ref, fun() -> R = make_ref(), {R ! m, flush()} end),
    t(owner_dead, fun() ->
        {P, M} = spawn_monitor(fun() -> exit(alias()) end),
        A = receive {'DOWN', M, process, P, X} -> X end,
        {A ! late, flush()} end),
    t(many_aliases, fun() ->
        As = [alias() || _ <- lists:seq(1, 100)],
        [A ! N || {A, N} <- lists:zip(As, lists:seq(1, 100))],
        R = flush(),
        [unalias(A) || A <- As],
        {length(R), R =:= lists:seq(1, 100)} end),
    t(alias_in_message_to_other, fun() ->
        %% The shape gen:reply/2 uses: the server answers to the alias it was given.
        Self = self(),
        S = spawn(fun() -> receive {call, From, Q} -> From ! {From, Q * 2} end end),
        A = alias([reply]),
        S ! {call, A, 21},
        R = receive {A, V} -> V end,
        {R, unalias(A), is_pid(Self)} end),
    ok.

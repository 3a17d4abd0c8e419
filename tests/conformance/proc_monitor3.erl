%% monitor/3 (OTP 24+): {tag, Tag} (the DOWN message carries Tag in place of 'DOWN') and
%% {alias, explicit_unalias | demonitor | reply_demonitor} (the monitor's reference is an alias
%% of the monitoring process, ending with unalias/1, with the monitor, or after the first
%% reply); monitor/2 by registered name; spawn_opt's {monitor, Opts}; demonitor/2 with tags.
%% Refs and pids never reach the output: clean/3 replaces the monitor's ref and the target's
%% pid with atoms. A message sent after the one under test says when to look (signals from one
%% sender arrive in order).
-module(proc_monitor3).
-export([main/0]).

t(Label, F) -> io:format("~p: ~p~n", [Label, try F() catch C:R -> {C, R} end]).

flush() -> receive X -> [X | flush()] after 0 -> [] end.

clean(T, Ref, _Pid) when T =:= Ref -> ref;
clean(T, _Ref, Pid) when T =:= Pid -> pid;
clean(T, Ref, Pid) when is_tuple(T) -> list_to_tuple(clean(tuple_to_list(T), Ref, Pid));
clean([H | T], Ref, Pid) -> [clean(H, Ref, Pid) | clean(T, Ref, Pid)];
clean(T, _, _) when is_pid(T) -> other_pid;
clean(T, _, _) when is_reference(T) -> other_ref;
clean(T, _, _) -> T.

%% A process that waits for {stop, Reason} or {send, To, Msg} (then acks to the sender).
target() -> spawn(fun target_loop/0).
target_loop() ->
    receive
        {stop, R} -> exit(R);
        {send, To, Msg, Ack} -> To ! Msg, Ack ! sent, target_loop()
    end.

%% Target sends Msg to To (the monitor's alias, say), then we wait for its ack.
send_via(P, To, Msg) -> P ! {send, To, Msg, self()}, receive sent -> ok end.

stop(P, R) -> P ! {stop, R}.

down(M) -> receive {_, M, _, _, _} = D -> D end.

main() ->
    t(tag_down, fun() -> P = target(), M = monitor(process, P, [{tag, my_tag}]), stop(P, bye), clean(down(M), M, P) end),
    t(tag_tuple, fun() -> P = target(), M = monitor(process, P, [{tag, {a, [1, "x"]}}]), stop(P, bye), clean(down(M), M, P) end),
    t(tag_noproc, fun() ->
        {P, M0} = spawn_monitor(fun() -> ok end), down(M0),
        M = monitor(process, P, [{tag, t}]), clean(down(M), M, P) end),
    t(tag_last_wins, fun() -> P = target(), M = monitor(process, P, [{tag, a}, {tag, b}]), stop(P, x), clean(down(M), M, P) end),
    t(empty_opts, fun() -> P = target(), M = monitor(process, P, []), stop(P, x), clean(down(M), M, P) end),
    t(name_down, fun() ->
        P = target(), register(m3_target, P),
        M = monitor(process, m3_target, [{tag, n}]), stop(P, x), clean(down(M), M, P) end),
    t(name_node_down, fun() ->
        P = target(), register(m3_target2, P),
        M = monitor(process, {m3_target2, node()}), stop(P, x), clean(down(M), M, P) end),
    t(name_noproc, fun() -> M = monitor(process, m3_nobody), clean(down(M), M, none) end),
    t(name_node_noproc, fun() -> M = monitor(process, {m3_nobody, node()}, [{tag, q}]), clean(down(M), M, none) end),
    t(demonitor_flush_tagged, fun() ->
        P = target(), M = monitor(process, P, [{tag, t}]), stop(P, x),
        erlang:yield(), is_process_alive(P),
        {demonitor(M, [flush]), flush()} end),
    t(demonitor_info_after_down, fun() ->
        P = target(), M = monitor(process, P, [{tag, t}]), stop(P, x), down(M),
        demonitor(M, [info]) end),
    t(no_down_after_demonitor, fun() ->
        P = target(), M = monitor(process, P, [{tag, t}]), true = demonitor(M), stop(P, x),
        M2 = monitor(process, P), down(M2), flush() end),
    %% {alias, demonitor}: the alias lives as long as the monitor.
    t(alias_demonitor_send, fun() ->
        P = target(), M = monitor(process, P, [{alias, demonitor}]),
        send_via(P, M, {M, hello}), R = clean(flush(), M, P), demonitor(M), R end),
    t(alias_demonitor_after_demonitor, fun() ->
        P = target(), M = monitor(process, P, [{alias, demonitor}]),
        demonitor(M), send_via(P, M, hello), {flush(), unalias(M)} end),
    t(alias_demonitor_after_down, fun() ->
        Q = target(), P = target(), M = monitor(process, P, [{alias, demonitor}]),
        stop(P, x), D = down(M), send_via(Q, M, hello), stop(Q, x), {clean(D, M, P), flush(), unalias(M)} end),
    t(alias_demonitor_unalias, fun() ->
        P = target(), M = monitor(process, P, [{alias, demonitor}]),
        U = unalias(M), send_via(P, M, hello), R = flush(), stop(P, x), {U, R, clean(down(M), M, P)} end),
    t(alias_demonitor_noproc, fun() ->
        {P, M0} = spawn_monitor(fun() -> ok end), down(M0),
        M = monitor(process, P, [{alias, demonitor}]), D = down(M), M ! hi, {clean(D, M, P), flush(), unalias(M)} end),
    %% {alias, reply_demonitor}: the first message through the alias also ends the monitor.
    t(reply_demonitor, fun() ->
        P = target(), M = monitor(process, P, [{alias, reply_demonitor}]),
        send_via(P, M, r1), send_via(P, M, r2), R = flush(),
        I = demonitor(M, [info]), stop(P, x),
        M2 = monitor(process, P), down(M2),
        {R, I, flush(), unalias(M)} end),
    t(reply_demonitor_down_first, fun() ->
        P = target(), M = monitor(process, P, [{alias, reply_demonitor}]),
        stop(P, x), D = down(M), M ! late, {clean(D, M, P), flush(), unalias(M)} end),
    %% {alias, explicit_unalias}: the alias outlives the monitor.
    t(explicit_after_demonitor, fun() ->
        P = target(), M = monitor(process, P, [{alias, explicit_unalias}]),
        demonitor(M), send_via(P, M, hello), R = flush(), stop(P, x), {R, unalias(M), unalias(M)} end),
    t(explicit_after_down, fun() ->
        P = target(), M = monitor(process, P, [{alias, explicit_unalias}, {tag, t}]),
        stop(P, x), D = down(M), M ! hello, {clean(D, M, P), flush(), unalias(M)} end),
    t(alias_last_wins, fun() ->
        P = target(), M = monitor(process, P, [{alias, reply_demonitor}, {alias, explicit_unalias}]),
        send_via(P, M, r1), send_via(P, M, r2), R = flush(), {R, demonitor(M, [info]), unalias(M)} end),
    t(monitor_self_alias, fun() -> M = monitor(process, self(), [{alias, demonitor}]), M ! hi, {flush(), demonitor(M, [info]), unalias(M)} end),
    %% gen:do_call's shape: monitor with an alias, the server answers to the alias.
    t(call_shape, fun() ->
        S = spawn(fun() -> receive {call, {_, Tag}, Q} -> Tag ! {Tag, Q + 1} end, receive stop -> ok end end),
        M = monitor(process, S, [{alias, demonitor}]),
        S ! {call, {self(), M}, 41},
        R = receive {M, V} -> V; {'DOWN', M, _, _, Why} -> {down, Why} end,
        demonitor(M, [flush]), S ! stop, {R, flush(), unalias(M)} end),
    %% spawn_opt {monitor, Opts}
    t(spawn_opt_tag, fun() -> {P, M} = spawn_opt(fun() -> exit(bye) end, [{monitor, [{tag, st}]}]), clean(down(M), M, P) end),
    t(spawn_opt_alias, fun() ->
        Self = self(),
        {P, M} = spawn_opt(fun() -> receive {go, A} -> A ! {reply, A}, Self ! sent end end, [{monitor, [{alias, demonitor}]}]),
        P ! {go, M}, receive sent -> ok end, R = receive {reply, _} = X -> clean(X, M, P) end, D = clean(down(M), M, P), {R, D, unalias(M)} end),
    t(spawn_opt_monitor_plain, fun() -> {P, M} = spawn_opt(fun() -> ok end, [{monitor, []}]), clean(down(M), M, P) end),
    t(spawn_opt_monitor_then_plain, fun() -> {P, M} = spawn_opt(fun() -> ok end, [{monitor, [{tag, x}]}, monitor]), clean(down(M), M, P) end),
    t(spawn_opt_monitor_4, fun() -> {P, M} = spawn_opt(erlang, exit, [bye], [{monitor, [{tag, s4}]}]), clean(down(M), M, P) end),
    %% Bad arguments
    t(bad_alias_value, fun() -> monitor(process, self(), [{alias, bad}]) end),
    t(bad_option_atom, fun() -> monitor(process, self(), [bad]) end),
    t(bad_option_tuple, fun() -> monitor(process, self(), [{tag}]) end),
    t(bad_option_key, fun() -> monitor(process, self(), [{priority, true}]) end),
    t(bad_option_list, fun() -> monitor(process, self(), bad) end),
    t(bad_option_tail, fun() -> monitor(process, self(), [{tag, a} | b]) end),
    t(bad_type, fun() -> monitor(foo, self(), []) end),
    t(bad_target, fun() -> monitor(process, 42, []) end),
    t(bad_target_tuple, fun() -> monitor(process, {a, 1}, []) end),
    t(other_node_name, fun() -> monitor(process, {a, other@nowhere}) end),
    t(other_node_name3, fun() -> monitor(process, {a, other@nowhere}, [{alias, demonitor}, {tag, t}]) end),
    t(spawn_opt_bad_monitor, fun() -> spawn_opt(fun() -> ok end, [{monitor, [bad]}]) end),
    t(spawn_opt_bad_monitor2, fun() -> spawn_opt(fun() -> ok end, [{monitor, bad}]) end),
    t(left, fun() -> flush() end),
    ok.

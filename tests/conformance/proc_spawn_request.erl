%% spawn_request/1..5 and spawn_request_abandon/1 (OTP 23+): the request id, the reply message
%% ({ReplyTag, ReqId, ok, Pid} or {ReplyTag, ReqId, error, Reason}) and its options
%% ({reply_tag, T}, {reply, yes | no | error_only | success_only}), link and monitor with
%% their messages, spawn_opt options, bad options (an error reply) and bad arguments (badarg).
%% Refs and pids never reach the output: clean/3 replaces the request id and the child's pid
%% with atoms.
-module(proc_spawn_request).
-export([main/0, child/1]).

t(Label, F) -> io:format("~p: ~p~n", [Label, try F() catch C:R -> {C, R} end]).

flush() -> receive X -> [X | flush()] after 0 -> [] end.

clean(T, Ref, _Pid) when T =:= Ref -> req;
clean(T, _Ref, Pid) when T =:= Pid -> child;
clean(T, Ref, Pid) when is_tuple(T) -> list_to_tuple(clean(tuple_to_list(T), Ref, Pid));
clean([H | T], Ref, Pid) -> [clean(H, Ref, Pid) | clean(T, Ref, Pid)];
clean(T, _, _) when is_pid(T) -> other_pid;
clean(T, _, _) when is_reference(T) -> other_ref;
clean(T, _, _) -> T.

child(Parent) -> Parent ! {child_ran, self()}, receive stop -> ok end.

%% The reply (whatever its tag), cleaned, and the child's pid.
reply(R) ->
    receive {_, R, ok, P} = M -> {clean(M, R, P), P}; {_, R, error, _} = M -> {clean(M, R, none), none} end.

ran(P) -> receive {child_ran, P} -> ran end.

%% erl's logger reports the undef crash below on stdout (beamvm on stderr): silence it.
quiet_logger() ->
    case whereis(logger) of
        undefined -> ok;
        _ -> logger:set_primary_config(level, none)
    end.

main() ->
    quiet_logger(),
    process_flag(trap_exit, true),
    Self = self(),
    t(fun_1, fun() -> R = spawn_request(fun() -> Self ! {child_ran, self()} end), {M, P} = reply(R), {is_reference(R), M, ran(P)} end),
    t(fun_2_opts, fun() -> R = spawn_request(fun() -> Self ! {child_ran, self()} end, [{reply_tag, my_tag}]), {M, P} = reply(R), {M, ran(P)} end),
    t(fun_2_node, fun() -> R = spawn_request(node(), fun() -> Self ! {child_ran, self()} end), {M, P} = reply(R), {M, ran(P)} end),
    t(fun_3, fun() -> R = spawn_request(node(), fun() -> Self ! {child_ran, self()} end, [{reply_tag, {a, 1}}]), {M, P} = reply(R), {M, ran(P)} end),
    t(mfa_3, fun() -> R = spawn_request(?MODULE, child, [Self]), {M, P} = reply(R), ran(P), P ! stop, M end),
    t(mfa_4_opts, fun() -> R = spawn_request(?MODULE, child, [Self], [{priority, high}]), {M, P} = reply(R), ran(P),
                           Pr = process_info(P, priority), P ! stop, {M, Pr} end),
    t(mfa_4_node, fun() -> R = spawn_request(node(), ?MODULE, child, [Self]), {M, P} = reply(R), ran(P), P ! stop, M end),
    t(mfa_5, fun() -> R = spawn_request(node(), ?MODULE, child, [Self], [{reply_tag, t5}]), {M, P} = reply(R), ran(P), P ! stop, M end),
    t(monitor, fun() ->
        R = spawn_request(fun() -> exit(bye) end, [monitor]), {M, P} = reply(R),
        D = receive {'DOWN', R, _, _, _} = X -> clean(X, R, P) end, {M, D} end),
    t(monitor_tag, fun() ->
        R = spawn_request(fun() -> exit(bye) end, [{monitor, [{tag, mt}]}]), {M, P} = reply(R),
        D = receive {mt, R, _, _, _} = X -> clean(X, R, P) end, {M, D} end),
    t(monitor_alias, fun() ->
        R = spawn_request(fun() -> receive {go, A} -> A ! {via_alias, A} end end, [{monitor, [{alias, demonitor}]}]),
        {M, P} = reply(R), P ! {go, R},
        V = receive {via_alias, _} = X -> clean(X, R, P) end,
        D = receive {'DOWN', R, _, _, _} = Y -> clean(Y, R, P) end, {M, V, D, unalias(R)} end),
    t(link, fun() ->
        R = spawn_request(fun() -> exit(linked_bye) end, [link]), {M, P} = reply(R),
        E = receive {'EXIT', P, _} = X -> clean(X, R, P) end, {M, E} end),
    t(link_monitor_order, fun() ->
        R = spawn_request(fun() -> exit(both) end, [link, monitor]), {M, P} = reply(R),
        {M, clean(receive A -> A end, R, P), clean(receive B -> B end, R, P)} end),
    t(reply_no, fun() ->
        R = spawn_request(fun() -> Self ! {child_ran, self()} end, [{reply, no}, monitor]),
        P = receive {child_ran, C} -> C end,
        D = receive {'DOWN', R, _, _, _} = X -> clean(X, R, P) end, {D, flush()} end),
    t(reply_error_only, fun() ->
        R = spawn_request(fun() -> Self ! {child_ran, self()} end, [{reply, error_only}, monitor]),
        P = receive {child_ran, C} -> C end,
        D = receive {'DOWN', R, _, _, _} = X -> clean(X, R, P) end, {D, flush()} end),
    t(reply_success_only, fun() ->
        R = spawn_request(fun() -> Self ! {child_ran, self()} end, [{reply, success_only}]), {M, P} = reply(R), {M, ran(P)} end),
    t(reply_yes, fun() ->
        R = spawn_request(fun() -> Self ! {child_ran, self()} end, [{reply, yes}]), {M, P} = reply(R), {M, ran(P)} end),
    t(abandon_after_reply, fun() ->
        R = spawn_request(fun() -> Self ! {child_ran, self()} end), {M, P} = reply(R), {M, spawn_request_abandon(R), ran(P)} end),
    t(abandon_plain_ref, fun() -> spawn_request_abandon(make_ref()) end),
    t(abandon_not_ref, fun() -> spawn_request_abandon(self()) end),
    %% A bad option in a proper list: a request id and an error reply.
    t(bad_option, fun() -> R = spawn_request(fun() -> ok end, [bad]), {M, _} = reply(R), {is_reference(R), M} end),
    t(bad_reply_value, fun() -> R = spawn_request(fun() -> ok end, [{reply, maybe}]), {M, _} = reply(R), M end),
    t(bad_option_tag_kept, fun() -> R = spawn_request(fun() -> ok end, [bad, {reply_tag, kept}]), {M, _} = reply(R), M end),
    t(bad_option_reply_no, fun() -> R = spawn_request(fun() -> ok end, [bad, {reply, no}]), {is_reference(R), flush()} end),
    t(bad_option_success_only, fun() -> R = spawn_request(fun() -> ok end, [{reply, success_only}, bad]), {is_reference(R), flush()} end),
    t(bad_monitor_option, fun() -> R = spawn_request(fun() -> ok end, [{monitor, [bad]}]), {M, _} = reply(R), M end),
    t(bad_priority, fun() -> R = spawn_request(fun() -> ok end, [{priority, urgent}]), {M, _} = reply(R), M end),
    t(heap_conflict, fun() -> R = spawn_request(fun() -> ok end, [{min_heap_size, 1000}, {max_heap_size, 100}]), {M, _} = reply(R), M end),
    %% Arguments that are not even a request: badarg.
    t(opts_not_list, fun() -> spawn_request(fun() -> ok end, bad) end),
    t(opts_improper, fun() -> spawn_request(fun() -> ok end, [link | bad]) end),
    t(fun_arity, fun() -> spawn_request(fun(_) -> ok end) end),
    t(not_fun, fun() -> spawn_request(42) end),
    t(bad_module, fun() -> spawn_request("m", f, []) end),
    t(bad_args, fun() -> spawn_request(erlang, apply, [a | b]) end),
    t(bad_args4, fun() -> spawn_request(erlang, apply, 1, []) end),
    t(two_non_fun, fun() -> spawn_request(a, b) end),
    %% A module that does not exist: the request succeeds, the child fails with undef.
    t(undef_child, fun() ->
        R = spawn_request(no_such_module_xyz, f, [], [monitor]), {M, P} = reply(R),
        D = receive {'DOWN', R, _, _, {Why, _}} -> Why end, {M, D, is_pid(P)} end),
    %% Another node: no connection.
    t(other_node, fun() -> R = spawn_request(other@nowhere, fun() -> ok end, []), {M, _} = reply(R), M end),
    t(other_node_tag, fun() -> R = spawn_request(other@nowhere, erlang, now, [], [{reply_tag, rt}]), {M, _} = reply(R), M end),
    t(other_node_no_reply, fun() -> R = spawn_request(other@nowhere, erlang, now, [], [{reply, success_only}]), {is_reference(R), flush()} end),
    t(other_node_abandon, fun() -> R = spawn_request(other@nowhere, erlang, now, [], []), {M, _} = reply(R), {M, spawn_request_abandon(R)} end),
    t(left, fun() -> flush() end),
    ok.

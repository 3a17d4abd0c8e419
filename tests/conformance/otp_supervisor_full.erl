%% OTP's supervisor (unmodified) under the booted kernel: the four strategies, restarts and the
%% intensity/period limit (the supervisor giving up and its exit reason), which_children,
%% count_children, start/terminate/restart/delete_child, temporary/transient/permanent
%% children, shutdown timeouts and brutal_kill. This module is the supervisor callback module
%% and its workers' code. Every worker announces {started, Id, Pid} and {stopped, Id, Reason}
%% to the test process (registered as osf_main); pids are printed as which position they hold.
-module(otp_supervisor_full).
-behaviour(supervisor).
-export([main/0, init/1, worker/2, worker_init/2]).

t(Label, F) -> io:format("~p: ~p~n", [Label, clean(try F() catch C:R -> {C, R} end)]).

clean(T) when is_pid(T) -> pid;
clean(T) when is_reference(T) -> ref;
clean([H | T]) -> [clean(H) | clean(T)];
clean(T) when is_tuple(T) -> list_to_tuple(clean(tuple_to_list(T)));
clean(T) -> T.

flush() -> receive X -> [X | flush()] after 0 -> [] end.
%% The next N exit signals, waited for: a failed start_link returns its error before the
%% supervisor has exited (the exit signal follows the reply), on erl too.
exits(N) -> [receive {'EXIT', _, _} = M -> M end || _ <- lists:seq(1, N)].

%% Supervisor callback: the flags and child specs are passed in whole.
init({Flags, Specs}) -> {ok, {Flags, Specs}}.

%% A worker: proc_lib-started so start_link returns after it is registered; traps exits when
%% asked to, so shutdown timeouts can be seen.
worker(Id, Opts) -> proc_lib:start_link(?MODULE, worker_init, [Id, Opts]).

worker_init(Id, Opts) ->
    case proplists:get_value(trap, Opts, false) of
        true -> process_flag(trap_exit, true);
        false -> ok
    end,
    case proplists:get_value(fail_start, Opts, false) of
        true -> proc_lib:init_ack({error, refused});
        false ->
            osf_main ! {started, Id},
            proc_lib:init_ack({ok, self()}),
            worker_loop(Id, Opts)
    end.

worker_loop(Id, Opts) ->
    receive
        {'EXIT', _, R} ->
            osf_main ! {stopped, Id, R},
            case proplists:get_value(linger, Opts, 0) of
                0 -> exit(R);
                infinity -> worker_loop(Id, Opts);
                Ms -> receive after Ms -> exit(R) end
            end;
        {die, R} -> exit(R);
        {ping, From} -> From ! {pong, Id}, worker_loop(Id, Opts)
    end.

spec(Id, Restart) -> spec(Id, Restart, []).
spec(Id, Restart, Opts) ->
    #{id => Id, start => {?MODULE, worker, [Id, Opts]}, restart => Restart,
      shutdown => proplists:get_value(shutdown, Opts, 1000), type => worker, modules => [?MODULE]}.

sup(Strategy, Specs) -> sup(Strategy, 3, 5, Specs).
sup(Strategy, Intensity, Period, Specs) ->
    Flags = #{strategy => Strategy, intensity => Intensity, period => Period},
    {ok, S} = supervisor:start_link(?MODULE, {Flags, Specs}),
    S.

%% Wait for N {started, Id} / {stopped, Id, R} notes, in arrival order.
notes(0) -> [];
notes(N) ->
    receive
        {started, Id} -> [{started, Id} | notes(N - 1)];
        {stopped, Id, R} -> [{stopped, Id, R} | notes(N - 1)]
    after 3000 -> [missing]
    end.

child_pid(S, Id) ->
    {Id, P, _, _} = lists:keyfind(Id, 1, supervisor:which_children(S)), P.

kill_child(S, Id, Reason) ->
    P = child_pid(S, Id), M = monitor(process, P), P ! {die, Reason},
    receive {'DOWN', M, process, P, _} -> ok end.

children(S) -> [{Id, case P of _ when is_pid(P) -> pid; _ -> P end, T} || {Id, P, T, _} <- supervisor:which_children(S)].

stop_sup(S) ->
    unlink(S), M = monitor(process, S), exit(S, shutdown),
    receive {'DOWN', M, process, S, R} -> R end.

main() ->
    case whereis(logger) of undefined -> ok; _ -> logger:set_primary_config(level, none) end,
    register(osf_main, self()),
    process_flag(trap_exit, true),
    t(one_for_one, fun() ->
        S = sup(one_for_one, [spec(a, permanent), spec(b, permanent), spec(c, permanent)]),
        N0 = notes(3),
        kill_child(S, b, boom),
        N1 = notes(1),
        C = children(S),
        Count = supervisor:count_children(S),
        {N0, N1, C, Count, stop_sup(S), lists:sort(notes(0) ++ flush())} end),
    t(one_for_all, fun() ->
        S = sup(one_for_all, [spec(a, permanent, [{trap, true}]), spec(b, permanent, [{trap, true}]),
                              spec(c, permanent, [{trap, true}])]),
        N0 = notes(3),
        kill_child(S, b, boom),
        %% a and c are stopped (in reverse start order), then all three start again.
        N1 = notes(5),
        {N0, N1, children(S), stop_sup(S), notes(3)} end),
    t(rest_for_one, fun() ->
        S = sup(rest_for_one, [spec(a, permanent, [{trap, true}]), spec(b, permanent, [{trap, true}]),
                               spec(c, permanent, [{trap, true}]), spec(d, permanent, [{trap, true}])]),
        N0 = notes(4),
        kill_child(S, b, boom),
        N1 = notes(5),
        {N0, N1, stop_sup(S), notes(4)} end),
    t(restart_types, fun() ->
        S = sup(one_for_one, 10, 5, [spec(perm, permanent), spec(trans, transient), spec(temp, temporary)]),
        _ = notes(3),
        kill_child(S, trans, normal),
        kill_child(S, temp, boom),
        kill_child(S, perm, normal),
        A = notes(1),
        C1 = children(S),
        Q = spawn_trans(S),
        {A, C1, Q, children(S), supervisor:count_children(S), stop_sup(S), notes(0), flush()} end),
    t(intensity_exceeded, fun() ->
        S = sup(one_for_one, 2, 10, [spec(w, permanent)]),
        M = monitor(process, S),
        _ = notes(1),
        kill_child(S, w, boom), R1 = notes(1),
        kill_child(S, w, boom), R2 = notes(1),
        kill_child(S, w, boom),
        D = receive {'DOWN', M, process, S, Why} -> Why end,
        E = receive {'EXIT', S, EW} -> EW end,
        {R1, R2, D, E, flush()} end),
    t(intensity_zero, fun() ->
        S = sup(one_for_one, 0, 1, [spec(w, permanent)]),
        _ = notes(1),
        kill_child(S, w, boom),
        receive {'EXIT', S, EW} -> EW end end),
    t(child_management, fun() ->
        S = sup(one_for_one, []),
        A = supervisor:start_child(S, spec(x, permanent)),
        B = supervisor:start_child(S, spec(x, permanent)),
        C = supervisor:start_child(S, spec(y, transient, [{fail_start, true}])),
        D = supervisor:start_child(S, #{id => z}),
        E = supervisor:check_childspecs([spec(q, permanent)]),
        F = supervisor:check_childspecs([#{id => q, start => bad}]),
        G = supervisor:terminate_child(S, x),
        H = children(S),
        I = supervisor:restart_child(S, x),
        J = supervisor:delete_child(S, x),
        ok = supervisor:terminate_child(S, x),
        K = supervisor:delete_child(S, x),
        L = supervisor:restart_child(S, x),
        M = supervisor:terminate_child(S, nobody),
        N = supervisor:get_childspec(S, x),
        {ok, Sp} = (fun() -> _ = supervisor:start_child(S, spec(w, temporary)), supervisor:get_childspec(S, w) end)(),
        O = supervisor:terminate_child(S, w),
        P = supervisor:restart_child(S, w),
        {A, B, C, D, E, F, G, H, I, J, K, L, M, N, Sp, O, P, children(S), stop_sup(S), notes(0) -- [], flush()} end),
    t(simple_one_for_one, fun() ->
        Flags = #{strategy => simple_one_for_one, intensity => 5, period => 10},
        {ok, S} = supervisor:start_link(?MODULE, {Flags, [spec(template, transient)]}),
        {ok, P1} = supervisor:start_child(S, []),
        _ = supervisor:start_child(S, []),
        _ = supervisor:start_child(S, []),
        N0 = notes(3),
        A = supervisor:count_children(S),
        B = children(S),
        C = supervisor:terminate_child(S, P1),
        D = supervisor:terminate_child(S, template),
        E = supervisor:restart_child(S, template),
        F = supervisor:delete_child(S, template),
        [{_, P2, _, _} | _] = supervisor:which_children(S),
        kill_child_pid(P2, boom),
        N1 = notes(1),
        G = supervisor:count_children(S),
        H = supervisor:start_child(S, [extra_arg]),
        {N0, A, B, C, D, E, F, N1, G, H, stop_sup(S), notes(0), flush()} end),
    t(shutdown_timeout_and_brutal_kill, fun() ->
        S = sup(one_for_one, [spec(slow, permanent, [{trap, true}, {linger, infinity}, {shutdown, 50}]),
                              spec(quick, permanent, [{trap, true}, {shutdown, 1000}]),
                              spec(brutal, permanent, [{trap, true}, {shutdown, brutal_kill}])]),
        _ = notes(3),
        B = monitor(process, child_pid(S, brutal)),
        Sl = monitor(process, child_pid(S, slow)),
        ok = supervisor:terminate_child(S, brutal),
        R1 = receive {'DOWN', B, process, _, W1} -> W1 end,
        ok = supervisor:terminate_child(S, slow),
        R2 = receive {'DOWN', Sl, process, _, W2} -> W2 end,
        N = notes(1),
        Q = monitor(process, child_pid(S, quick)),
        R3 = stop_sup(S),
        R4 = receive {'DOWN', Q, process, _, W3} -> W3 end,
        {R1, R2, N, R3, R4, notes(1), flush()} end),
    t(infinity_shutdown_supervisor_child, fun() ->
        Inner = #{id => inner, start => {supervisor, start_link, [?MODULE, {#{strategy => one_for_one}, [spec(leaf, permanent)]}]},
                  type => supervisor, shutdown => infinity},
        S = sup(one_for_one, [Inner]),
        N0 = notes(1),
        C = supervisor:count_children(S),
        [{inner, IP, supervisor, _}] = supervisor:which_children(S),
        C2 = children(IP),
        {N0, C, C2, stop_sup(S), flush()} end),
    t(start_link_failure, fun() ->
        Flags = #{strategy => one_for_one},
        A = supervisor:start_link(?MODULE, {Flags, [spec(bad, permanent, [{fail_start, true}])]}),
        B = supervisor:start_link(?MODULE, {Flags, [#{id => nope}]}),
        C = supervisor:start_link(?MODULE, {#{strategy => sideways}, []}),
        {A, B, C, exits(3)} end),
    t(named_supervisor, fun() ->
        Flags = #{strategy => one_for_one},
        {ok, S} = supervisor:start_link({local, osf_named}, ?MODULE, {Flags, [spec(n, permanent)]}),
        _ = notes(1),
        A = supervisor:which_children(osf_named) =:= supervisor:which_children(S),
        B = supervisor:start_link({local, osf_named}, ?MODULE, {Flags, []}),
        {A, clean(B), stop_sup(S), whereis(osf_named)} end),
    ok.

spawn_trans(S) ->
    {trans, P, _, _} = lists:keyfind(trans, 1, supervisor:which_children(S)), P.

kill_child_pid(P, Reason) ->
    M = monitor(process, P), P ! {die, Reason},
    receive {'DOWN', M, process, P, _} -> ok end.

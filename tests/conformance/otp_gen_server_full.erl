%% OTP's gen_server (unmodified) under the booted kernel, beyond gen_server_basic: timeouts in
%% {noreply, S, T} and {reply, R, S, T}, hibernate, stop reasons, a server crashing under a
%% caller (the exit shapes a caller sees), multi_call, reply/2, send_request with wait_response
%% and receive_response, enter_loop, and the sys functions. This module is the callback module.
%% Pids and refs are replaced by atoms before printing; the logger is silenced (crash reports
%% are otp_logger's subject).
-module(otp_gen_server_full).
-behaviour(gen_server).
-export([main/0, loop_starter/2]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, handle_continue/2, terminate/2, format_status/1]).

t(Label, F) -> io:format("~p: ~p~n", [Label, clean(try F() catch C:R -> {C, R} end)]).

%% Pids, refs, ports and funs printed as atoms: they differ from run to run.
clean(T) when is_pid(T) -> pid;
clean(T) when is_reference(T) -> ref;
clean(T) when is_port(T) -> port;
clean(T) when is_function(T) -> 'fun';
clean([H | T]) -> [clean(H) | clean(T)];
clean(T) when is_tuple(T) -> list_to_tuple(clean(tuple_to_list(T)));
clean(T) when is_map(T) -> maps:from_list(clean(maps:to_list(T)));
clean(T) -> T.

flush() -> receive X -> [X | flush()] after 0 -> [] end.

%% Callbacks. The state is a map; `owner` receives reports.
init({enter, _}) -> {ok, unused};
init({timeout_init, Owner}) -> {ok, #{owner => Owner, n => 0}, 20};
init({hib_init, Owner}) -> {ok, #{owner => Owner, n => 0}, hibernate};
init({continue_init, Owner}) -> {ok, #{owner => Owner, n => 0}, {continue, first}};
init(Owner) -> {ok, #{owner => Owner, n => 0}}.

handle_call(get, _From, S = #{n := N}) -> {reply, N, S};
handle_call({reply_timeout, T}, _From, S) -> {reply, armed, S, T};
handle_call(hibernate, _From, S) -> {reply, hibernating, S, hibernate};
handle_call(crash, _From, S) -> {reply, 1 + get(not_a_number), S};
handle_call(exit_call, _From, _S) -> exit(gone_in_call);
handle_call(throw_reply, _From, S) -> throw({reply, thrown, S});
handle_call({stop, R}, _From, S) -> {stop, R, S};
handle_call({stop_reply, R}, _From, S) -> {stop, R, replied_then_stopped, S};
handle_call(bad_return, _From, _S) -> what_is_this;
handle_call(two_replies, From, S) ->
    gen_server:reply(From, first), {reply, second, S};
handle_call(defer, From, S) -> {noreply, S#{deferred => From}};
handle_call(release, _From, S = #{deferred := D}) ->
    gen_server:reply(D, released), {reply, ok, maps:remove(deferred, S)};
handle_call({continue, X}, _From, S) -> {reply, continuing, S, {continue, X}};
handle_call(Other, _From, S) -> {reply, {unknown, Other}, S}.

handle_cast({noreply_timeout, T}, S) -> {noreply, S, T};
handle_cast(hibernate, S) -> {noreply, S, hibernate};
handle_cast(crash, _S) -> erlang:error(cast_crash);
handle_cast({stop, R}, S) -> {stop, R, S};
handle_cast(inc, S = #{n := N}) -> {noreply, S#{n := N + 1}}.

handle_info(timeout, S = #{owner := O}) -> O ! timed_out, {noreply, S};
handle_info({continue_ack}, S) -> {noreply, S};
handle_info(Msg, S = #{owner := O}) -> O ! {info, Msg}, {noreply, S}.

handle_continue(X, S = #{owner := O}) -> O ! {continued, X}, {noreply, S}.

terminate(Reason, #{owner := O}) -> O ! {terminate, Reason};
terminate(_, _) -> ok.

format_status(Status) -> Status.

quiet_logger() ->
    case whereis(logger) of
        undefined -> ok;
        _ -> logger:set_primary_config(level, none)
    end.

start(Arg) -> {ok, P} = gen_server:start(?MODULE, Arg, []), P.

stop(P) -> ok = gen_server:stop(P), receive {terminate, R} -> R after 1000 -> no_terminate end.

loop_starter(Owner, Name) ->
    case Name of
        none -> gen_server:enter_loop(?MODULE, [], #{owner => Owner, n => 40});
        _ -> register(Name, self()),
             gen_server:enter_loop(?MODULE, [], #{owner => Owner, n => 41}, {local, Name}, 30)
    end.

main() ->
    quiet_logger(),
    Self = self(),
    t(init_timeout, fun() ->
        P = start({timeout_init, Self}),
        A = receive timed_out -> timed_out after 2000 -> none end,
        {A, stop(P)} end),
    t(init_hibernate, fun() ->
        P = start({hib_init, Self}),
        wait_hibernated(P, 100),
        A = process_info(P, current_function),
        B = gen_server:call(P, get),
        {A, B, stop(P)} end),
    t(init_continue, fun() ->
        P = start({continue_init, Self}),
        A = receive {continued, X} -> X after 2000 -> none end,
        B = gen_server:call(P, {continue, again}),
        C = receive {continued, Y} -> Y after 2000 -> none end,
        {A, B, C, stop(P)} end),
    t(noreply_timeout, fun() ->
        P = start(Self),
        gen_server:cast(P, {noreply_timeout, 10}),
        A = receive timed_out -> timed_out after 2000 -> none end,
        %% A message before the timeout cancels it.
        gen_server:cast(P, {noreply_timeout, 5000}),
        P ! ping,
        B = receive {info, M} -> M after 2000 -> none end,
        C = receive timed_out -> timed_out after 100 -> not_timed_out end,
        {A, B, C, stop(P)} end),
    t(reply_timeout, fun() ->
        P = start(Self),
        A = gen_server:call(P, {reply_timeout, 10}),
        B = receive timed_out -> timed_out after 2000 -> none end,
        C = gen_server:call(P, {reply_timeout, infinity}),
        {A, B, C, stop(P)} end),
    t(hibernate, fun() ->
        P = start(Self),
        A = gen_server:call(P, hibernate),
        wait_hibernated(P, 100),
        B = process_info(P, current_function),
        gen_server:cast(P, inc),
        C = gen_server:call(P, get),
        gen_server:cast(P, hibernate),
        wait_hibernated(P, 100),
        D = process_info(P, current_function),
        {A, B, C, D, gen_server:call(P, get), stop(P)} end),
    t(throw_reply, fun() ->
        P = start(Self), A = gen_server:call(P, throw_reply), {A, stop(P)} end),
    t(two_replies, fun() ->
        P = start(Self), A = gen_server:call(P, two_replies),
        %% The second reply goes to a dead alias and is dropped.
        B = gen_server:call(P, get), _ = flush(), {A, B, stop(P)} end),
    t(deferred_reply, fun() ->
        P = start(Self),
        {C, M} = spawn_monitor(fun() -> exit({got, gen_server:call(P, defer)}) end),
        wait_deferred(P, 100),
        ok = gen_server:call(P, release),
        R = receive {'DOWN', M, process, C, W} -> W end,
        {R, stop(P)} end),
    t(crash_in_call, fun() ->
        P = start(Self),
        M = monitor(process, P),
        R = try gen_server:call(P, crash) catch exit:{{Err, [Top | _]}, {gen_server, call, [Who, Req]}} ->
                {Err, Top, Who =:= P, Req} end,
        D = receive {'DOWN', M, process, P, {Why, _}} -> Why end,
        T = receive {terminate, {TR, _}} -> TR end,
        {R, D, T} end),
    t(exit_in_call, fun() ->
        P = start(Self),
        R = try gen_server:call(P, exit_call) catch exit:E -> E end,
        {R, receive {terminate, T} -> T end} end),
    t(bad_return, fun() ->
        P = start(Self),
        R = try gen_server:call(P, bad_return) catch exit:E -> E end,
        {R, receive {terminate, T} -> T end} end),
    t(crash_in_cast_linked_caller, fun() ->
        process_flag(trap_exit, true),
        {ok, P} = gen_server:start_link(?MODULE, Self, []),
        gen_server:cast(P, crash),
        E = receive {'EXIT', P, {Why, [Top | _]}} -> {Why, Top} end,
        T = receive {terminate, {TW, _}} -> TW end,
        process_flag(trap_exit, false),
        {E, T} end),
    t(call_after_crash, fun() ->
        P = start(Self),
        gen_server:cast(P, {stop, bye}),
        receive {terminate, _} -> ok end,
        try gen_server:call(P, get, 500) catch exit:E -> E end end),
    t(stop_reasons, fun() ->
        [begin
             P = start(Self),
             M = monitor(process, P),
             A = gen_server:stop(P, R, infinity),
             T = receive {terminate, X} -> X end,
             D = receive {'DOWN', M, process, P, Y} -> Y end,
             {R, A, T, D}
         end || R <- [normal, shutdown, {shutdown, because}, custom_reason]] end),
    t(stop_from_call, fun() ->
        P = start(Self),
        A = gen_server:call(P, {stop_reply, normal}),
        T1 = receive {terminate, X} -> X end,
        Q = start(Self),
        B = try gen_server:call(Q, {stop, {shutdown, no_reply}}) catch exit:E -> E end,
        T2 = receive {terminate, Y} -> Y end,
        {A, T1, B, T2} end),
    t(stop_dead, fun() ->
        P = start(Self), stop(P),
        try gen_server:stop(P) catch exit:E -> E end end),
    t(multi_call, fun() ->
        {ok, P} = gen_server:start({local, ogsf_multi}, ?MODULE, Self, []),
        A = gen_server:multi_call(ogsf_multi, get),
        gen_server:abcast(ogsf_multi, inc),
        B = gen_server:multi_call([node()], ogsf_multi, get),
        C = gen_server:multi_call([node()], ogsf_multi, get, 1000),
        D = gen_server:multi_call(ogsf_nobody, get),
        {A, B, C, D, stop(P)} end),
    t(send_request, fun() ->
        P = start(Self),
        R1 = gen_server:send_request(P, get),
        A = gen_server:wait_response(R1, 1000),
        R2 = gen_server:send_request(P, {unknown_thing, 1}),
        B = gen_server:receive_response(R2, 1000),
        R3 = gen_server:send_request(P, defer),
        C = gen_server:wait_response(R3, 10),
        ok = gen_server:call(P, release),
        D = gen_server:wait_response(R3, 1000),
        R4 = gen_server:send_request(P, get),
        E = gen_server:check_response(receive Msg -> Msg end, R4),
        R5 = gen_server:send_request(P, defer),
        F = gen_server:receive_response(R5, 10),
        ok = gen_server:call(P, release),
        G = flush(),
        {A, B, C, D, E, F, G, stop(P)} end),
    t(send_request_dead, fun() ->
        P = start(Self), stop(P),
        R = gen_server:send_request(P, get),
        A = gen_server:wait_response(R, 1000),
        R2 = gen_server:send_request(P, get),
        B = gen_server:receive_response(R2, 1000),
        {A, B} end),
    t(reqid_collection, fun() ->
        P = start(Self),
        C0 = gen_server:reqids_new(),
        C1 = gen_server:send_request(P, get, one, C0),
        C2 = gen_server:send_request(P, {unknown_thing, 2}, two, C1),
        N = gen_server:reqids_size(C2),
        {A, _, C3} = gen_server:receive_response(C2, 1000, true),
        {B, _, C4} = gen_server:receive_response(C3, 1000, true),
        E = gen_server:receive_response(C4, 1000, true),
        {N, lists:sort([A, B]), E, stop(P)} end),
    t(enter_loop, fun() ->
        P = proc_lib:spawn(?MODULE, loop_starter, [Self, none]),
        A = gen_server:call(P, get),
        gen_server:cast(P, inc),
        B = gen_server:call(P, get),
        {A, B, stop(P)} end),
    t(enter_loop_named_timeout, fun() ->
        P = proc_lib:spawn(?MODULE, loop_starter, [Self, ogsf_entered]),
        A = receive timed_out -> timed_out after 2000 -> none end,
        B = gen_server:call(ogsf_entered, get),
        {A, B, whereis(ogsf_entered) =:= P, stop(P)} end),
    t(enter_loop_not_proc_lib, fun() ->
        {P, M} = spawn_monitor(fun() -> gen_server:enter_loop(?MODULE, [], #{owner => Self, n => 0}) end),
        receive {'DOWN', M, process, P, R} -> R end end),
    t(sys_functions, fun() ->
        P = start(Self),
        gen_server:cast(P, inc),
        A = sys:get_state(P),
        ok = sys:suspend(P),
        gen_server:cast(P, inc),
        B = try gen_server:call(P, get, 50) catch exit:{timeout, _} -> call_timed_out end,
        C = sys:get_state(P),
        ok = sys:resume(P),
        D = gen_server:call(P, get),
        E = sys:replace_state(P, fun(S) -> S#{n := 100} end),
        F = gen_server:call(P, get),
        G = try sys:replace_state(P, fun(_) -> error(nope) end) catch Cl:Er -> {Cl, Er} end,
        H = gen_server:call(P, get),
        {status, _, {module, Mod}, _} = sys:get_status(P),
        I = sys:statistics(P, get),
        {A, B, C, D, E, F, G, H, Mod, I, stop(P), flush()} end),
    t(sys_debug, fun() ->
        P = start(Self),
        ok = sys:trace(P, false),
        ok = sys:log(P, true),
        gen_server:cast(P, inc),
        gen_server:call(P, get),
        {ok, Log} = sys:log(P, get),
        ok = sys:log(P, false),
        ok = sys:no_debug(P),
        {length(Log), stop(P)} end),
    ok.

wait_hibernated(_P, 0) -> ok;
wait_hibernated(P, N) ->
    case process_info(P, current_function) of
        {current_function, {erlang, hibernate, 3}} -> ok;
        _ -> receive after 5 -> wait_hibernated(P, N - 1) end
    end.

wait_deferred(_P, 0) -> ok;
wait_deferred(P, N) ->
    case maps:is_key(deferred, sys:get_state(P)) of
        true -> ok;
        false -> receive after 5 -> wait_deferred(P, N - 1) end
    end.

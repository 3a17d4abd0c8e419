%% A gen_server round trip with OTP's own gen_server.beam, unmodified: start/3 and start_link,
%% call (gen:do_call monitors the server with {alias, demonitor} and the server answers to the
%% alias), cast, info messages, a call timeout, a call to a dead server, stop/1 and stop/3.
%% This module is also the callback module. Pids and refs never reach the output.
-module(gen_server_basic).
-behaviour(gen_server).
-export([main/0]).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

t(Label, F) -> io:format("~p: ~p~n", [Label, try F() catch C:R -> {C, R} end]).

flush() -> receive X -> [X | flush()] after 0 -> [] end.

%% The callbacks: a counter, with a way to report to the test process.
init({crash_init, Why}) -> {stop, Why};
init(ignore_me) -> ignore;
init({Start, Owner}) -> {ok, #{n => Start, owner => Owner}}.

handle_call(get, _From, S = #{n := N}) -> {reply, N, S};
handle_call({add, K}, _From, S = #{n := N}) -> {reply, {ok, N + K}, S#{n := N + K}};
handle_call(slow, _From, S) -> receive after 300 -> ok end, {reply, late, S};
handle_call(noreply_later, From, S) -> self() ! {reply_to, From}, {noreply, S};
handle_call({stop_with, R}, _From, S) -> {stop, R, stopping, S}.

handle_cast({set, V}, S) -> {noreply, S#{n := V}};
handle_cast(report, S = #{owner := O, n := N}) -> O ! {report, N}, {noreply, S}.

handle_info({reply_to, From}, S) -> gen_server:reply(From, replied_later), {noreply, S};
handle_info(Other, S = #{owner := O}) -> O ! {info, Other}, {noreply, S}.

terminate(Reason, #{owner := O}) -> O ! {terminated, Reason}, ok.

%% init_stop's server exits with no_way: erl's logger would report it on stdout (beamvm's
%% proc_lib report goes to stderr), so silence the logger.
quiet_logger() ->
    case whereis(logger) of
        undefined -> ok;
        _ -> logger:set_primary_config(level, none)
    end.

main() ->
    quiet_logger(),
    Self = self(),
    t(start_call_cast_stop, fun() ->
        {ok, P} = gen_server:start(?MODULE, {10, Self}, []),
        A = gen_server:call(P, get),
        B = gen_server:call(P, {add, 5}),
        ok = gen_server:cast(P, {set, 100}),
        C = gen_server:call(P, get),
        ok = gen_server:cast(P, report),
        D = receive {report, R} -> R end,
        P ! hello,
        E = receive {info, I} -> I end,
        F = gen_server:call(P, noreply_later),
        G = gen_server:stop(P),
        H = receive {terminated, T} -> T end,
        {A, B, C, D, E, F, G, H, is_process_alive(P), flush()} end),
    t(registered_name, fun() ->
        {ok, P} = gen_server:start({local, gsb_server}, ?MODULE, {1, Self}, []),
        A = gen_server:call(gsb_server, {add, 1}),
        B = gen_server:start({local, gsb_server}, ?MODULE, {1, Self}, []),
        Same = case B of {error, {already_started, P}} -> already_started_same_pid; _ -> B end,
        ok = gen_server:stop(gsb_server, shutdown, infinity),
        {A, Same, receive {terminated, T} -> T end, whereis(gsb_server), flush()} end),
    t(call_timeout, fun() ->
        {ok, P} = gen_server:start(?MODULE, {0, Self}, []),
        R = try gen_server:call(P, slow, 50) catch exit:{timeout, {gen_server, call, _}} -> timeout end,
        %% The late reply went to a deactivated alias: it must not show up.
        X = gen_server:call(P, get),
        ok = gen_server:stop(P),
        receive {terminated, _} -> ok end,
        {R, X, flush()} end),
    t(call_dead_server, fun() ->
        {ok, P} = gen_server:start(?MODULE, {0, Self}, []),
        ok = gen_server:stop(P), receive {terminated, _} -> ok end,
        try gen_server:call(P, get) catch exit:{Why, {gen_server, call, _}} -> Why end end),
    t(call_unregistered, fun() ->
        try gen_server:call(gsb_nobody, get) catch exit:{Why, {gen_server, call, _}} -> Why end end),
    t(stop_from_call, fun() ->
        {ok, P} = gen_server:start(?MODULE, {0, Self}, []),
        M = monitor(process, P),
        R = gen_server:call(P, {stop_with, normal}),
        D = receive {'DOWN', M, process, P, Why} -> Why end,
        {R, D, receive {terminated, T} -> T end} end),
    t(init_stop, fun() -> gen_server:start(?MODULE, {crash_init, no_way}, []) end),
    t(init_ignore, fun() -> gen_server:start(?MODULE, ignore_me, []) end),
    t(concurrent_calls, fun() ->
        %% Clients on every scheduler: each reply must reach its own caller's alias.
        {ok, P} = gen_server:start(?MODULE, {0, Self}, []),
        Clients = [spawn_monitor(fun() -> exit(lists:last([gen_server:call(P, {add, 1}) || _ <- lists:seq(1, 300)])) end)
                   || _ <- lists:seq(1, 4)],
        Lasts = [receive {'DOWN', M, process, C, {ok, N}} -> N > 0 end || {C, M} <- Clients],
        Total = gen_server:call(P, get),
        ok = gen_server:stop(P), receive {terminated, _} -> ok end,
        {Lasts, Total, flush()} end),
    t(start_link, fun() ->
        process_flag(trap_exit, true),
        {ok, P} = gen_server:start_link(?MODULE, {7, Self}, []),
        A = gen_server:call(P, get),
        {links, L} = process_info(self(), links),
        ok = gen_server:stop(P),
        T = receive {terminated, X} -> X end,
        E = receive {'EXIT', P, W} -> W end,
        process_flag(trap_exit, false),
        {A, lists:member(P, L), T, E, flush()} end),
    ok.

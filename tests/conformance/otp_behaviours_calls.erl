%% OTP's own gen_statem, gen_event and supervisor (unmodified .beam files) on top of aliases
%% and monitor/3: their calls go through gen:do_call (a {alias, demonitor} monitor, the reply
%% sent to the alias). This module is the gen_statem callback module and, with init({sup, _}),
%% the supervisor's. Pids and refs never reach the output.
-module(otp_behaviours_calls).
-behaviour(gen_statem).
-export([main/0, init/1, callback_mode/0, handle_event/4]).

t(Label, F) -> io:format("~p: ~p~n", [Label, try F() catch C:R -> {C, R} end]).

callback_mode() -> handle_event_function.

init({sup, Child}) ->
    {ok, {#{strategy => one_for_one, intensity => 5, period => 10},
          [#{id => worker, start => {gen_statem, start_link, [{local, obc_worker}, ?MODULE, Child, []]}}]}};
init(N) -> {ok, idle, N}.

handle_event({call, From}, get, S, N) -> {keep_state_and_data, [{reply, From, {S, N}}]};
handle_event({call, From}, go, _, N) -> {next_state, busy, N + 1, [{reply, From, ok}]};
handle_event(cast, inc, _, N) -> {keep_state, N + 1}.

main() ->
    case whereis(logger) of undefined -> ok; _ -> logger:set_primary_config(level, none) end,
    t(gen_statem, fun() ->
        {ok, P} = gen_statem:start(?MODULE, 1, []),
        A = gen_statem:call(P, get), ok = gen_statem:call(P, go), gen_statem:cast(P, inc),
        B = gen_statem:call(P, get), ok = gen_statem:stop(P),
        {A, B, is_process_alive(P)} end),
    t(gen_statem_call_timeout_dead, fun() ->
        {ok, P} = gen_statem:start(?MODULE, 1, []), ok = gen_statem:stop(P),
        try gen_statem:call(P, get, 100) catch exit:{Why, _} -> Why end end),
    t(gen_event, fun() ->
        {ok, E} = gen_event:start(), H = gen_event:which_handlers(E), ok = gen_event:stop(E), H end),
    %% A crashing child is left out: proc_lib's crash report reads the logger's configuration
    %% from ETS, which beamvm does not have yet.
    t(supervisor, fun() ->
        process_flag(trap_exit, true),
        {ok, Sup} = supervisor:start_link(?MODULE, {sup, 10}),
        A = gen_statem:call(obc_worker, get),
        Kids = [{Id, Type, Mods, is_pid(W)} || {Id, W, Type, Mods} <- supervisor:which_children(Sup)],
        C = supervisor:count_children(Sup),
        ok = supervisor:terminate_child(Sup, worker),
        Gone = whereis(obc_worker),
        {ok, _} = supervisor:restart_child(Sup, worker),
        B = gen_statem:call(obc_worker, go),
        exit(Sup, shutdown),
        receive {'EXIT', Sup, shutdown} -> ok end,
        process_flag(trap_exit, false),
        {A, Kids, C, Gone, B, whereis(obc_worker)} end),
    ok.

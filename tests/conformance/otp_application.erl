%% An OTP application under the booted kernel's application_controller: this module writes
%% two .app files and compiles (compile:forms, on the VM under test) an application callback
%% module and a supervisor into a fresh ebin under /tmp, adds it with code:add_patha/1, then
%% loads, configures, starts (start and ensure_all_started), watches a supervised restart,
%% stops and unloads. The directory is removed at the end.
-module(otp_application).
-export([main/0]).

%% The default handler writes in a process of its own: filesync waits until what was logged
%% before has been written, so reports come out at the same place on every run.
t(Label, F) ->
    R = try F() catch C:E -> {C, E} end,
    ok = logger_std_h:filesync(default),
    io:format("~p: ~p~n", [Label, clean(R)]).

clean(T) when is_pid(T) -> pid;
clean(T) when is_reference(T) -> ref;
clean([H | T]) -> [clean(H) | clean(T)];
clean(T) when is_tuple(T) -> list_to_tuple(clean(tuple_to_list(T)));
clean(T) -> T.

%% oapp_app: the application callback; oapp_sup: its supervisor, with one worker that
%% registers itself as oapp_worker and answers {ping, From}.
sources() ->
    [{oapp_app,
      "-module(oapp_app).\n"
      "-behaviour(application).\n"
      "-export([start/2, prep_stop/1, stop/1]).\n"
      "start(normal, Args) ->\n"
      "    {ok, Mode} = application:get_env(oapp, mode),\n"
      "    {ok, Sup} = supervisor:start_link({local, oapp_sup}, oapp_sup, Args),\n"
      "    {ok, Sup, {state, Mode}}.\n"
      "prep_stop(S) -> oapp_log(prep_stop), S.\n"
      "stop(S) -> oapp_log({stop, S}), ok.\n"
      "oapp_log(X) -> case whereis(oapp_test) of undefined -> ok; P -> P ! {oapp, X} end.\n"},
     {oapp_sup,
      "-module(oapp_sup).\n"
      "-behaviour(supervisor).\n"
      "-export([init/1, start_worker/0, worker/0]).\n"
      "init(Args) ->\n"
      "    {ok, {#{strategy => one_for_one, intensity => 3, period => 10},\n"
      "          [#{id => oapp_worker, start => {oapp_sup, start_worker, []}, modules => [oapp_sup]}]}}.\n"
      "start_worker() -> {ok, spawn_link(fun() -> register(oapp_worker, self()), worker() end)}.\n"
      "worker() -> receive {ping, From} -> From ! {pong, application:get_application()}, worker() end.\n"}].

app_files() ->
    [{"oapp_dep.app",
      {application, oapp_dep,
       [{description, "a library application"}, {vsn, "0.1"}, {modules, []},
        {registered, []}, {applications, [kernel, stdlib]}, {env, [{depth, 1}]}]}},
     {"oapp.app",
      {application, oapp,
       [{description, "conformance test application"}, {vsn, "1.2.3"},
        {modules, [oapp_app, oapp_sup]}, {registered, [oapp_sup, oapp_worker]},
        {applications, [kernel, stdlib, oapp_dep]},
        {mod, {oapp_app, [from_app_file]}},
        {env, [{mode, quiet}, {limit, 10}, {nested, #{a => [1, 2]}}]}]}}].

compile_into(Dir, {Mod, Src}) ->
    {ok, Tokens, _} = erl_scan:string(Src),
    Forms = split_forms(Tokens, []),
    {ok, Mod, Bin} = compile:forms(Forms, [binary, return_errors]),
    ok = file:write_file(filename:join(Dir, atom_to_list(Mod) ++ ".beam"), Bin),
    Mod.

split_forms([], []) -> [];
split_forms([T = {dot, _} | Rest], Acc) ->
    {ok, Form} = erl_parse:parse_form(lists:reverse([T | Acc])),
    [Form | split_forms(Rest, [])];
split_forms([T | Rest], Acc) -> split_forms(Rest, [T | Acc]).

ours(Apps) -> [A || A <- Apps, lists:member(element(1, A), [oapp, oapp_dep])].

wait_registered(Name, 0) -> {not_registered, Name};
wait_registered(Name, N) ->
    case whereis(Name) of
        undefined -> receive after 5 -> wait_registered(Name, N - 1) end;
        P -> P
    end.

ping() -> oapp_worker ! {ping, self()}, receive {pong, A} -> A after 2000 -> no_pong end.

notes() -> receive {oapp, X} -> [X | notes()] after 0 -> [] end.

%% The reports the default handler prints (a supervisor report, the application exits) show
%% where they come from and their level, without times and pids.
quiet_formatter() ->
    logger:set_handler_config(default, formatter,
                              {logger_formatter, #{template => ["=", level, " from ", mfa, "\n"]}}).

main() ->
    ok = quiet_formatter(),
    register(oapp_test, self()),
    Dir = "/tmp/beamvm_otp_application_" ++ os:getpid(),
    Ebin = filename:join(Dir, "ebin"),
    ok = filelib:ensure_dir(filename:join(Ebin, "x")),
    t(build_ebin, fun() ->
        Mods = [compile_into(Ebin, S) || S <- sources()],
        [ok = file:write_file(filename:join(Ebin, F), io_lib:format("~p.~n", [T])) || {F, T} <- app_files()],
        {Mods, lists:sort(filelib:wildcard("*", Ebin))} end),
    t(add_patha, fun() -> {code:add_patha(Ebin), hd(code:get_path()) =:= Ebin} end),
    t(load, fun() ->
        A = application:load(oapp),
        B = application:load(oapp),
        C = application:load(no_such_app_here),
        {A, B, C, ours(application:loaded_applications())} end),
    t(env, fun() ->
        A = application:get_env(oapp, mode),
        B = application:get_env(oapp, missing),
        C = application:get_env(oapp, missing, fallback),
        ok = application:set_env(oapp, mode, loud),
        ok = application:set_env(oapp, extra, [1, 2, 3], [{persistent, true}]),
        D = lists:sort(application:get_all_env(oapp)),
        ok = application:unset_env(oapp, extra),
        ok = application:set_env(oapp, mode, quiet),
        E = application:get_key(oapp, vsn),
        F = application:get_key(oapp, registered),
        {ok, Keys} = application:get_all_key(oapp),
        G = lists:sort([K || {K, _} <- Keys]),
        H = lists:keyfind(mod, 1, Keys),
        I = application:get_env(oapp_dep, depth),
        J = application:get_key(no_such_app_here, vsn),
        {A, B, C, D, E, F, G, H, I, J} end),
    t(start_missing_dependency, fun() -> application:start(oapp) end),
    t(ensure_all_started, fun() ->
        A = application:ensure_all_started(oapp),
        B = application:ensure_all_started(oapp),
        C = application:start(oapp),
        D = ours(application:which_applications()),
        E = application:get_application(whereis(oapp_sup)),
        F = ping(),
        G = application:get_application(),
        {A, B, C, D, E, F, G} end),
    t(supervised_restart, fun() ->
        Old = whereis(oapp_worker),
        M = monitor(process, Old),
        exit(Old, kill),
        receive {'DOWN', M, process, Old, R} -> R end,
        New = wait_registered(oapp_worker, 400),
        {New =/= Old, is_pid(New), ping(),
         [{Id, is_pid(P)} || {Id, P, _, _} <- supervisor:which_children(oapp_sup)],
         supervisor:count_children(oapp_sup)} end),
    t(stop, fun() ->
        Sup = whereis(oapp_sup),
        M = monitor(process, Sup),
        A = application:stop(oapp),
        D = receive {'DOWN', M, process, Sup, R} -> R after 2000 -> still_alive end,
        B = application:stop(oapp),
        C = ours(application:which_applications()),
        {A, notes(), D, B, C, whereis(oapp_worker)} end),
    t(start_again_temporary, fun() ->
        A = application:start(oapp, temporary),
        B = ping(),
        C = application:stop(oapp),
        {A, B, C, notes()} end),
    t(unload, fun() ->
        A = application:unload(oapp),
        B = application:unload(oapp),
        C = application:stop(oapp_dep),
        D = application:unload(oapp_dep),
        {A, B, C, D, ours(application:loaded_applications()), application:get_env(oapp, mode)} end),
    t(cleanup, fun() ->
        A = code:del_path(Ebin),
        [code:purge(M) || M <- [oapp_app, oapp_sup]],
        [code:delete(M) || M <- [oapp_app, oapp_sup]],
        [file:delete(F) || F <- filelib:wildcard(filename:join(Ebin, "*"))],
        ok = file:del_dir(Ebin),
        ok = file:del_dir(Dir),
        {A, filelib:is_dir(Dir)} end),
    ok.

%% OTP's logger under the booted kernel: every level with the primary level raised, the
%% primary configuration, a handler with its own formatter configuration, a logger_std_h
%% handler writing to a file that is read back, and the crash reports of proc_lib processes,
%% of plain processes (sent by the VM itself) and of supervisors. The default handler prints
%% without a time (its formatter's template is set first); what the file handler wrote is
%% printed with times, pids and process sizes replaced. Before each line the test prints, it
%% waits until logger_proxy, the logger process and the default handler have written what came
%% before.
-module(otp_logger).
-behaviour(supervisor).
-export([main/0, format/2, log/2, init/1, crashing_child/0]).

sync() ->
    %% The VM's own reports go to logger_proxy (the system_logger), which logs them from its
    %% process; the rest is logged from the logging process or the logger server.
    _ = sys:get_state(logger_proxy),
    _ = sys:get_state(logger),
    ok = logger_std_h:filesync(default).

t(Label, F) ->
    R = try F() catch C:E -> {C, E} end,
    sync(),
    io:format("~p: ~p~n", [Label, R]).

%% A formatter of our own: logger calls Mod:format(LogEvent, Config). With `prefix` it formats
%% by itself; otherwise it is logger_formatter with pids and sizes scrubbed, for the default
%% handler.
format(Event, Config = #{template := _}) -> scrub(logger_formatter:format(Event, Config));
format(#{level := L, msg := Msg}, #{prefix := P}) ->
    Text = case Msg of
               {string, S} -> S;
               {report, R} -> io_lib:format("~p", [R]);
               {F, A} -> io_lib:format(F, A)
           end,
    [P, atom_to_list(L), " | ", Text, "\n"].

%% A handler of our own: tells the test process of each event. The VM's own reports (a plain
%% process crashing) reach logger from a thread of erl's emulator at a time of its choosing,
%% so the test waits for this before printing.
log(#{level := L, msg := Msg}, #{config := #{to := To}}) ->
    To ! {logged, L, case Msg of {F, _} when is_list(F) -> F; _ -> other end}.

wait_logged(Format) ->
    receive {logged, _, Format} -> ok after 5000 -> not_logged end.

%% Supervisor with a child that dies at once, for the supervisor reports.
init(child) ->
    {ok, {#{strategy => one_for_one, intensity => 1, period => 10},
          [#{id => crasher, start => {?MODULE, crashing_child, []}, restart => permanent}]}}.

crashing_child() -> {ok, spawn_link(fun() -> exit(child_gave_up) end)}.

%% Times (2026-12-01T21:30:05.123456+00:00 and the like), pids, and the numbers that differ
%% between emulators (heap and stack sizes, reductions) are replaced.
scrub(Text) ->
    Rules = [{"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d+([+-]\\d\\d:\\d\\d|Z)?", "TIME"},
             {"<\\d+\\.\\d+\\.\\d+>", "<PID>"},
             {"(heap_size|stack_size|reductions): \\d+", "\\1: N"},
             {"#Ref<[\\d.]+>", "#Ref"}],
    lists:foldl(fun({Re, Sub}, T) -> re:replace(T, Re, Sub, [global, {return, binary}]) end,
                Text, Rules).

main() ->
    ok = logger:set_handler_config(default, formatter,
                                   {?MODULE, #{template => ["[", level, "] ", msg, "\n"],
                                               single_line => true}}),
    t(primary_config, fun() -> logger:get_primary_config() end),
    t(default_levels, fun() ->
        [logger:L("at ~p", [L]) || L <- levels()], ok end),
    t(raise_primary, fun() ->
        ok = logger:set_primary_config(level, all),
        [logger:L("raised ~p", [L]) || L <- levels()],
        maps:get(level, logger:get_primary_config()) end),
    t(handler_level, fun() ->
        ok = logger:set_handler_config(default, level, error),
        [logger:L("handler ~p", [L]) || L <- levels()],
        ok = logger:set_handler_config(default, level, all),
        maps:get(level, element(2, logger:get_handler_config(default))) end),
    t(reports_and_metadata, fun() ->
        logger:notice(#{what => a_report, n => 1}),
        logger:warning("with metadata ~p", [x], #{domain => [test]}),
        logger:log(info, "log/3 ~s", ["text"]),
        logger:error(#{what => "string in report"}, #{report_cb => fun(R) -> {"cb: ~p", [maps:get(what, R)]} end}),
        ?MODULE:unknown_level_call() end),
    t(set_primary_filters, fun() ->
        ok = logger:set_primary_config(#{level => warning}),
        [logger:L("after set ~p", [L]) || L <- levels()],
        ok = logger:add_primary_filter(no_secret, {fun(#{msg := {string, "secret"}}, _) -> stop; (E, _) -> E end, []}),
        logger:error("secret"), logger:error("public"),
        ok = logger:remove_primary_filter(no_secret),
        logger:error("secret"),
        ok = logger:set_primary_config(level, all),
        maps:get(level, logger:get_primary_config()) end),
    t(custom_formatter_handler, fun() ->
        %% Each handler writes from its own process: `mine` writes to a file, printed after.
        MineFile = "/tmp/beamvm_otp_logger_mine_" ++ os:getpid() ++ ".log",
        A = logger:add_handler(mine, logger_std_h,
                               #{config => #{file => MineFile},
                                 formatter => {?MODULE, #{prefix => "MINE "}}}),
        B = logger:add_handler(mine, logger_std_h, #{}),
        logger:warning("to both ~p", [handlers]),
        logger:info(#{k => v}),
        {ok, #{formatter := Fm}} = logger:get_handler_config(mine),
        ok = logger:update_formatter_config(mine, prefix, "MINE2 "),
        logger:notice("updated"),
        ok = logger_std_h:filesync(mine),
        C = logger:remove_handler(mine),
        D = logger:remove_handler(mine),
        logger:notice("only default"),
        sync(),
        {ok, Bin} = file:read_file(MineFile),
        ok = file:delete(MineFile),
        io:put_chars(Bin),
        {A, element(1, B), Fm, C, D} end),
    t(file_handler, fun() ->
        File = "/tmp/beamvm_otp_logger_" ++ os:getpid() ++ ".log",
        A = logger:add_handler(to_file, logger_std_h,
                               #{config => #{file => File}, level => info,
                                 formatter => {logger_formatter, #{}}}),
        logger:info("into the file ~p", [1]),
        logger:debug("not into the file"),
        logger:error(#{report => in_file}),
        ok = logger_std_h:filesync(to_file),
        ok = logger:remove_handler(to_file),
        {ok, Bin} = file:read_file(File),
        ok = file:delete(File),
        io:put_chars(scrub(Bin)),
        A end),
    File = "/tmp/beamvm_otp_logger_reports_" ++ os:getpid() ++ ".log",
    ok = logger:add_handler(reports, logger_std_h, #{config => #{file => File}}),
    t(proc_lib_crash, fun() ->
        {P, M} = proc_lib:spawn_opt(fun() -> put(note, kept), exit({gave_up, 42}) end, [monitor]),
        receive {'DOWN', M, process, P, R} -> R end end),
    t(proc_lib_error, fun() ->
        {P, M} = proc_lib:spawn_opt(fun() -> 1 = length(atom_to_list(id(two))) end, [monitor]),
        receive {'DOWN', M, process, P, {R, _}} -> R end end),
    t(plain_process_crash, fun() ->
        ok = logger:add_handler(notify, ?MODULE, #{config => #{to => self()}, level => error}),
        {P, M} = spawn_monitor(fun() -> error(plain_crash) end),
        R = receive {'DOWN', M, process, P, {Why, _}} -> Why end,
        W = wait_logged("Error in process ~p with exit value:~n~p~n"),
        ok = logger:remove_handler(notify),
        {R, W} end),
    t(plain_process_exit_not_reported, fun() ->
        {P, M} = spawn_monitor(fun() -> exit(quiet_exit) end),
        receive {'DOWN', M, process, P, R} -> R end end),
    t(supervisor_reports, fun() ->
        process_flag(trap_exit, true),
        {ok, S} = supervisor:start_link(?MODULE, child),
        R = receive {'EXIT', S, W} -> W end,
        process_flag(trap_exit, false),
        R end),
    t(reports_file, fun() ->
        ok = logger_std_h:filesync(reports),
        ok = logger:remove_handler(reports),
        {ok, Bin} = file:read_file(File),
        ok = file:delete(File),
        io:put_chars(scrub(Bin)),
        ok end),
    t(handler_ids, fun() -> lists:sort(logger:get_handler_ids()) end),
    ok.

levels() -> [emergency, alert, critical, error, warning, notice, info, debug].
id(X) -> X.

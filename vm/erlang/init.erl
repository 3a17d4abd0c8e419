%% beamvm's start-up module. It stands in for OTP's init until beamvm boots OTP's own:
%% it runs the command line's -s, -run and -eval commands in order, as OTP's init does, and
%% provides the init functions that programs call. It is compiled without line information
%% so that stack traces end in {init,start_em,1,[]},{init,do_boot,3,[]} exactly as on erl.
-module(init).
-compile(no_line_info).
-export([do_boot/3, stop/0, stop/1, get_plain_arguments/0, get_arguments/0, get_argument/1,
         script_id/0, get_status/0]).

%% Commands: [{Module, Function, Args | none}]. Mode: noshell (as erl: stay up, which for
%% beamvm means end when nothing is left to run) or script (halt when main returns).
do_boot(Commands, Mode, _Flags) ->
    %% OTP's init traps exits, and -s functions run in it: programs can tell.
    process_flag(trap_exit, true),
    start_file_server(),
    case catch start_em(Commands) of
        {'EXIT', Reason} ->
            erlang:display({"init terminating in do_boot", Reason}),
            beamvm_internal:report_boot_crash(Reason),
            erlang:halt(1);
        _ when Mode =:= script ->
            erlang:halt(0);
        _ ->
            ok
    end.

start_em([{eval, Text} | Rest]) ->
    start_it({eval, Text}),
    start_em(Rest);
start_em([{M, F, none} | Rest]) ->
    M:F(),
    start_em(Rest);
start_em([{M, F, Args} | Rest]) ->
    M:F(Args),
    start_em(Rest);
start_em([]) ->
    ok.

%% The file module asks the registered process file_server_2 (kernel's file_server, which
%% OTP's kernel supervisor starts) for file:open/2, read_file/1 and friends. beamvm does not
%% boot kernel, so it registers that server here, unlinked: a crash in it is the file module's
%% callers' concern, never the VM's. The server starts on its first request: starting it
%% loads file_server, gen_server, gen and proc_lib, which cost a program that never asks
%% about 0.8 MB of resident memory and 1-2 ms (docs/benchmarks.md, "Issue 11: quick
%% start-up"). Without ETS, beamvm_file_server stands in for the one part of file_server
%% that needs a table.
start_file_server() ->
    case whereis(file_server_2) of
        undefined ->
            Init = self(),
            catch register(file_server_2, spawn(fun() -> file_server_on_demand(Init) end));
        _ ->
            ok
    end.

%% Waits for the first request, then becomes the gen_server that file_server:start/0 would
%% have started and handles it. The request is sent back to the mailbox's end: messages
%% that arrived meanwhile are from other senders (the file module's calls wait for their
%% replies), whose order relative to it no one can rely on.
file_server_on_demand(Init) ->
    receive
        First ->
            Mod = case erlang:is_builtin(ets, new, 2) of
                      true -> file_server;
                      false -> beamvm_file_server
                  end,
            {ok, State} = Mod:init([]),
            %% What proc_lib:start would have recorded (enter_loop/4 reads the parent there).
            put('$ancestors', [Init]),
            put('$initial_call', {Mod, init, 1}),
            self() ! First,
            gen_server:enter_loop(Mod, [], State, {local, file_server_2})
    end.

%% -eval: the text as expressions, as OTP's init evaluates it (with a final dot if it has none).
start_it({eval, Text}) ->
    {ok, Tokens0, _} = erl_scan:string(Text),
    Tokens = case lists:reverse(Tokens0) of
                 [{dot, _} | _] -> Tokens0;
                 Reversed -> lists:reverse([{dot, erl_anno:new(1)} | Reversed])
             end,
    {ok, Exprs} = erl_parse:parse_exprs(Tokens),
    {value, _Value, _Bindings} = erl_eval:exprs(Exprs, erl_eval:new_bindings()),
    ok.

stop() -> erlang:halt(0).
stop(Status) -> erlang:halt(Status).
get_plain_arguments() -> [].
get_arguments() -> [].
get_argument(_) -> error.
script_id() -> {"beamvm", "0"}.
get_status() -> {started, started}.

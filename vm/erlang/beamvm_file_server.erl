%% The file server (registered as file_server_2) while beamvm has no ETS: OTP's own
%% file_server callbacks do the work, except the one thing that needs ETS, the table of
%% open file_io_server processes (file_server:init/1 creates it, open and 'EXIT' update
%% it; nothing in kernel reads it). init.erl starts OTP's file_server itself as soon as
%% ets:new/2 works, and this module then goes unused.
-module(beamvm_file_server).
-behaviour(gen_server).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2, code_change/3]).

init([]) ->
    process_flag(trap_exit, true),
    {ok, undefined}.

handle_call({open, Name, ModeList}, {Pid, _Tag}, State) when is_list(ModeList) ->
    {reply, file_io_server:start_link(Pid, Name, ModeList), State};
handle_call(Request, From, State) ->
    file_server:handle_call(Request, From, State).

handle_cast(Msg, State) ->
    file_server:handle_cast(Msg, State).

handle_info({'EXIT', Pid, _Reason}, State) when is_pid(Pid) ->
    {noreply, State};
handle_info(Info, State) ->
    file_server:handle_info(Info, State).

terminate(Reason, State) ->
    file_server:terminate(Reason, State).

code_change(OldVsn, State, Extra) ->
    file_server:code_change(OldVsn, State, Extra).

%% Erlang continuations of natives that cannot finish at once (OTP's BIF_TRAP targets): the
%% native hands its call over to one of these, which waits without holding a scheduler.
-module(beamvm_traps).
-export([process_info/1, process_info/2, process_display/2, internal_state/2, after_signals/1, re_run/3, garbage_collect/0]).

%% process_info/1,2 and process_display/2 met another process running (or busy in a long
%% native call): give up the time slice, then ask again. (A target that never stops running is
%% never read this way: erts sends it a request it answers between time slices instead.)
process_info(Pid) ->
    erlang:yield(),
    erlang:process_info(Pid).

process_info(Pid, Items) ->
    erlang:yield(),
    erlang:process_info(Pid, Items).

process_display(Pid, Type) ->
    erlang:yield(),
    erts_internal:process_display(Pid, Type).

%% erts_debug:get_internal_state({link_list | monitor_list, Pid}), the same way.
internal_state(_Pid, Request) ->
    erlang:yield(),
    erts_debug:get_internal_state(Request).

%% An answer that must come after the signals waiting for the caller (process_info/1,2 of a
%% process that is gone, behind that process's exit signals): the caller takes them in first.
after_signals(Answer) ->
    erlang:yield(),
    Answer.

%% re:run/2,3 or re:internal_run/4 whose match needed more work than its share
%% (re/re_natives.cpp): give up the time slice, then run it again with a larger share.
re_run(Subject, RE, {Options, First, Share}) ->
    erlang:yield(),
    beamvm:re_run(Subject, RE, Options, First, Share).

%% erts_internal:garbage_collect(major | minor) (erlang:garbage_collect/1,2 on the caller): the
%% native set the kind; this call is the instruction that collects (a native cannot).
garbage_collect() ->
    erlang:garbage_collect().

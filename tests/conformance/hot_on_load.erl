%% -on_load: the function runs in a process of its own before the module can be called; a
%% result other than ok, or a crash, leaves the module unloaded. Helper modules:
%% tests/conformance/hot/hc_onload_{ok,bad,crash}.erl.
-module(hot_on_load).
-export([main/0]).

main() ->
    %% erl reports on_load failures through logger on stdout, with a time stamp: silence it.
    catch logger:remove_handler(default),
    put(hc_marker, set_in_the_caller),
    show(load_ok, code:load_file(hc_onload_ok)),
    show(call_ok, hc_onload_ok:f()),
    show(loaded_ok, erlang:module_loaded(hc_onload_ok)),
    show(status_ok, code:module_status(hc_onload_ok)),

    show(load_bad, code:load_file(hc_onload_bad)),
    show(loaded_bad, erlang:module_loaded(hc_onload_bad)),
    show(is_loaded_bad, code:is_loaded(hc_onload_bad)),
    show(status_bad, code:module_status(hc_onload_bad)),
    show(call_bad, catch_class(fun() -> hc_onload_bad:f() end)),
    show(ensure_loaded_bad, code:ensure_loaded(hc_onload_bad)),

    show(load_crash, code:load_file(hc_onload_crash)),
    show(loaded_crash, erlang:module_loaded(hc_onload_crash)),
    show(call_crash, catch_class(fun() -> hc_onload_crash:f() end)),

    %% Autoloading on first call runs on_load too.
    show(delete_ok, code:delete(hc_onload_ok)),
    show(purge_ok, code:purge(hc_onload_ok)),
    show(autoload_call_ok, hc_onload_ok:f()),

    %% The prepare/finish protocol underneath.
    {hc_onload_ok, Bin, _} = code:get_object_code(hc_onload_ok),
    Prep = erlang:prepare_loading(hc_onload_ok, Bin),
    show(has_on_load, erlang:has_prepared_code_on_load(Prep)),
    show(has_on_load_bad_arg, catch_class(fun() -> erlang:has_prepared_code_on_load(not_prepared) end)),
    show(prepare_badfile, erlang:prepare_loading(hc_onload_ok, <<"junk">>)),
    show(prepare_badarg, catch_class(fun() -> erlang:prepare_loading("m", Bin) end)),
    show(finish_not_purged, erlang:finish_loading([Prep])),
    show(finish_badarg, catch_class(fun() -> erlang:finish_loading([not_a_ref]) end)),
    show(purge_for_finish, code:purge(hc_onload_ok)),
    {hc_onload_ok, Bin2, _} = code:get_object_code(hc_onload_ok),
    Prep2 = erlang:prepare_loading(hc_onload_ok, Bin2),
    show(finish_on_load, erlang:finish_loading([Prep2])),
    show(finish_used_twice, catch_class(fun() -> erlang:finish_loading([Prep2]) end)),
    show(loaded_before_on_load_ran, erlang:module_loaded(hc_onload_ok)),
    show(call_on_load_function, erlang:call_on_load_function(hc_onload_ok)),
    show(finish_after_on_load, erlang:finish_after_on_load(hc_onload_ok, true)),
    show(loaded_after_on_load, erlang:module_loaded(hc_onload_ok)),
    show(call_after_on_load, hc_onload_ok:f()),
    show(call_on_load_function_none, catch_class(fun() -> erlang:call_on_load_function(hc_onload_ok) end)),
    show(finish_after_on_load_none, catch_class(fun() -> erlang:finish_after_on_load(hc_onload_ok, true) end)),

    {hc_onload_bad, BadBin, _} = code:get_object_code(hc_onload_bad),
    show(load_module_on_load, erlang:load_module(hc_onload_bad, BadBin)),
    show(loaded_waiting, erlang:module_loaded(hc_onload_bad)),
    show(finish_after_on_load_false, erlang:finish_after_on_load(hc_onload_bad, false)),
    show(loaded_after_false, erlang:module_loaded(hc_onload_bad)),
    ok.

catch_class(F) ->
    try F() catch Class:Reason -> {Class, strip(Reason)} end.

%% Stack traces inside reasons name code_server on erl and beamvm_code on beamvm.
strip({Reason, Stack}) when is_list(Stack) -> Reason;
strip(Reason) -> Reason.

show(Label, Value) -> io:format("~p: ~p~n", [Label, Value]).

%% module_info, erlang:get_module_info, function_exported, check_process_code's arguments and
%% OTP's code module functions around loading (is_loaded, which, get_object_code, paths,
%% ensure_loaded, module_status, c:l/1).
-module(hot_code_functions).
-export([main/0, exported/1]).

exported(X) -> X.

main() ->
    catch logger:remove_handler(default),
    show(module_info, ?MODULE:module_info()),
    [show({module_info, K}, ?MODULE:module_info(K))
     || K <- [module, exports, functions, attributes, compile, nifs]],
    show(md5_size, byte_size(?MODULE:module_info(md5))),
    show(md5_same, ?MODULE:module_info(md5) =:= erlang:get_module_info(?MODULE, md5)),
    show(module_info_bad_key, catch_class(fun() -> ?MODULE:module_info(no_such_key) end)),
    show(get_module_info_unloaded, catch_class(fun() -> erlang:get_module_info(hc_never_loaded) end)),
    show(get_module_info_not_atom, catch_class(fun() -> erlang:get_module_info("m") end)),
    show(lists_exports_sample, lists:sublist(lists:sort(lists:module_info(exports)), 5)),

    show(exported_self, erlang:function_exported(?MODULE, exported, 1)),
    show(exported_wrong_arity, erlang:function_exported(?MODULE, exported, 2)),
    show(exported_local, erlang:function_exported(?MODULE, show, 2)),
    show(exported_bif, erlang:function_exported(erlang, self, 0)),
    show(exported_unloaded, erlang:function_exported(hc_never_loaded, f, 0)),
    show(exported_bad, catch_class(fun() -> erlang:function_exported(1, f, 0) end)),
    show(exported_bad_arity, catch_class(fun() -> erlang:function_exported(m, f, -1) end)),
    show(module_loaded_self, erlang:module_loaded(?MODULE)),
    show(module_loaded_unknown, erlang:module_loaded(hc_never_loaded)),
    show(module_loaded_bad, catch_class(fun() -> erlang:module_loaded("m") end)),
    show(in_loaded, lists:member(?MODULE, erlang:loaded())),

    Self = self(),
    show(cpc_no_old_code, erlang:check_process_code(Self, ?MODULE)),
    show(cpc_options, erlang:check_process_code(Self, ?MODULE, [{allow_gc, false}])),
    show(cpc_async, erlang:check_process_code(Self, ?MODULE, [{async, req1}])),
    show(cpc_async_reply, receive {check_process_code, req1, R} -> R after 1000 -> none end),
    show(cpc_bad_pid, catch_class(fun() -> erlang:check_process_code(self, ?MODULE) end)),
    show(cpc_bad_module, catch_class(fun() -> erlang:check_process_code(Self, "m") end)),
    show(cpc_bad_option, catch_class(fun() -> erlang:check_process_code(Self, ?MODULE, [bad]) end)),
    show(cpc_dead_process, erlang:check_process_code(dead_pid(), ?MODULE)),
    show(check_old_code_bad, catch_class(fun() -> erlang:check_old_code("m") end)),
    show(purge_module_bad, catch_class(fun() -> erlang:purge_module("m") end)),
    show(delete_module_bad, catch_class(fun() -> erlang:delete_module("m") end)),
    show(delete_module_unknown, erlang:delete_module(hc_never_loaded)),

    Ebin = filename:dirname(code:which(?MODULE)),
    show(which_self_is_in_ebin, code:which(?MODULE) =:= filename:join(Ebin, "hot_code_functions.beam")),
    show(which_unknown, code:which(hc_never_loaded)),
    show(is_loaded_self, code:is_loaded(?MODULE) =:= {file, code:which(?MODULE)}),
    show(is_loaded_unknown, code:is_loaded(hc_never_loaded)),
    show(all_loaded_has_self,
         lists:keyfind(?MODULE, 1, code:all_loaded()) =:= {?MODULE, code:which(?MODULE)}),
    {?MODULE, Bin, File} = code:get_object_code(?MODULE),
    show(object_code, {is_binary(Bin), File =:= code:which(?MODULE)}),
    show(object_code_unknown, code:get_object_code(hc_never_loaded)),
    show(status_self, code:module_status(?MODULE)),
    show(status_unknown, code:module_status(hc_never_loaded)),

    V2 = filename:join(Ebin, "hot_v2"),
    show(which_versioned_before, code:which(hc_mod)),
    show(add_patha, code:add_patha(V2)),
    show(which_versioned_after, code:which(hc_mod) =:= filename:join(V2, "hc_mod.beam")),
    show(add_bad_dir, code:add_patha(filename:join(Ebin, "no_such_dir"))),
    show(add_pathz_bad_dir, code:add_pathz(filename:join(Ebin, "no_such_dir"))),
    show(ensure_loaded, code:ensure_loaded(hc_mod)),
    show(ensure_loaded_again, code:ensure_loaded(hc_mod)),
    show(ensure_loaded_unknown, code:ensure_loaded(hc_never_loaded)),
    show(version, hc_mod:version()),
    show(status_loaded, code:module_status(hc_mod)),
    show(c_l, c:l(hc_mod)),
    show(c_l_again, c:l(hc_mod)),
    show(load_file_not_purged, code:load_file(hc_mod)),
    show(load_file_unknown, code:load_file(hc_never_loaded)),
    show(del_path, code:del_path(V2)),
    show(del_path_again, code:del_path(V2)),
    show(status_removed, code:module_status(hc_mod)),
    show(load_binary, code:load_binary(hc_mod, "hc_mod_from_binary.beam", element(2, object(1)))),
    show(is_loaded_binary, code:is_loaded(hc_mod)),
    show(load_binary_bad, catch_class(fun() -> code:load_binary(hc_mod, "x", not_a_binary) end)),
    show(soft_purge, code:soft_purge(hc_mod)),
    show(delete, code:delete(hc_mod)),
    show(purge, code:purge(hc_mod)),
    ok.

object(N) ->
    Dir = filename:join(filename:dirname(code:which(?MODULE)), "hot_v" ++ integer_to_list(N)),
    true = code:add_patha(Dir),
    R = code:get_object_code(hc_mod),
    true = code:del_path(Dir),
    R.

dead_pid() ->
    {Pid, Ref} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', Ref, process, Pid, _} -> Pid end.

catch_class(F) ->
    try F() catch Class:Reason -> {Class, Reason} end.


show(Label, Value) -> io:format("~p: ~p~n", [Label, Value]).

%% Hot code loading: two versions per module, switching at fully qualified calls, funs and
%% literals of old code, check_process_code, purge (hard and soft), not_purged, delete.
%% The versions of hc_mod are tests/conformance/hot/versions/hc_mod.erl built with -DVSN=1..3.
-module(hot_code).
-export([main/0]).

main() ->
    %% erl reports failed loads and deletes through logger on stdout, with a time stamp:
    %% silence it (beamvm has no logger running; the call fails there and is caught).
    catch logger:remove_handler(default),
    show(load_v1, code:load_abs(version_path(1))),
    show(version, hc_mod:version()),
    show(old_code_after_first_load, erlang:check_old_code(hc_mod)),
    Literal1 = hc_mod:literal(),
    Server = spawn(hc_mod, loop, [0]),
    OldCodeHolder = spawn(hc_mod, holder, [nothing]),
    FunV1 = hc_mod:make_fun(),
    FunHolder = spawn(fun() -> hold(FunV1) end),
    %% A process running this module's code that got a literal of version 1 itself.
    Parent = self(),
    LiteralHolder = spawn(fun() -> L = hc_mod:literal(), Parent ! ready, hold(L) end),
    receive ready -> ok end,
    show(server_local, ask(Server, local)),
    show(only_in_v1, hc_mod:only_in_v1()),

    show(load_v2, code:load_abs(version_path(2))),
    show(version, hc_mod:version()),
    show(old_code, erlang:check_old_code(hc_mod)),
    show(only_in_v1_after_v2, catch_class(fun() -> hc_mod:only_in_v1() end)),
    show(server_local_stays_v1, ask(Server, local)),
    show(server_remote_reaches_v2, ask(Server, remote)),
    show(server_uses_old, erlang:check_process_code(Server, hc_mod)),
    show(fun_holder_uses_old, erlang:check_process_code(FunHolder, hc_mod)),
    show(literal_holder_uses_old, erlang:check_process_code(LiteralHolder, hc_mod)),
    show(old_code_holder_uses_old, erlang:check_process_code(OldCodeHolder, hc_mod)),
    show(self_uses_old, erlang:check_process_code(self(), hc_mod)),
    {held, OldFun} = ask(FunHolder, get),
    show(old_fun_calls_old_code, OldFun()),
    show(new_fun_calls_new_code, (hc_mod:make_fun())()),
    show(upgrade, ask(Server, upgrade)),
    show(server_local_now_v2, ask(Server, local)),
    show(server_uses_old_after_upgrade, erlang:check_process_code(Server, hc_mod)),
    show(count_kept_across_upgrade, ask(Server, count)),

    show(load_v3_not_purged, code:load_abs(version_path(3))),
    {hc_mod, Bin3, _} = object_code(3),
    show(load_module_v3_not_purged, erlang:load_module(hc_mod, Bin3)),
    show(delete_with_old_code, catch_class(fun() -> erlang:delete_module(hc_mod) end)),
    show(soft_purge_refused, code:soft_purge(hc_mod)),
    show(old_code_still_there, erlang:check_old_code(hc_mod)),
    show(old_fun_still_works, OldFun()),

    %% The old fun is ours too now: drop it by running the purge in a process of its own.
    FunRef = monitor(process, FunHolder),
    ServerRef = monitor(process, Server),
    LitRef = monitor(process, LiteralHolder),
    OldCodeRef = monitor(process, OldCodeHolder),
    show(purge, in_fresh_process(fun() -> erlang:purge_module(hc_mod) end)),
    show(fun_holder_down, down(FunRef)),
    show(old_code_holder_down, down(OldCodeRef)),
    show(old_code_after_purge, erlang:check_old_code(hc_mod)),
    show(server_alive, is_process_alive(Server)),
    show(literal_holder_alive, is_process_alive(LiteralHolder)),
    show(literal_held_by_other, ask(LiteralHolder, get)),
    show(literal_held_by_self, Literal1),
    show(purge_without_old_code, catch_class(fun() -> erlang:purge_module(hc_mod) end)),
    show(code_purge_without_old_code, code:purge(hc_mod)),
    show(soft_purge_without_old_code, code:soft_purge(hc_mod)),

    show(load_v3, code:load_abs(version_path(3))),
    show(version, hc_mod:version()),
    show(server_local_still_v2, ask(Server, local)),
    show(server_uses_old_v2, erlang:check_process_code(Server, hc_mod)),
    show(code_purge_kills, in_fresh_process(fun() -> code:purge(hc_mod) end)),
    show(server_down, down(ServerRef)),

    show(delete, erlang:delete_module(hc_mod)),
    show(loaded_after_delete, erlang:module_loaded(hc_mod)),
    show(call_after_delete, catch_class(fun() -> hc_mod:version() end)),
    show(old_after_delete, erlang:check_old_code(hc_mod)),
    show(delete_again, catch_class(fun() -> erlang:delete_module(hc_mod) end)),
    show(purge_deleted, erlang:purge_module(hc_mod)),
    show(delete_unloaded, erlang:delete_module(hc_mod)),
    show(old_after_purge, erlang:check_old_code(hc_mod)),

    %% load_module/2 with a binary, a bad binary, and a name that does not match.
    {hc_mod, Bin1, _} = object_code(1),
    show(load_module_v1, erlang:load_module(hc_mod, Bin1)),
    show(load_module_badfile, erlang:load_module(hc_mod, <<"not a beam file">>)),
    show(load_module_wrong_name, erlang:load_module(other_name, Bin1)),
    show(load_module_not_binary, catch_class(fun() -> erlang:load_module(hc_mod, not_binary) end)),
    show(version, hc_mod:version()),
    LiteralHolder ! stop,
    show(literal_holder_down, down(LitRef)),
    show(purge_old_v3, code:purge(hc_mod)),
    show(delete_for_cleanup, code:delete(hc_mod)),
    show(purge_for_cleanup, code:purge(hc_mod)),
    ok.

version_path(N) ->
    filename:join([filename:dirname(code:which(?MODULE)), "hot_v" ++ integer_to_list(N), "hc_mod"]).

object_code(N) ->
    Dir = filename:dirname(version_path(N)),
    true = code:add_patha(Dir),
    R = code:get_object_code(hc_mod),
    true = code:del_path(Dir),
    R.

hold(T) ->
    receive
        {From, get} -> From ! {held, T}, hold(T);
        stop -> ok
    end.

ask(Pid, Request) ->
    Pid ! {self(), Request},
    receive
        {version, _} = R -> R;
        {count, _} = R -> R;
        {held, _} = R -> R;
        upgrading -> upgrading
    after 5000 -> timeout
    end.

down(Ref) ->
    receive {'DOWN', Ref, process, _, Reason} -> {down, Reason}
    after 5000 -> still_alive
    end.

in_fresh_process(F) ->
    {Pid, Ref} = spawn_monitor(fun() -> exit({result, F()}) end),
    receive {'DOWN', Ref, process, Pid, {result, R}} -> R;
            {'DOWN', Ref, process, Pid, Other} -> {crashed, Other}
    end.

catch_class(F) ->
    try F() catch Class:Reason -> {Class, Reason} end.

show(Label, Value) -> io:format("~p: ~p~n", [Label, Value]).

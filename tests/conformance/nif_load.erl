%% erlang:load_nif/2 as erl does it: every error tuple (missing file, no nif_init, another
%% module's library, a function the module lacks, bad flags, a vetoing load callback, reload,
%% load from old code, a library without upgrade callback, a vetoing upgrade) and the load,
%% upgrade and unload callbacks across three versions of hot/versions/nif_upgrade.erl, read
%% from the log tests/nif/nif_upgrade.c writes. Paths in error texts print as $DIR.
-module(nif_load).
-export([main/0, hello/1]).

hello(_) -> erlang:nif_error(not_loaded).

dir() -> filename:dirname(code:which(?MODULE)).
lib(Name) -> filename:join([dir(), "nif", Name]).

main() ->
    %% erl reports modules loaded with NIFs that are then purged through logger: silenced
    %% (beamvm has no logger handler to remove; the call fails there and is caught).
    catch logger:remove_handler(default),
    errors(),
    upgrades().

errors() ->
    load(missing_file, lib("nif_does_not_exist"), 0),
    load(missing_dir, filename:join([dir(), "no_such_dir", "lib"]), 0),
    load(not_a_library, filename:join(dir(), "nif_load.beam"), 0),
    load(no_nif_init, lib("nif_no_init"), 0),
    load(other_module, lib("nif_terms"), 0),
    load(function_not_in_module, lib("nif_load_extra"), 0),
    load(bad_flags, lib("nif_load_badflags"), 0),
    load(load_vetoed, lib("nif_load"), fail_load),
    show(still_not_loaded, fun() -> hello(x) end),
    load(path_as_binary, list_to_binary(lib("nif_does_not_exist")), 0),
    load(path_not_string, 42, 0),
    load(ok, lib("nif_load"), 0),
    show(hello, fun() -> hello(world) end),
    load(reload, lib("nif_load"), 0),
    load(reload_other_lib, lib("nif_load_extra"), 0).

upgrades() ->
    Log = filename:join(dir(), "nif_load_" ++ os:getpid() ++ ".log"),
    file:delete(Log),
    Good = lib("nif_upgrade"),
    NoUpgrade = lib("nif_upgrade_noup"),
    show(load_v1, fun() -> code:load_abs(version_path(1)) end),
    show(v1_before_init, fun() -> nif_upgrade:generation() end),
    show(init_v1, fun() -> nif_upgrade:init(Good, {Log, ok}) end),
    show(v1, fun() -> {nif_upgrade:version(), nif_upgrade:generation()} end),
    OldLoader = nif_upgrade:loader(Good, {Log, ok}),
    show(load_v2, fun() -> code:load_abs(version_path(2)) end),
    show(v2_before_init, fun() -> nif_upgrade:generation() end),
    show(init_from_old_code, fun() -> OldLoader() end),
    show(init_v2, fun() -> nif_upgrade:init(Good, {Log, ok}) end),
    show(v2, fun() -> {nif_upgrade:version(), nif_upgrade:generation()} end),
    show(purge_v1, fun() -> code:purge(nif_upgrade) end),
    show(v2_after_purge, fun() -> nif_upgrade:generation() end),
    show(load_v3, fun() -> code:load_abs(version_path(3)) end),
    show(init_v3_no_upgrade_callback, fun() -> nif_upgrade:init(NoUpgrade, {Log, ok}) end),
    show(init_v3_vetoed, fun() -> nif_upgrade:init(Good, {Log, fail_upgrade}) end),
    show(v3_not_loaded, fun() -> nif_upgrade:generation() end),
    show(init_v3, fun() -> nif_upgrade:init(Good, {Log, ok}) end),
    show(v3, fun() -> {nif_upgrade:version(), nif_upgrade:generation()} end),
    show(purge_v2, fun() -> code:purge(nif_upgrade) end),
    show(delete_v3, fun() -> code:delete(nif_upgrade) end),
    show(purge_v3, fun() -> code:purge(nif_upgrade) end),
    show(log, fun() -> read_log(Log) end),
    file:delete(Log).

version_path(N) ->
    filename:join([dir(), "hot_v" ++ integer_to_list(N), "nif_upgrade"]).

%% The callbacks' lines; unload may run on another thread just after a purge, so the log is
%% read once it has stopped growing.
read_log(Log) ->
    read_log(Log, <<>>, 50).

read_log(Log, Prev, Tries) ->
    receive after 20 -> ok end,
    Now = case file:read_file(Log) of {ok, B} -> B; Error -> Error end,
    if not is_binary(Now) -> Now;
       Now =:= Prev; Tries =:= 0 -> string:lexemes(binary_to_list(Now), "\n");
       true -> read_log(Log, Now, Tries - 1)
    end.

load(Label, Path, Info) ->
    show(Label, fun() -> erlang:load_nif(Path, Info) end).

show(Label, Fun) ->
    Result = try Fun() catch Class:Reason -> {Class, Reason} end,
    io:format("~p: ~p~n", [Label, hide_dir(Result)]).

%% Error texts name the library's path: the checkout's location is replaced by $DIR.
hide_dir(T) when is_tuple(T) -> list_to_tuple(hide_dir(tuple_to_list(T)));
hide_dir(L) when is_list(L) ->
    case io_lib:printable_latin1_list(L) of
        true -> lists:flatten(string:replace(L, dir(), "$DIR", all));
        false -> [hide_dir(E) || E <- L]
    end;
hide_dir(T) -> T.

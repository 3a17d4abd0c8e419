%% The server behind beamvm --watch (vm/code_watch.cpp): for each changed .beam file of a loaded
%% module, loads the new version if the old code left by the previous load can be
%% soft-purged; otherwise reports the processes still running that old code and keeps the
%% current version (mode soft), or purges it, killing them (mode force). Every outcome is
%% reported on standard_error.
-module(beamvm_watch).
-export([server/0]).

server() ->
    receive
        {reload, Mod, File, Mode} ->
            report(Mod, File, reload(Mod, File, Mode)),
            server()
    end.

reload(Mod, File, Mode) ->
    case beamvm_internal:read_beam_file(File) of
        error ->
            {error, nofile};
        {ok, Bin, Abs} ->
            case beamvm_internal:beam_md5(Bin) =:= erlang:get_module_info(Mod, md5) of
                true -> unchanged;
                false -> reload(Mod, Bin, Abs, Mode)
            end
    end.

reload(Mod, Bin, File, Mode) ->
    case code:soft_purge(Mod) of
        true ->
            loaded(beamvm_code:load(Mod, Bin, File), []);
        false when Mode =:= force ->
            Holders = holders(Mod),
            code:purge(Mod),
            loaded(beamvm_code:load(Mod, Bin, File), Holders);
        false ->
            {in_use, holders(Mod)}
    end.

loaded({module, _}, Killed) -> {reloaded, Killed};
loaded(Error, _) -> Error.

holders(Mod) ->
    [P || P <- erlang:processes(), P =/= self(), erlang:check_process_code(P, Mod)].

report(_Mod, _File, unchanged) ->
    ok;
report(Mod, File, {reloaded, []}) ->
    say("reloaded ~s from ~s", [Mod, File]);
report(Mod, File, {reloaded, Killed}) ->
    say("reloaded ~s from ~s; its old code was purged, killing ~s", [Mod, File, pids(Killed)]);
report(Mod, _File, {in_use, Holders}) ->
    say("~s not reloaded: its old code is still run by ~s (current version kept; "
        "--watch=force purges instead)", [Mod, pids(Holders)]);
report(Mod, File, {error, Reason}) ->
    say("~s not reloaded from ~s: ~p", [Mod, File, Reason]).

pids(Ps) -> lists:join(", ", [pid_to_list(P) || P <- Ps]).

say(Format, Args) ->
    io:format(standard_error, "beamvm --watch: " ++ Format ++ "~n", Args).

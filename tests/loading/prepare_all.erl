%% Prepares (erlang:prepare_loading/2, never finished) every .beam file in the directories
%% given and prints one line per file: the file, then ok with whether it has an on_load
%% function, or the error. Run on erl and on beamvm by prepare_otp_ebin.sh, which compares
%% the two outputs line by line; nothing is loaded, so the running system is unchanged.
-module(prepare_all).
-export([main/1]).

main(Dirs) ->
    Files = lists:sort(lists:append([filelib:wildcard(filename:join(D, "*.beam")) || D <- Dirs])),
    lists:foreach(fun prepare/1, Files),
    io:format("~b files~n", [length(Files)]).

prepare(File) ->
    Mod = list_to_atom(filename:basename(File, ".beam")),
    {ok, Bin} = file:read_file(File),
    Result = try erlang:prepare_loading(Mod, Bin) of
                 {error, _} = E -> E;
                 Ref -> {ok, {on_load, erlang:has_prepared_code_on_load(Ref)}}
             catch Class:Reason -> {Class, Reason}
             end,
    io:format("~s ~s ~w~n", [File, gzip_or_plain(Bin), Result]).

gzip_or_plain(<<31, 139, _/binary>>) -> gzip;
gzip_or_plain(_) -> plain.

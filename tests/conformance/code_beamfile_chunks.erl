%% erts_internal:beamfile_chunk/2 and beamfile_module_md5/1 (behind code:get_chunk/2 and
%% code:module_md5/1, and erl_features' reading of a module's "Meta" chunk): chunks present and
%% absent, names that are not four characters, files that are not BEAM files.
-module(code_beamfile_chunks).
-export([main/0]).

t(F) ->
    try F() of
        V when is_binary(V) -> {bin, byte_size(V), erlang:crc32(V)};
        V -> V
    catch C:R -> {C, R}
    end.

main() ->
    {lists, B, _} = code:get_object_code(lists),
    Empty = <<"FOR1", 0, 0, 0, 4, "BEAM">>,
    io:format("~p~n", [[t(fun() -> erts_internal:beamfile_chunk(B, C) end)
                        || C <- ["Atom", "AtU8", "Meta", "Code", "LitT", "ExpT", "ABCDE", "abc", foo, "Dbgi", [1, 2, 3, 4]]]]),
    io:format("~p~n", [[t(fun() -> erts_internal:beamfile_chunk(X, "Atom") end) || X <- [<<"junk">>, x, <<>>, Empty]]]),
    io:format("~p~n", [[t(fun() -> erts_internal:beamfile_module_md5(X) end) || X <- [B, <<"x">>, x, Empty]]]),
    io:format("md5 agrees ~p~n", [erts_internal:beamfile_module_md5(B) =:= lists:module_info(md5)]),
    io:format("~p~n", [[t(fun() -> code:get_chunk(B, "ExpT") end), t(fun() -> code:get_chunk(B, "Nope") end),
                        t(fun() -> code:module_md5(B) end), t(fun() -> code:module_md5(<<"no">>) end)]]).

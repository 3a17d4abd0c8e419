%% Calls to modules whose names no .beam file can have: a NUL (the OS would see the name end
%% there: '\0ists' once made beamvm read the code path directory itself and abort), a NUL
%% after a real module's name, a slash, a dot and the empty atom. erl: undef for each, and
%% code:ensure_loaded/1 says why (erl's code server also logs a badarg file error per code
%% path directory for the NUL names: the logger is silenced, those reports are not compared).
-module(module_name_odd).
-export([main/0]).

id(X) -> X.

main() ->
    ok = logger:set_primary_config(level, none),
    Names = [[0 | "ists"], "lists" ++ [0], "lists\0x", "/lists", "..", ".", ""],
    [begin
         M = list_to_atom(id(N)),
         R = try M:reverse([1, 2]) catch C:E -> {C, E} end,
         erlang:display({N, R, code:ensure_loaded(M)})
     end || N <- Names],
    ok.

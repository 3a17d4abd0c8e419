-module(code_lib_dir).
%% code:lib_dir/1,2 and code:priv_dir/1 for every application of the OTP installation,
%% including those installed without an ebin directory (Debian's erlang-dev brings
%% eunit-*/include alone; -include_lib("eunit/include/eunit.hrl") must still find it).
-export([main/0]).

main() ->
    Lib = filename:join(code:root_dir(), "lib"),
    {ok, Entries} = file:list_dir(Lib),
    lists:foreach(fun(E) -> app(Lib, E) end, lists:sort(Entries)),
    show(nonexistent_app, code:lib_dir(nonexistent_app)),
    show(stdlib_include, code:lib_dir(stdlib, include) =:= filename:join(code:lib_dir(stdlib), "include")),
    show(eunit_include, code:lib_dir(eunit, include) =:= filename:join(code:lib_dir(eunit), "include")),
    show(missing_include, code:lib_dir(nonexistent_app, include)),
    show(priv_missing, code:priv_dir(nonexistent_app)),
    show(string_name, code:lib_dir("stdlib") =:= code:lib_dir(stdlib)),
    show(bad_arg, error_of(fun() -> code:lib_dir(42) end)),
    show(bad_subdir, error_of(fun() -> code:lib_dir(stdlib, "include") end)).

error_of(F) ->
    try F() catch Class:Reason -> {Class, Reason} end.

app(Lib, Entry) ->
    [Name | _] = string:split(Entry, "-"),
    App = list_to_atom(Name),
    Dir = filename:join(Lib, Entry),
    HasEbin = filelib:is_dir(filename:join(Dir, "ebin")),
    show(App, {HasEbin, code:lib_dir(App) =:= Dir,
               code:priv_dir(App) =:= filename:join(Dir, "priv")}).

show(Tag, Value) ->
    io:format("~p: ~p~n", [Tag, Value]).

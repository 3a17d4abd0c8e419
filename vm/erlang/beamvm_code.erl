%% Stand-ins for the loading functions of OTP's code module (bifs/standins.cpp), until beamvm
%% boots OTP's code_server. They follow code_server's protocol: prepare the code, make it
%% current with erlang:finish_loading/1, and when the module has an on_load function run it in
%% a process of its own, then keep the module (it returned ok) or purge it (anything else).
-module(beamvm_code).
-export([load_file/1, load_abs/1, load_abs/2, load_binary/3, ensure_loaded/1,
         ensure_modules_loaded/1, atomic_load/1, undefined_function/3]).
%% For beamvm_watch: loading (with on_load) without purging first.
-export([load/3]).
%% Where an application's files are, from the code path (code:lib_dir/1,2, code:priv_dir/1).
-export([lib_dir/1, lib_dir/2, priv_dir/1]).

load_file(Mod) when is_atom(Mod) ->
    case code:get_object_code(Mod) of
        {Mod, Bin, File} -> load(Mod, Bin, File);
        error -> {error, nofile}
    end.

load_abs(File) when is_list(File); is_atom(File) ->
    load_abs(File, list_to_atom(filename:basename(File))).

load_abs(File, Mod) when (is_list(File) orelse is_atom(File)), is_atom(Mod) ->
    case beamvm_internal:read_beam_file(lists:concat([File, ".beam"])) of
        {ok, Bin, AbsName} -> load(Mod, Bin, AbsName);
        error -> {error, nofile}
    end.

load_binary(Mod, File, Bin) when is_atom(Mod), (is_list(File) orelse is_atom(File)),
                                 is_binary(Bin) ->
    %% As code_server: old code in the way is purged first.
    case erlang:module_loaded(Mod) of
        true -> code:purge(Mod);
        false -> ok
    end,
    load(Mod, Bin, file_name(File)).

ensure_loaded(Mod) when is_atom(Mod) ->
    case erlang:module_loaded(Mod) of
        true -> {module, Mod};
        false -> load_file(Mod)
    end.

ensure_modules_loaded(Mods) when is_list(Mods) ->
    Errors = [{M, R} || M <- Mods, {error, R} <- [ensure_loaded(M)]],
    case Errors of
        [] -> ok;
        _ -> {error, Errors}
    end.

atomic_load(Mods) when is_list(Mods) ->
    Objects = [object_code(M) || M <- Mods],
    case [{M, R} || {M, {error, R}} <- Objects] of
        [] ->
            Preps = [{M, beamvm_internal:prepare_loading(M, B, F)} || {M, {B, F}} <- Objects],
            case [{M, R} || {M, {error, R}} <- Preps] of
                [] -> finish_all(Preps);
                Errors -> {error, Errors}
            end;
        Errors ->
            {error, Errors}
    end.

%% The error_handler path for a module whose on_load function must run before its first call
%% (the call_undefined instruction continues here).
undefined_function(Mod, Fun, Args) ->
    case ensure_loaded(Mod) of
        {module, Mod} ->
            case erlang:function_exported(Mod, Fun, length(Args)) of
                true -> apply(Mod, Fun, Args);
                false -> undef(Mod, Fun, Args)
            end;
        _ ->
            undef(Mod, Fun, Args)
    end.

undef(Mod, Fun, Args) ->
    try
        erlang:error(undef)
    catch
        error:undef:Stack -> erlang:raise(error, undef, [{Mod, Fun, Args, []} | tl(Stack)])
    end.

%% ---- application directories ----

%% As code_server: the first code path entry .../Name[-Vsn]/ebin or .../Name[-Vsn] names the
%% library directory.
lib_dir(Name) when is_atom(Name); is_list(Name) ->
    App = if is_atom(Name) -> atom_to_list(Name); true -> Name end,
    Dirs = [app_dir(D) || D <- code:get_path()],
    case [D || D <- Dirs, is_lib_dir_of(App, filename:basename(D))] of
        [Dir | _] -> Dir;
        [] -> {error, bad_name}
    end;
lib_dir(_) ->
    erlang:error(function_clause).

lib_dir(Name, SubDir) when is_atom(Name), is_atom(SubDir) ->
    case lib_dir(Name) of
        {error, _} = Error -> Error;
        Dir -> filename:join(Dir, atom_to_list(SubDir))
    end;
lib_dir(_, _) ->
    erlang:error(function_clause).

priv_dir(Name) ->
    case lib_dir(Name) of
        {error, _} = Error -> Error;
        Dir -> filename:join(Dir, "priv")
    end.

%% A code path entry is an application's ebin directory or, as OTP's code server adds for an
%% application without one, the application directory itself.
app_dir(Dir) ->
    case filename:basename(Dir) of
        "ebin" -> filename:dirname(Dir);
        _ -> Dir
    end.

is_lib_dir_of(App, Base) ->
    Base =:= App orelse lists:prefix(App ++ "-", Base).

%% ---- loading ----

load(Mod, Bin, File) ->
    case beamvm_internal:prepare_loading(Mod, Bin, File) of
        {error, _} = Error ->
            Error;
        Prep ->
            case erlang:finish_loading([Prep]) of
                ok -> {module, Mod};
                {not_purged, [Mod]} -> {error, not_purged};
                {on_load, [Mod]} -> run_on_load(Mod)
            end
    end.

finish_all(Preps) ->
    case erlang:finish_loading([P || {_, P} <- Preps]) of
        ok -> ok;
        {on_load, Mods} -> on_load_all(Mods);
        {Reason, Mods} -> {error, [{M, Reason} || M <- Mods]}
    end.

on_load_all(Mods) ->
    case [{M, on_load_failure} || M <- Mods, run_on_load(M) =/= {module, M}] of
        [] -> ok;
        Errors -> {error, Errors}
    end.

run_on_load(Mod) ->
    {Pid, Ref} = spawn_monitor(fun() -> exit(erlang:call_on_load_function(Mod)) end),
    Result = receive {'DOWN', Ref, process, Pid, R} -> R end,
    Keep = Result =:= ok,
    erlang:finish_after_on_load(Mod, Keep),
    case Keep of
        true ->
            {module, Mod};
        false ->
            report_on_load_failure(Mod, Result),
            {error, on_load_failure}
    end.

%% As OTP's code_server reports it through logger (which beamvm does not start yet): on
%% standard_error.
report_on_load_failure(Mod, Result) ->
    {{Y, Mo, D}, {H, Mi, S}} = erlang:localtime(),
    Micro = erlang:system_time(microsecond) rem 1000000,
    io:format(standard_error,
              "=WARNING REPORT==== ~w-~s-~w::~2..0w:~2..0w:~2..0w.~6..0w ===~n"
              "The on_load function for module ~s returned:~n~P~n~n",
              [D, month(Mo), Y, H, Mi, S, Micro, Mod, Result, 10]).

month(M) ->
    element(M, {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}).

object_code(Mod) ->
    case code:get_object_code(Mod) of
        {Mod, Bin, File} -> {Mod, {Bin, File}};
        error -> {Mod, {error, nofile}}
    end.

file_name(File) when is_atom(File) -> atom_to_list(File);
file_name(File) -> File.

%% code:ensure_loaded/1 and code:load_abs/1 with the arguments AtomVM's corpus gives them
%% (test_code_ensure_loaded, test_code_load_abs): a string is a function_clause in code, not
%% {error, badarg}; load_abs/1 loads a file named without its .beam extension.
-module(code_ensure_loaded_args).
-export([main/0]).

main() ->
    [show(A, fun() -> code:ensure_loaded(A) end) || A <- ["string", <<"string">>, 42, {x}]],
    show(self, fun() -> code:ensure_loaded(?MODULE) end),
    show(lists, fun() -> code:ensure_loaded(lists) end),
    show(missing, fun() -> code:ensure_loaded(code_ensure_loaded_args_missing) end),
    show(missing_abs, fun() -> code:load_abs("/nonexistent/dir/code_ensure_loaded_args_x") end),
    show(bad_abs, fun() -> code:load_abs(42) end),
    %% This module's own file, loaded again by absolute name without the extension.
    Path = filename:rootname(code:which(?MODULE)),
    show(own_abs, fun() -> code:load_abs(Path) end),
    show(own_abs_loaded, fun() -> code:is_loaded(?MODULE) =/= false end),
    ok.

show(Label, F) ->
    R = try F() of V -> {ok, V}
        catch C:E -> {C, E}
        end,
    io:format("~p: ~p~n", [Label, R]).

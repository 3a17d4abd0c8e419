%% erlang:trace_pattern/2,3 and erlang:trace_info/2 (functions) with bad arguments: the
%% error, and the cause erl records for erl_erts_errors.
-module(trace_call_errors).
-export([main/0]).

try_(F) ->
    try F() of
        V -> {ok, V}
    catch
        error:R:St ->
            Cause = case St of
                        [{_, _, _, Info} | _] ->
                            case proplists:get_value(error_info, Info) of
                                #{cause := C} -> C;
                                _ -> none_given
                            end;
                        _ -> no_frame
                    end,
            {error, R, Cause}
    end.

main() ->
    Cases =
        [{{?MODULE, main, 0}, glurp, []},
         {{?MODULE, main, 0}, [{a, b}], []},
         {{?MODULE, main, 0}, true, [foo]},
         {{?MODULE, main, 0}, true, [global, local]},
         {{?MODULE, main, 0}, true, [local, global]},
         {{?MODULE, main, 0}, true, [call_count, global]},
         {{?MODULE, main, 0}, true, [{meta, not_a_pid}]},
         {{?MODULE, main, 0}, true, [{meta, a, b, c}]},
         {{?MODULE, main, 0}, true, improper},
         {{?MODULE, main, 0}, [{'_', [], []}], [call_count]},
         {{?MODULE, main, 0}, [{'_', [], []}], [call_time]},
         {{?MODULE, main, 0}, restart, [global]},
         {{?MODULE, '_', 0}, true, [local]},
         {{'_', main, '_'}, true, [local]},
         {{?MODULE, main, x}, true, [local]},
         {{?MODULE, main}, true, [local]},
         {{"m", main, 0}, true, [local]},
         {nonsense, true, []},
         {{no_such_module, f, 1}, true, [local]},
         {{no_such_module, '_', '_'}, true, [global]},
         {{?MODULE, no_such_function, 3}, true, []},
         {send, true, [local]},
         {'receive', pause, []}],
    [io:format("~p ~p ~p -> ~p~n", [M, P, F, try_(fun() -> erlang:trace_pattern(M, P, F) end)])
     || {M, P, F} <- Cases],
    io:format("~p~n", [try_(fun() -> erlang:trace_pattern(nonsense, true) end)]),
    Infos = [{{?MODULE, main, 0}, bogus}, {{?MODULE, main}, traced}, {{?MODULE, main, x}, traced},
             {{?MODULE, main, 0}, traced}, {{?MODULE, nope, 0}, all}, {{?MODULE, nope, 0}, call_count},
             {on_load, traced}, {on_load, match_spec}, {on_load, bogus}, {"x", traced}],
    [io:format("trace_info ~p ~p -> ~p~n", [W, I, try_(fun() -> erlang:trace_info(W, I) end)]) || {W, I} <- Infos],
    io:format("~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [local])]),
    ok.

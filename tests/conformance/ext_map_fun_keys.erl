%% binary_to_term of maps whose keys are funs (closures and external funs), in small and large
%% maps, nested in each other: a large map keyed by a closure crashed the decoder (its keys
%% were hashed before the funs were bound to their entries). Found by OTP's
%% erts_debug_SUITE:t_copy_shared.
-module(ext_map_fun_keys).
-export([main/0]).

main() ->
    X = 5,
    Closure = fun(A) -> A + X end,
    Ext = fun lists:sort/1,
    Big = fun(Extra) -> maps:from_list(Extra ++ [{I, I} || I <- lists:seq(1, 40)]) end,
    Terms = [#{Closure => 1},
             Big([{Closure, closure}]),
             Big([{Ext, ext}, {Closure, closure}]),
             Big([{Big([{Closure, inner}]), outer}]),
             #{#{Closure => a} => Big([{Closure, b}])},
             [Big([{fun(B) -> B * X end, I}]) || I <- [1, 2]]],
    [begin
         Back = binary_to_term(term_to_binary(T)),
         io:format("~p: equal ~p~n", [N, Back =:= T])
     end || {N, T} <- lists:zip(lists:seq(1, length(Terms)), Terms)],
    F = maps:get(closure, maps:from_list([{V, K} || {K, V} <- maps:to_list(binary_to_term(term_to_binary(Big([{Closure, closure}]))))])),
    io:format("decoded closure runs: ~p~n", [F(1)]),
    ok.

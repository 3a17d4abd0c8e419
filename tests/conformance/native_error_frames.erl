%% The frame a failing native leaves on top of the stack trace: its arguments and the
%% error_info module OTP names for it (erl_erts_errors for erlang, erts_internal, atomics,
%% counters and persistent_term; erl_stdlib_errors for lists, maps, binary, math, unicode;
%% erl_kernel_errors for os; none for NIF modules), and frames of OTP's preloaded modules,
%% which erl carries without line numbers.
-module(native_error_frames).
-export([main/0]).
-compile({nowarn_deprecated_function, [{zlib, crc32, 2}]}).

top(F) ->
    try F() of
        V -> {returned, V}
    catch
        C:R:St -> {C, R, [{M, Fn, if is_list(A) -> length(A); true -> A end, L} || {M, Fn, A, L} <- lists:sublist(St, 1)]}
    end.

id(X) -> X.

main() ->
    Calls = [fun() -> atomics:get(x, 1) end,
             fun() -> counters:get(x, 1) end,
             fun() -> persistent_term:get({?MODULE, nokey}) end,
             fun() -> erts_internal:map_to_tuple_keys(x) end,
             fun() -> erlang:binary_to_atom(id(x)) end,
             fun() -> lists:reverse(x, []) end,
             fun() -> lists:keyfind(a, 0, []) end,
             fun() -> maps:get(a, id(x)) end,
             fun() -> binary:part(<<"ab">>, 5, 1) end,
             fun() -> math:sqrt(id(x)) end,
             fun() -> unicode:characters_to_binary(x) end,
             fun() -> os:getenv(1) end,
             fun() -> zlib:crc32(x, <<>>) end,
             fun() -> zlib:close(make_ref()) end,
             fun() -> erlang:apply(x, y, z) end,
             fun() -> erlang:spawn_opt(x, [bad]) end],
    [io:format("~p~n", [top(F)]) || F <- Calls],
    io:format("~p~n", [{erlang:module_info(attributes), zlib:module_info(compile)}]),
    ok.

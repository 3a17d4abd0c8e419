%% OTP runs its preloaded modules (erlang, erts_internal, init, zlib, prim_file, ...) stripped
%% of line, attribute and compile information: a frame in Erlang code of the erlang module has
%% no location, and module_info(attributes | compile) is [].
-module(exc_preloaded_frames).
-export([main/0]).

main() ->
    show(gc_bad_pid, fun() -> erlang:garbage_collect(x) end),
    show(gc_bad_option, fun() -> erlang:garbage_collect(x, [bad]) end),
    show(integer_to_list_bad_base, fun() -> erlang:integer_to_list(10, 99) end),
    show(process_info_bad, fun() -> erlang:process_info(x, [y]) end),
    [io:format("~p ~p: ~p~n", [M, Item, M:module_info(Item)])
     || M <- [erlang, erts_internal, atomics, persistent_term], Item <- [attributes, compile]],
    ok.

show(Label, F) ->
    R = try F() of V -> {returned, V}
        catch C:E:St -> {C, E, hd(St)}
        end,
    io:format("~p: ~p~n", [Label, R]).

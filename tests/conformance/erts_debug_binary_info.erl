%% erts_debug:get_internal_state({binary_info, Bin}), which OTP's code_SUITE uses to see that
%% a large literal binary is off-heap: the kind and the size, for binaries built, sliced,
%% received from a literal and too small to leave the heap. (The blob's capacity and the
%% writer flags depend on the allocator, so only their types are compared.)
-module(erts_debug_binary_info).
-export([main/0]).

shape({refc_binary, Size, {binary, Orig}, Flags}) when is_integer(Orig), is_integer(Flags) ->
    {refc_binary, Size};
shape(Other) -> Other.

main() ->
    logger:set_primary_config(level, none),
    erts_debug:set_internal_state(available_internal_state, true),
    Big = binary:copy(<<7>>, 100000),
    Small = list_to_binary(lists:seq(1, 10)),
    Cases = [{"built 100000 bytes", Big},
             {"a part of it", binary:part(Big, 10, 70000)},
             {"a bitstring over it", <<Big/binary, 1:3>>},
             {"10 bytes", Small},
             {"a literal of 2 MB", literal()}],
    [io:format("~s: ~p~n", [L, shape(erts_debug:get_internal_state({binary_info, B}))]) || {L, B} <- Cases],
    io:format("not a binary: ~p~n", [try erts_debug:get_internal_state({binary_info, atom}) catch C:R -> {C, R} end]),
    ok.

literal() -> <<0:(2 * 1024 * 1024 * 8)>>.

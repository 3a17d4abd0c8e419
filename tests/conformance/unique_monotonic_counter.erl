%% unique_integer([monotonic]) as erts numbers it: one 64-bit counter whose value is offset by
%% the smallest small integer (or by 1 with positive), seen through erts_debug's
%% unique_monotonic_integer_state: the values across the small/big boundaries, past the largest
%% signed 64-bit integer, and the wrap after 2^64 counts back to the smallest.
-module(unique_monotonic_counter).
-export([main/0]).

main() ->
    logger:set_primary_config(level, none),
    erts_debug:set_internal_state(available_internal_state, true),
    Min = erts_debug:get_internal_state(min_unique_monotonic_integer),
    io:format("min: ~p~n", [Min]),
    Start = erts_debug:get_internal_state(unique_monotonic_integer_state),
    Max = Min + (1 bsl 64) - 1,
    Mask = (1 bsl 64) - 1,
    MaxSmall = (1 bsl 59) - 1,
    MaxS64 = (1 bsl 63) - 1,
    [begin
         true = erts_debug:set_internal_state(unique_monotonic_integer_state, Next - Min - 1),
         Vs = [erlang:unique_integer([monotonic]) || _ <- lists:seq(1, 4)],
         io:format("~s: ~p~n", [Label, [V - Next || V <- Vs]])
     end || {Label, Next} <- [{"around zero", -2}, {"past the largest small", MaxSmall - 1},
                              {"past the largest int64", MaxS64 - 1}]],
    true = erts_debug:set_internal_state(unique_monotonic_integer_state, Max - Min - 2),
    Wrap = [erlang:unique_integer([monotonic]) || _ <- lists:seq(1, 4)],
    io:format("wrap: ~p~n", [[if V >= 0 -> {max_minus, Max - V}; true -> {min_plus, V - Min} end || V <- Wrap]]),
    io:format("state after: ~p~n", [erts_debug:get_internal_state(unique_monotonic_integer_state)]),
    true = erts_debug:set_internal_state(unique_monotonic_integer_state, 41),
    io:format("positive: ~w~n", [[erlang:unique_integer([positive, monotonic]) || _ <- [1, 2]]]),
    io:format("state: ~p~n", [erts_debug:get_internal_state(unique_monotonic_integer_state)]),
    io:format("bad states: ~p~n",
              [[catch erts_debug:set_internal_state(unique_monotonic_integer_state, V)
                || V <- [1 bsl 64, -(1 bsl 63) - 1, -1, a, 1.0]]]),
    io:format("after -1: ~p~n", [erts_debug:get_internal_state(unique_monotonic_integer_state) =:= Mask]),
    true = erts_debug:set_internal_state(unique_monotonic_integer_state, (Start + 100) band Mask),
    A = erlang:unique_integer([monotonic]),
    B = erlang:unique_integer([monotonic]),
    io:format("restored, increasing: ~p~n", [A < B]),
    ok.

%% An exact map update (Map#{K := V, ...}) with several keys missing reports the least of them
%% in map key order (integers before floats of equal value), as erts checks them sorted.
-module(maps_update_badkey).
-export([main/0]).

id(X) -> X.

show(Tag, F) ->
    R = try F() of V -> {ok, V} catch C:E -> {C, E} end,
    io:format("~p: ~p~n", [Tag, R]).

main() ->
    M0 = id(#{a => 1, 1 => one}),
    show(int_and_float, fun() -> M0#{42.0 := v, 42 := v2} end),
    show(float_and_int, fun() -> M0#{42 := v, 42.0 := v2} end),
    show(assoc_then_exact, fun() -> M0#{42 => v1, 42.0 := v2} end),
    show(atoms, fun() -> M0#{zz := 1, b := 2, a := 3} end),
    show(mixed, fun() -> M0#{{t} := 1, "s" := 2, 7 := 3, x := 4} end),
    show(present_float, fun() -> M0#{1.0 := v, 1 := w} end),
    show(dynamic, fun() -> K1 = id(9.5), K2 = id(9), M0#{K1 := a, K2 := b} end),
    Big = id(maps:from_list([{I, I} || I <- lists:seq(1, 40)])),
    show(big_map, fun() -> Big#{100.0 := a, 100 := b, -1 := c} end),
    ok.

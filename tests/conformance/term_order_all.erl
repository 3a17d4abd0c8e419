%% Term order and equality across every type, == versus =:=, erlang:phash2/1,2 and
%% erlang:phash/2 of every portable type (large maps included), unique_integer and make_ref.
%% Pids, refs and funs are sorted but printed only as their labels (their text varies).
-module(term_order_all).
-export([main/0, id/1]).
-compile({nowarn_deprecated_function, [{erlang, phash, 2}]}).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

big_map(N) -> maps:from_list([{I, I * I} || I <- lists:seq(1, N)]).

labelled() ->
    [{int, 1}, {neg_int, -5}, {big, 1 bsl 80}, {neg_big, -(1 bsl 80)}, {float, 1.5}, {float_one, 1.0},
     {neg_float, -2.5}, {zero_float, 0.0}, {atom_a, a}, {atom_b, b}, {atom_utf8, 'ä'},
     {ref, make_ref()}, {fun_local, fun id/1}, {fun_ext, fun lists:sort/1}, {pid, self()},
     {tuple0, {}}, {tuple2, {1, 2}}, {tuple2b, {1, 3}}, {tuple3, {0, 0, 0}},
     {map0, #{}}, {map1, #{a => 1}}, {map1f, #{1.0 => x}}, {map1i, #{1 => x}}, {map_big, big_map(40)},
     {map_big2, big_map(41)}, {nil, []}, {list1, [1]}, {list2, [1, 2]}, {improper, [1 | 2]},
     {string, "abc"}, {bin0, <<>>}, {bin, <<1, 2>>}, {bin_long, <<1, 2, 3>>}, {bits, <<1:3>>},
     {bits2, <<1, 1:1>>}].

main() ->
    L = labelled(),
    Sorted = lists:sort(fun({_, X}, {_, Y}) -> X =< Y end, L),
    t(sorted_labels, fun() -> [Label || {Label, _} <- Sorted] end),
    t(reverse_sort, fun() -> [Label || {Label, _} <- lists:sort(fun({_, X}, {_, Y}) -> X >= Y end, lists:reverse(L)),
                                       true] end),
    t(usort_numbers, fun() -> lists:usort([1, 1.0, 2, 2.0, 0.0, -0.0, 1 bsl 64, float(1 bsl 64), -1]) end),
    t(number_cmp, fun() -> [1 == 1.0, 1 =:= 1.0, 1 < 1.0, 1.0 < 1, 1 bsl 64 == float(1 bsl 64),
                            (1 bsl 64) + 1 > float(1 bsl 64), -(1 bsl 64) - 1 < -float(1 bsl 64),
                            0.0 == -0.0, 0.0 =:= -0.0, 16#7fffffffffffffff < 9.3e18, 1 bsl 1023 < 1.0e308] end),
    t(compound_eq, fun() -> [{1, 2} == {1.0, 2}, {1, 2} =:= {1.0, 2}, [1] == [1.0], #{a => 1} == #{a => 1.0},
                             #{a => 1} =:= #{a => 1.0}, #{1 => a} == #{1.0 => a},
                             big_map(40) == maps:map(fun(_, V) -> float(V) end, big_map(40)),
                             big_map(40) =:= maps:map(fun(_, V) -> float(V) end, big_map(40))] end),
    t(map_order, fun() -> lists:sort([#{b => 1}, #{a => 2}, #{a => 1}, #{a => 1, b => 1}, #{1 => x}, #{1.0 => x}, #{}]) end),
    t(big_map_order, fun() -> [big_map(40) < big_map(41), big_map(40) < (big_map(40))#{40 := 1601},
                               (big_map(40))#{41 => 0} > (big_map(40))#{42 => 0},
                               maps:remove(1, big_map(41)) > big_map(40)] end),
    t(binary_order, fun() -> lists:sort([<<1:1>>, <<>>, <<0>>, <<1>>, <<1, 0>>, <<0:1>>, <<128>>, <<1:7>>]) end),
    t(list_order, fun() -> lists:sort([[], [1], [1 | 2], [1, 2], "a", [a], [1.0]]) end),
    t(tuple_order, fun() -> lists:sort([{b}, {a, a}, {}, {1, 2, 3}, {a}, {1.0, 2}]) end),
    t(atom_order, fun() -> lists:sort(['Z', z, 'a b', aa, a, 'ä', '']) end),
    %% Hashes of every portable type.
    Terms = [0, 1, -1, 255, 256, 1 bsl 27, -(1 bsl 27), 1 bsl 40, -(1 bsl 40), 1 bsl 59, 1 bsl 60, 1 bsl 100,
             -(1 bsl 100), 0.0, -0.0, 1.5, -3.25e100, a, 'ä', [], "abc", [a, b], [1 | 2], "abcdefghij",
             {}, {a, 1}, {{}, []}, <<>>, <<1, 2, 3>>, <<1:1>>, <<1, 2:5>>, list_to_binary(lists:seq(1, 100)),
             #{}, #{a => 1}, #{1 => 2, 3 => 4}, big_map(33), big_map(1000),
             maps:from_list([{integer_to_list(I), [I]} || I <- lists:seq(1, 50)]),
             fun lists:sort/1],
    t(phash2, fun() -> [erlang:phash2(T) || T <- Terms] end),
    t(phash2_range, fun() -> [erlang:phash2(T, 7) || T <- Terms] end),
    t(phash2_full, fun() -> [erlang:phash2(T, 1 bsl 32) || T <- Terms] end),
    t(phash, fun() -> [erlang:phash(T, 1 bsl 32) || T <- Terms] end),
    t(phash_small_range, fun() -> [erlang:phash(T, 1000) || T <- Terms] end),
    t(phash2_badarg, fun() -> erlang:phash2(a, 0) end),
    t(phash_badarg, fun() -> erlang:phash(a, 1 bsl 33) end),
    t(phash2_map_order_free, fun() -> erlang:phash2(big_map(50)) =:= erlang:phash2(maps:from_list(lists:reverse(maps:to_list(big_map(50))))) end),
    %% unique_integer and make_ref.
    t(unique_monotonic, fun() -> Is = [erlang:unique_integer([monotonic]) || _ <- lists:seq(1, 1000)],
                                 Is =:= lists:usort(Is) end),
    t(unique_positive, fun() -> Is = [erlang:unique_integer([positive]) || _ <- lists:seq(1, 1000)],
                                {lists:all(fun(I) -> I > 0 end, Is), length(lists:usort(Is))} end),
    t(unique_plain, fun() -> Is = [erlang:unique_integer() || _ <- lists:seq(1, 1000)],
                             {lists:all(fun is_integer/1, Is), length(lists:usort(Is))} end),
    t(unique_both, fun() -> Is = [erlang:unique_integer([positive, monotonic]) || _ <- lists:seq(1, 100)],
                            {Is =:= lists:usort(Is), hd(Is) > 0} end),
    t(unique_badarg, fun() -> erlang:unique_integer([bad]) end),
    t(refs_unique, fun() -> Rs = [make_ref() || _ <- lists:seq(1, 1000)],
                            {length(lists:usort(Rs)), lists:all(fun is_reference/1, Rs), hd(Rs) =/= lists:last(Rs)} end),
    t(ref_compare, fun() -> R = make_ref(), {R =:= R, R == id(R), R < R} end),
    ok.

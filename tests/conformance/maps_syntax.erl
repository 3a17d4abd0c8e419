%% Map syntax: literals, => and := update, matching, map BIFs and their errors,
%% plus key order of small (flat) maps.
-module(maps_syntax).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

get_x(#{x := X}) -> X;
get_x(#{}) -> no_x;
get_x(_) -> not_a_map.

main() ->
    M = id(#{a => 1, b => 2}),
    t(literal, fun() -> #{z => 1, a => 2, m => 3} end),
    t(empty, fun() -> id(#{}) end),
    t(insert, fun() -> M#{c => 3} end),
    t(assoc_existing, fun() -> M#{a => 10} end),
    t(exact_update, fun() -> M#{a := 100} end),
    t(exact_update_missing, fun() -> M#{zz := 1} end),
    t(update_not_map, fun() -> (id(notmap))#{a => 1} end),
    t(exact_update_not_map, fun() -> (id([1]))#{a := 1} end),
    t(match, fun() -> #{a := A} = M, A end),
    t(match_two, fun() -> #{a := A, b := B} = M, A + B end),
    t(match_fail, fun() -> #{c := C} = M, C end),
    t(match_fun_head, fun() -> [get_x(X) || X <- id([#{x => 1}, #{y => 2}, 3])] end),
    t(match_bound_key, fun() -> K = id(b), #{K := V} = M, V end),
    t(map_get, fun() -> map_get(a, M) end),
    t(map_get_missing, fun() -> map_get(q, M) end),
    t(map_get_badmap, fun() -> map_get(q, id(1)) end),
    t(is_map_key, fun() -> {is_map_key(a, M), is_map_key(q, M)} end),
    t(is_map_key_bad, fun() -> is_map_key(a, id(x)) end),
    t(map_size, fun() -> map_size(M) end),
    t(map_size_bad, fun() -> map_size(id(x)) end),
    t(guard, fun() -> [case X of Y when is_map_key(a, Y) -> yes; _ -> no end || X <- id([M, #{}, a])] end),
    t(key_types, fun() -> #{1 => int, 1.0 => float, [] => nil, {} => tuple, "s" => str, <<"b">> => bin, a => atom} end),
    t(int_float_keys_distinct, fun() -> maps:size(#{1 => a, 1.0 => b}) end),
    t(nested, fun() -> N = #{inner => #{v => 1}}, #{inner := #{v := V}} = id(N), V end),
    t(nested_update, fun() -> N = id(#{inner => #{v => 1}}), I = maps:get(inner, N), N#{inner := I#{v := 2}} end),
    t(equality, fun() -> {#{a => 1} == #{a => 1.0}, #{a => 1} =:= #{a => 1.0}, M == #{b => 2, a => 1}} end),
    t(ordering, fun() -> {#{a => 1} < #{a => 2}, #{b => 1} < #{a => 1, b => 1}, #{z => 1} < #{a => 2}} end),
    t(small_map_order, fun() -> maps:from_list([{K, 0} || K <- id([c, 3, "x", b, 1.5, {1}, a])]) end),
    ok.

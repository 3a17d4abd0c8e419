%% Tuple BIFs and their error cases.
-module(tuples).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    T = id({a, b, c, d}),
    t(element, fun() -> {element(1, T), element(4, T)} end),
    t(element_oob, fun() -> element(5, T) end),
    t(element_zero, fun() -> element(0, T) end),
    t(element_not_tuple, fun() -> element(1, id([a])) end),
    t(setelement, fun() -> setelement(2, T, x) end),
    t(setelement_orig, fun() -> {setelement(1, T, z), T} end),
    t(setelement_oob, fun() -> setelement(9, T, x) end),
    t(tuple_size, fun() -> {tuple_size(T), tuple_size(id({})), size(T)} end),
    t(tuple_size_bad, fun() -> tuple_size(id([])) end),
    t(make_tuple, fun() -> erlang:make_tuple(3, z) end),
    t(make_tuple_init, fun() -> erlang:make_tuple(5, 0, [{2, a}, {4, b}, {2, c}]) end),
    t(make_tuple_zero, fun() -> erlang:make_tuple(0, z) end),
    t(make_tuple_neg, fun() -> erlang:make_tuple(-1, z) end),
    t(append_element, fun() -> erlang:append_element(T, e) end),
    t(insert_element, fun() -> erlang:insert_element(2, T, new) end),
    t(delete_element, fun() -> erlang:delete_element(1, T) end),
    t(tuple_to_list, fun() -> tuple_to_list(T) end),
    t(list_to_tuple, fun() -> list_to_tuple(id([1, [2], {3}])) end),
    t(list_to_tuple_improper, fun() -> list_to_tuple(id([1 | 2])) end),
    t(nested, fun() -> element(2, element(2, id({x, {y, z}}))) end),
    t(big_tuple, fun() -> tuple_size(list_to_tuple(lists:seq(1, 10000))) end),
    t(big_tuple_elem, fun() -> element(9999, list_to_tuple(lists:seq(1, 10000))) end),
    t(is_tuple, fun() -> {is_tuple(T), is_tuple(id([])), is_tuple(id({}))} end),
    t(equality, fun() -> {T == {a, b, c, d}, T =:= {a, b, c}, {1, 2} == {1, 2.0}, {1, 2} =:= {1, 2.0}} end),
    t(compare_size_first, fun() -> {id({z}) < id({a, a}), id({1, 2}) < id({1, 3})} end),
    ok.

%% List BIFs and operators: hd/tl/length/++/--, lists:reverse/member/keyfind (BIFs in OTP),
%% improper lists and their error cases.
-module(lists_bifs).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    L = id([1, 2, 3, 4, 5]),
    t(hd_tl, fun() -> {hd(L), tl(L)} end),
    t(hd_empty, fun() -> hd(id([])) end),
    t(tl_empty, fun() -> tl(id([])) end),
    t(hd_improper, fun() -> {hd(id([a | b])), tl(id([a | b]))} end),
    t(length, fun() -> {length(L), length(id([])), length(lists:seq(1, 100000))} end),
    t(length_improper, fun() -> length(id([1, 2 | 3])) end),
    t(append, fun() -> L ++ id([6, 7]) end),
    t(append_empty, fun() -> {id([]) ++ L, L ++ id([])} end),
    t(append_improper_tail, fun() -> id([1]) ++ id(2) end),
    t(append_improper_head, fun() -> id([1 | 2]) ++ id([3]) end),
    t(subtract, fun() -> L -- id([2, 4, 9]) end),
    t(subtract_dups, fun() -> id([a, b, a, c, a]) -- id([a, a]) end),
    t(subtract_bad, fun() -> L -- id(x) end),
    t(reverse, fun() -> lists:reverse(L) end),
    t(reverse_tail, fun() -> lists:reverse(L, id([z])) end),
    t(reverse_improper, fun() -> lists:reverse(id([1 | 2])) end),
    t(member, fun() -> {lists:member(3, L), lists:member(3.0, L), lists:member(x, L)} end),
    t(keyfind, fun() -> lists:keyfind(b, 1, id([{a, 1}, {b, 2}, {b, 3}])) end),
    t(keyfind_pos2, fun() -> lists:keyfind(3, 2, id([{a, 1}, {b, 2}, {c, 3}])) end),
    t(keyfind_missing, fun() -> lists:keyfind(z, 1, id([{a, 1}])) end),
    t(keyfind_float_key, fun() -> lists:keyfind(1.0, 1, id([{1, int}, {1.0, float}])) end),
    t(keymember, fun() -> lists:keymember(a, 1, id([{a}, {b}])) end),
    t(keysearch, fun() -> lists:keysearch(b, 1, id([{a, 1}, {b, 2}])) end),
    t(improper_display, fun() -> id([1, 2 | three]) end),
    t(nested_lists, fun() -> id([[1, [2, [3, []]]], [], [[]]]) end),
    t(cons_build, fun() -> [0 | L] end),
    t(list_to_tuple_len, fun() -> tuple_size(list_to_tuple(L ++ L)) end),
    t(is_list, fun() -> {is_list(L), is_list(id([])), is_list(id([a | b])), is_list(id({}))} end),
    t(equality, fun() -> {L == [1, 2, 3, 4, 5], [1] == [1.0], [1] =:= [1.0]} end),
    t(compare, fun() -> {id([1, 2]) < id([1, 3]), id([1]) < id([1, 0]), id([]) < id([0]), id([2]) > id([1, 9])} end),
    ok.

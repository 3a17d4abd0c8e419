%% Atom conversions and how erlang:display quotes atoms.
-module(atoms).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    t(atl, fun() -> atom_to_list(id(hello)) end),
    t(atl_quoted, fun() -> atom_to_list(id('Hello World')) end),
    t(lta, fun() -> list_to_atom(id("abc")) end),
    t(lta_upper, fun() -> list_to_atom(id("Abc")) end),
    t(lta_space, fun() -> list_to_atom(id("a b")) end),
    t(lta_empty, fun() -> list_to_atom(id("")) end),
    t(lta_digits, fun() -> list_to_atom(id("123")) end),
    t(lta_underscore, fun() -> list_to_atom(id("_x")) end),
    t(lta_at, fun() -> list_to_atom(id("a@b.c")) end),
    t(lta_quote, fun() -> list_to_atom(id("it's")) end),
    t(lta_backslash, fun() -> list_to_atom(id("a\\b")) end),
    t(lta_newline, fun() -> list_to_atom(id("a\nb")) end),
    t(lta_bad, fun() -> list_to_atom(id([a])) end),
    t(reserved_words, fun() -> [list_to_atom(W) || W <- id(["and", "case", "end", "fun", "of", "receive", "when", "try"])] end),
    t(special, fun() -> id(['[]', '{}', '+', '-', '==', 'ok!', 'é', true, false, undefined]) end),
    t(atb, fun() -> atom_to_binary(id(foo)) end),
    t(atb_utf8, fun() -> atom_to_binary(id('héllo'), utf8) end),
    t(atb_latin1, fun() -> atom_to_binary(id('héllo'), latin1) end),
    t(bta, fun() -> binary_to_atom(id(<<"bar">>), utf8) end),
    t(bta_existing, fun() -> binary_to_existing_atom(id(<<"ok">>), utf8) end),
    t(lta_existing_missing, fun() -> list_to_existing_atom(id("surely_this_atom_does_not_exist_xyz")) end),
    t(unicode_atom, fun() -> list_to_atom(id([1087, 1088, 1080])) end),
    t(atom_len, fun() -> length(atom_to_list(id(abcdefghij))) end),
    t(too_long, fun() -> list_to_atom(lists:duplicate(256, $a)) end),
    t(max_len, fun() -> length(atom_to_list(list_to_atom(lists:duplicate(255, $a)))) end),
    t(compare, fun() -> {id(a) < id(b), id(abc) < id(abd), id(z) < id(aa), id('B') < id(a)} end),
    t(is_atom, fun() -> {is_atom(id(a)), is_atom(id("a")), is_atom(id(true)), is_atom(id([]))} end),
    t(boolean, fun() -> {is_boolean(id(true)), is_boolean(id(maybe))} end),
    ok.

%% Strings as lists of character codes, and how erlang:display decides to print them as "...".
-module(strings).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

rev([], Acc) -> Acc;
rev([H | T], Acc) -> rev(T, [H | Acc]).

main() ->
    S = id("hello"),
    t(literal, fun() -> S end),
    t(codes, fun() -> [$h, $i] end),
    t(as_numbers, fun() -> id([104, 105]) end),
    t(not_printable, fun() -> id([104, 1, 105]) end),
    t(with_newline, fun() -> id("a\nb\tc") end),
    t(escapes, fun() -> id("q\"uote\\ back") end),
    t(latin1, fun() -> id([233, 224, 255]) end),
    t(unicode_codepoints, fun() -> id([1087, 1088, 1080]) end),
    t(above_255, fun() -> id([97, 256]) end),
    t(empty, fun() -> id("") end),
    t(concat, fun() -> S ++ " " ++ id("world") end),
    t(reverse, fun() -> rev(S, []) end),
    t(char_arith, fun() -> [C + 1 || C <- S] end),
    t(upper_manual, fun() -> [if C >= $a, C =< $z -> C - 32; true -> C end || C <- id("abc-xyz")] end),
    t(nested_strings, fun() -> id(["ab", "cd", [$e, [$f]]]) end),
    t(deep_char_list, fun() -> lists:flatten(id(["ab", ["cd", [$e]]])) end),
    t(string_compare, fun() -> {id("abc") < id("abd"), id("ab") < id("abc"), id("B") < id("a")} end),
    t(chars_special, fun() -> id([$\s, $\e, $\d, $\b, $\f, $\v, $\r]) end),
    t(list_with_neg, fun() -> id([104, -1]) end),
    t(string_in_tuple, fun() -> {id("x"), [id("y")], #{id("k") => id("v")}} end),
    t(number_strings, fun() -> {integer_to_list(42), float_to_list(1.5, [{decimals, 1}])} end),
    ok.

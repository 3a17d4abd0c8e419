%% Pattern matching: case, function heads, selection on atoms/integers/tuple arities, nested
%% patterns, repeated variables, aliases, strings and binaries in patterns.
-module(pattern_match).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

atom_sel(red) -> 1; atom_sel(green) -> 2; atom_sel(blue) -> 3; atom_sel(cyan) -> 4;
atom_sel(magenta) -> 5; atom_sel(yellow) -> 6; atom_sel(black) -> 7; atom_sel(_) -> 0.

int_sel(0) -> zero; int_sel(1) -> one; int_sel(2) -> two; int_sel(3) -> three;
int_sel(10) -> ten; int_sel(100) -> hundred; int_sel(-1) -> minus_one;
int_sel(N) when N > 1000000000000000000000 -> huge; int_sel(_) -> other.

arity_sel({}) -> 0; arity_sel({_}) -> 1; arity_sel({_, _}) -> 2; arity_sel({_, _, _}) -> 3;
arity_sel({_, _, _, _, _}) -> 5; arity_sel(T) when is_tuple(T) -> many; arity_sel(_) -> not_tuple.

shape({point, X, Y}) -> {p, X + Y};
shape({circle, {X, Y}, R}) when R > 0 -> {c, X, Y, R};
shape({rect, {X1, Y1}, {X2, Y2}}) -> {r, abs(X2 - X1) * abs(Y2 - Y1)};
shape([{point, _, _} = P | _]) -> {first, P};
shape(_) -> unknown.

same(X, X) -> same;
same(_, _) -> different.

pair([A, A | _]) -> {pair, A};
pair([_ | T]) -> pair(T);
pair([]) -> none.

prefix("http://" ++ Rest) -> {http, Rest};
prefix("ftp://" ++ Rest) -> {ftp, Rest};
prefix(_) -> other.

float_sel(1.0) -> float_one;
float_sel(1) -> int_one;
float_sel(_) -> neither.

main() ->
    t(atoms, fun() -> [atom_sel(X) || X <- id([red, green, blue, cyan, magenta, yellow, black, white, 1])] end),
    t(integers, fun() -> [int_sel(X) || X <- id([0, 1, 2, 3, 10, 100, -1, 5, 1 bsl 80, 1.0, a])] end),
    t(arities, fun() -> [arity_sel(X) || X <- id([{}, {a}, {a, b}, {a, b, c}, {1, 2, 3, 4}, {1, 2, 3, 4, 5}, [], x])] end),
    t(nested, fun() -> [shape(S) || S <- id([{point, 1, 2}, {circle, {0, 0}, 5}, {circle, {0, 0}, -1},
                                              {rect, {1, 1}, {4, 5}}, [{point, 9, 9}, x], {point, 1}])] end),
    t(repeated_var, fun() -> [same(A, B) || {A, B} <- id([{1, 1}, {1, 1.0}, {a, a}, {[x], [x]}, {{}, {}}])] end),
    t(adjacent_pair, fun() -> {pair(id([1, 2, 3, 3, 4])), pair(id([1, 2, 3]))} end),
    t(string_prefix, fun() -> [prefix(S) || S <- id(["http://x.org", "ftp://f", "gopher://g"])] end),
    t(float_vs_int, fun() -> [float_sel(X) || X <- id([1, 1.0, 2])] end),
    t(alias, fun() -> {A, B} = C = id({1, 2}), {A, B, C} end),
    t(alias_in_head, fun() -> F = fun({x, _} = W) -> W; (_) -> no end, {F(id({x, 1})), F(id(y))} end),
    t(case_nested, fun() -> case id({ok, [1, {two, 2}]}) of
                                {ok, [_, {two, V}]} -> {matched, V};
                                {ok, _} -> partial;
                                _ -> none
                            end end),
    t(list_patterns, fun() -> [case L of [] -> empty; [_] -> one; [_, _] -> two; [_, _ | _] -> many end
                               || L <- id([[], [a], [a, b], [a, b, c]])] end),
    t(map_pattern_in_case, fun() -> [case M of #{type := circle, r := R} -> {circle, R}; #{type := T} -> T; _ -> none end
                                     || M <- id([#{type => circle, r => 2}, #{type => sq}, #{}])] end),
    t(binary_pattern, fun() -> case id(<<"key=value">>) of <<K:3/binary, "=", V/binary>> -> {K, V} end end),
    t(match_operator_chain, fun() -> A = B = id(5), A + B end),
    t(wildcard_ignored, fun() -> {_, _, X} = id({1, 2, 3}), X end),
    t(big_int_literal_match, fun() -> case id(1 bsl 70) of 1180591620717411303424 -> yes; _ -> no end end),
    t(nil_vs_empty_tuple, fun() -> [case X of [] -> nil; {} -> empty_tuple; <<>> -> empty_bin; _ -> other end
                                    || X <- id([[], {}, <<>>, #{}])] end),
    ok.

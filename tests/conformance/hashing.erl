%% erlang:phash2/1,2 and erlang:phash/2: values are part of OTP's observable behaviour
%% (they decide placement in hash-based structures).
-module(hashing).
-export([main/0, id/1]).
-compile({nowarn_deprecated_function, [{erlang, phash, 2}]}).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    t(phash2_ints, fun() -> [erlang:phash2(X) || X <- id([0, 1, -1, 255, 1 bsl 40, 1 bsl 70, -(1 bsl 70)])] end),
    t(phash2_floats, fun() -> [erlang:phash2(X) || X <- id([0.0, 1.5, -2.25e10])] end),
    t(phash2_atoms, fun() -> [erlang:phash2(X) || X <- id([a, ok, undefined, 'hello world', ''])] end),
    t(phash2_lists, fun() -> [erlang:phash2(X) || X <- id([[], "abc", [1, 2, 3], [a | b], [[]]])] end),
    t(phash2_tuples, fun() -> [erlang:phash2(X) || X <- id([{}, {a}, {a, b}, {1, {2, {3}}}])] end),
    t(phash2_binaries, fun() -> [erlang:phash2(X) || X <- id([<<>>, <<"abc">>, <<1:1>>, <<1, 2, 3:5>>, list_to_binary(lists:seq(0, 255))])] end),
    t(phash2_maps, fun() -> [erlang:phash2(X) || X <- id([#{}, #{a => 1}, #{a => 1, b => 2}, maps:from_list([{I, I} || I <- lists:seq(1, 40)])])] end),
    t(phash2_export_fun, fun() -> erlang:phash2(fun lists:map/2) end),
    t(phash2_range, fun() -> [erlang:phash2(X, 16) || X <- id([a, b, c, 1, 2, 3, "s", {t}])] end),
    t(phash2_range_one, fun() -> erlang:phash2(id(anything), 1) end),
    t(phash2_bad_range, fun() -> erlang:phash2(id(a), 0) end),
    t(phash2_equal_terms, fun() -> {erlang:phash2(id(1)) =:= erlang:phash2(id(1.0)), erlang:phash2(id("ab")) =:= erlang:phash2(id([97, 98]))} end),
    t(phash, fun() -> [erlang:phash(X, 1 bsl 32) || X <- id([a, 1, "abc", {1, 2}, <<"bin">>, 1.0])] end),
    %% phash/2 mixes in an atom's table hash (as phash2 does) and a map's phash2 value.
    t(phash_atoms_maps_funs, fun() -> [erlang:phash(X, 1 bsl 32) || X <- id(['héllo', '日本語', [ok, error, 'ÿ'],
                                                                          #{a => 1, "k" => [b]}, maps:from_list([{I, I} || I <- lists:seq(1, 40)]),
                                                                          fun lists:map/2, {fun erlang:self/0, x}])] end),
    t(phash2_big_list, fun() -> erlang:phash2(lists:seq(1, 10000)) end),
    %% Atoms hash by their name, latin-1 code points folded back to one byte each.
    t(phash2_unicode_atoms, fun() -> [erlang:phash2(X) || X <- id(['héllo', 'ÿ', 'Ā', '日本語', 'a€b', list_to_atom([200, 300])])] end),
    t(phash2_atoms_in_terms, fun() -> [erlang:phash2(X) || X <- id([{'héllo', [ok, '日本']}, #{'ÿ' => [a]}, [{k, v} || _ <- lists:seq(1, 3)]])] end),
    %% Wider and deeper than the hash's work stack holds in place.
    t(phash2_wide_tuple, fun() -> erlang:phash2(list_to_tuple([{I, [I, a]} || I <- lists:seq(1, 300)])) end),
    t(phash2_deep, fun() -> erlang:phash2(lists:foldl(fun(I, A) -> {I, A, [b, I]} end, x, lists:seq(1, 500))) end),
    ok.

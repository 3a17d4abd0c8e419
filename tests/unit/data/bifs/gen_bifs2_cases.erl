%% Generates bifs2_cases.txt (unicode, binary search, phash, map iteration, external size
%% and string prefix natives), in bif_cases.txt's format. Regenerate with:
%%   erlc gen_bifs2_cases.erl && erl -noshell -s gen_bifs2_cases main -s erlang halt > bifs2_cases.txt
%% Line format (hex = term_to_binary, args as a list):
%%   Module Function Arity ArgsHex ok ResultHex
%%   Module Function Arity ArgsHex Class ReasonHex
-module(gen_bifs2_cases).
-export([main/0]).

chardata() ->
    [[1,2,<<3,255>>,4], [1,[2,[<<3,255,5>>,6]],4], [1,2,-1,4], [1,2,16#110000,4], [1,2,16#D800,4],
     [1,2,300,4], [a], a, <<1,2>>, [1|<<2>>], [1|2], <<228,195>>, [<<228,195>>], [<<195>>,<<164>>],
     [<<228,195>>,1], [<<"a">>,<<226,130>>], <<226,130>>, <<226,130,172>>, <<237,160,128>>,
     <<192,128>>, <<"abc",255,"def">>, [[[<<"x">>],<<"y",255,"z">>],"q"], [<<"ab">>,[<<"c",226>>],5],
     [<<"ab">>,[<<"c",226>>],<<130,172>>], [<<"ab">>,[<<"c",226>>],<<255>>], [1|<<255>>],
     [1000,<<"x">>], <<1:1>>, [1.0], [], [[]], [<<248,128>>], <<"a",194>>, [<<"a",194>>,65],
     [<<"a",194>>|<<"b">>], [<<99,226>>,<<255>>,5], [<<99,226>>,<<255,1>>,5],
     [<<99,226>>,<<130,172,255>>,5], [[<<99,226>>],[[<<130>>,5]],6], [<<99,226>>,[[]],<<255>>],
     [<<99,240>>,<<159>>,<<255>>], [1,<<255>>|a], [1 bsl 64, 1], <<192>>, <<237,160>>, [<<192>>,5],
     "h\x{e9}llo", [16#1F600, <<"é"/utf8>>]].

cases() ->
    S = <<"a,b,,c,,">>,
    M = #{a => 1, b => 2, c => 3},
    [{unicode, F, [D, E]} || F <- [characters_to_binary, characters_to_list],
                              D <- chardata(), E <- [utf8, latin1]] ++
    [{unicode, characters_to_binary, [D, E]} || {D, E} <- [{"abc", foo}, {<<0,97,32,172>>, utf16},
                                                          {<<97,0,172,32>>, {utf16, little}},
                                                          {<<0,0,0,97>>, utf32}, {<<97,0,0,0>>, {utf32, little}},
                                                          {<<216,61,222,0>>, utf16}]] ++
    [{unicode, bin_is_7bit, [X]} || X <- [<<"abc">>, <<"ab", 200>>, [], <<>>]] ++
    [{binary, split, [S, <<",">>]}, {binary, split, [S, <<",">>, [global]]},
     {binary, split, [S, <<",">>, [global, trim]]}, {binary, split, [S, <<",">>, [global, trim_all]]},
     {binary, split, [S, <<",">>, [trim_all]]}, {binary, split, [<<",a">>, <<",">>, [trim_all]]},
     {binary, split, [<<",,">>, <<",">>, [global, trim]]}, {binary, split, [<<>>, <<",">>]},
     {binary, split, [<<>>, <<",">>, [trim_all]]}, {binary, split, [S, <<",">>, [{scope, {2, 3}}, global]]},
     {binary, split, [S, <<",">>, [{scope, {5, -3}}, global]]}, {binary, split, [S, [<<",">>, <<"b">>], [global]]},
     {binary, split, [S, <<>>]}, {binary, split, [S, []]}, {binary, split, [S, <<",">>, [foo]]},
     {binary, split, [S, <<",">>, [{scope, {2, 30}}]]}, {binary, split, [a, <<",">>]},
     {binary, split, [<<"abcabc">>, [<<"ab">>, <<"abc">>, <<"bc">>], [global]]},
     {binary, match, [S, <<",">>]}, {binary, match, [S, <<"z">>]}, {binary, match, [S, [<<"b">>, <<",b">>, <<",">>]]},
     {binary, match, [<<"abcde">>, [<<"bcd">>, <<"bc">>, <<"cde">>]]}, {binary, match, [S, <<",">>, [{scope, {2, 4}}]]},
     {binary, match, [S, <<",">>, [{scope, {8, -3}}]]}, {binary, match, [S, <<",">>, [{scope, {8, 0}}]]},
     {binary, match, [S, <<",">>, [{scope, {9, 0}}]]}, {binary, match, [S, <<",">>, [global]]},
     {binary, matches, [S, <<",">>]}, {binary, matches, [<<"aaaa">>, <<"aa">>]},
     {binary, matches, [<<"abcde">>, [<<"bcd">>, <<"cd">>, <<"de">>, <<"a">>]]},
     {binary, matches, [S, <<",">>, [{scope, {3, 4}}]]}, {binary, matches, [S, <<"q">>]},
     {binary, longest_common_prefix, [[<<"abcd">>, <<"abxy">>]]}, {binary, longest_common_prefix, [[<<"abcd">>]]},
     {binary, longest_common_prefix, [[]]}, {binary, longest_common_prefix, [[<<"abcd">>, <<>>]]},
     {binary, longest_common_prefix, [[<<"abcd">>, a]]}, {binary, longest_common_suffix, [[<<"abcd">>, <<"xxcd">>, <<"zcd">>]]},
     {binary, longest_common_suffix, [[]]}, {binary, compile_pattern, [<<>>]}, {binary, compile_pattern, [[]]}] ++
    [{erlang, phash, [T, R]} || T <- [[], [1], [1,2], "abc", [a], [a|b], [1|2], [300], [-1], [[1]], {}, {1},
                                      1 bsl 40, -(1 bsl 40), 1 bsl 64, -(1 bsl 70), <<>>, <<1:3>>, <<"hello">>,
                                      0.0, 1.5, #{}, #{a => 1}, 5, -5, (1 bsl 60) - 1, 'héllo', {a, "b", [c]}],
                                R <- [1 bsl 32, 1000]] ++
    [{erlang, phash, [a, 0]}, {erlang, phash, [a, (1 bsl 32) + 1]}, {erlang, phash, [a, b]}] ++
    [{erts_internal, map_next, [0, M, []]}, {erts_internal, map_next, [0, M, [x]]},
     {erts_internal, map_next, [0, M, iterator]}, {erts_internal, map_next, [3, M, iterator]},
     {erts_internal, map_next, [4, M, iterator]}, {erts_internal, map_next, [-1, M, iterator]},
     {erts_internal, map_next, [0, #{}, iterator]}, {erts_internal, map_next, [0, #{}, []]},
     {erts_internal, map_next, [0, M, foo]}, {erts_internal, map_next, [0, x, []]}] ++
    [{erlang, external_size, [T]} || T <- [{a, "b"}, 1.0, binary:copy(<<"x">>, 1000), #{a => [1, 2]}]] ++
    [{erlang, external_size, [1.0, O]} || O <- [[{minor_version, 0}], [foo], [{minor_version, 3}], [compressed]]] ++
    [{erlang, term_to_iovec, [T]} || T <- [{x}, <<1, 2, 3>>, <<1:3>>, [binary:copy(<<"y">>, 70), binary:copy(<<"z">>, 65)],
                                         #{binary:copy(<<"k">>, 65) => 1, a => binary:copy(<<"v">>, 65)}]] ++
    [{erlang, term_to_iovec, [1.0, [{minor_version, 0}]]}, {erlang, term_to_iovec, [1.0, [{minor_version, 3}]]}] ++
    [{string, F, [X]} || F <- [list_to_integer, list_to_float],
                         X <- ["42abc", "-12x", "+5", "abc", "", "3.5e2 rest", "3.5e", "3.5e-2x", "-0.5", "1.0e400",
                               "5.", "123456789012345678901234567890z", [$1 | a], [$1, $., $2 | a], a, [$1, 300]]].

main() ->
    [io:format("~s ~s ~b ~s ~s~n", [M, F, length(A), hex(A), result(M, F, A)]) || {M, F, A} <- cases()],
    ok.

result(M, F, A) ->
    try apply(M, F, A) of
        V -> ["ok ", hex(V)]
    catch
        C:R -> [atom_to_list(C), " ", hex(R)]
    end.

hex(T) -> binary:encode_hex(term_to_binary(T)).

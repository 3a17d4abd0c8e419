%% unicode:characters_to_binary/list (errors, incomplete input, other encodings), the binary
%% module's search functions, erlang:phash/2, maps iteration (erts_internal:map_next/3),
%% term_to_iovec/external_size and string:list_to_integer/float.
-module(unicode_binary).
-export([main/0]).
-compile({nowarn_deprecated_function, [{erlang, phash, 2}]}).

t(Label, F) ->
    R = try F() catch C:E -> {C, E} end,
    erlang:display({Label, R}).

id(X) -> X.

main() ->
    t(c2b_mixed, fun() -> unicode:characters_to_binary(id([$a, [16#E9, <<"b">>], 16#20AC | <<"!">>])) end),
    t(c2b_error_nested, fun() -> unicode:characters_to_binary(id([1, [2, [<<3, 255, 5>>, 6]], 4])) end),
    t(c2b_error_int, fun() -> unicode:characters_to_binary(id([$a, 16#D800, $b])) end),
    t(c2b_incomplete, fun() -> unicode:characters_to_binary(id([<<"a">>, <<226, 130>>])) end),
    t(c2b_leftover_fill, fun() -> unicode:characters_to_binary(id([<<"c", 226>>, <<130>>, <<172>>])) end),
    t(c2b_leftover_error, fun() -> unicode:characters_to_binary(id([<<"c", 226>>, <<255, 1>>, 5])) end),
    t(c2b_badarg, fun() -> unicode:characters_to_binary(id([1, <<255>> | a])) end),
    t(c2b_latin1, fun() -> unicode:characters_to_binary(id([<<200>>, 201]), latin1) end),
    t(c2b_latin1_error, fun() -> unicode:characters_to_binary(id([1000, <<"x">>]), latin1) end),
    t(c2l_binary, fun() -> unicode:characters_to_list(id(<<"h", 195, 169, 240, 159, 152, 128>>)) end),
    t(c2l_single_bin_error, fun() -> unicode:characters_to_list(id([<<248, 128>>])) end),
    t(c2b_single_bin_error, fun() -> unicode:characters_to_binary(id([<<248, 128>>])) end),
    t(c2b_utf16_in, fun() -> unicode:characters_to_binary(id(<<0, 97, 32, 172>>), utf16) end),
    t(c2l_utf32_little, fun() -> unicode:characters_to_list(id(<<97, 0, 0, 0, 0, 246, 1, 0>>), {utf32, little}) end),
    t(c2b_to_utf16, fun() -> unicode:characters_to_binary(id("a€"), unicode, utf16) end),
    t(c2b_to_latin1_error, fun() -> unicode:characters_to_binary(id(<<"a€"/utf8>>), utf8, latin1) end),
    t(c2b_1_badarg, fun() -> unicode:characters_to_binary(id(a)) end),
    t(bin_is_7bit, fun() -> {unicode:bin_is_7bit(id(<<"abc">>)), unicode:bin_is_7bit(id(<<"é"/utf8>>))} end),
    S = id(<<"a,b,,c,,">>),
    t(split_plain, fun() -> binary:split(S, <<",">>) end),
    t(split_global, fun() -> binary:split(S, <<",">>, [global]) end),
    t(split_trim, fun() -> binary:split(S, <<",">>, [global, trim]) end),
    t(split_trim_all, fun() -> binary:split(S, <<",">>, [global, trim_all]) end),
    t(split_scope, fun() -> binary:split(S, <<",">>, [{scope, {5, -3}}, global]) end),
    t(split_multi, fun() -> binary:split(id(<<"abcabc">>), [<<"ab">>, <<"abc">>, <<"bc">>], [global]) end),
    t(split_empty_pattern, fun() -> binary:split(S, <<>>) end),
    t(match_longest, fun() -> binary:match(id(<<"abcde">>), [<<"bcd">>, <<"bc">>, <<"cde">>]) end),
    t(match_scope, fun() -> binary:match(S, <<",">>, [{scope, {2, 4}}]) end),
    t(match_bad_scope, fun() -> binary:match(S, <<",">>, [{scope, {9, 0}}]) end),
    t(matches, fun() -> binary:matches(id(<<"abcde">>), [<<"bcd">>, <<"cd">>, <<"de">>, <<"a">>]) end),
    t(matches_overlap, fun() -> binary:matches(id(<<"aaaa">>), <<"aa">>) end),
    t(compiled, fun() -> P = binary:compile_pattern(id([<<"a">>, <<"b">>])),
                         {binary:split(<<"xaybz">>, P, [global]), binary:matches(<<"xaybz">>, P)} end),
    t(replace, fun() -> binary:replace(id(<<"hello">>), [<<"l">>, <<"h">>], <<"[]">>, [global, {insert_replaced, 1}]) end),
    t(common_affixes, fun() -> {binary:longest_common_prefix(id([<<"abcd">>, <<"abxy">>])),
                                binary:longest_common_suffix(id([<<"abcd">>, <<"xxcd">>, <<"zcd">>]))} end),
    t(phash, fun() -> [erlang:phash(X, 1 bsl 32) || X <- id([[], "abc", [a | b], {1, [2]}, 1 bsl 70, -5, 2.5,
                                                            <<1:3>>, #{a => 1}, 'héllo'])] end),
    t(phash_range, fun() -> erlang:phash(id({x, y}), 7) end),
    M = id(#{c => 3, a => 1, b => 2}),
    t(map_iterator, fun() -> I = maps:iterator(M), {K, V, I2} = maps:next(I), {K, V, maps:next(I2)} end),
    t(map_fold, fun() -> maps:fold(fun(K, V, Acc) -> [{K, V} | Acc] end, [], M) end),
    t(map_filter_map, fun() -> {maps:filter(fun(_, V) -> V > 1 end, M), maps:map(fun(_, V) -> V * 10 end, M)} end),
    t(map_next_raw, fun() -> erts_internal:map_next(0, M, [x]) end),
    t(iovec, fun() -> term_to_iovec(id({a, binary:copy(<<"x">>, 70), [1]})) end),
    t(iovec_small, fun() -> term_to_iovec(id({x})) end),
    t(external_size, fun() -> {erlang:external_size(id({a, "b"})), erlang:external_size(id(1.0), [{minor_version, 0}])} end),
    t(string_int, fun() -> {string:list_to_integer(id("-42abc")), string:list_to_integer(id("x"))} end),
    t(string_float, fun() -> {string:list_to_float(id("3.5e2 rest")), string:list_to_float(id("5."))} end),
    ok.

%% The binary module's native functions: results on corner inputs and the error of each one
%% (bad types, empty patterns, out-of-range positions, bad options), and compiled patterns.
-module(binary_module).
-export([main/0]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, r(F)}).

r(F) -> try F() catch C:R -> {C, R} end.

main() ->
    access(),
    conversions(),
    search(),
    splitting(),
    affixes(),
    ok.

access() ->
    B = id(<<"abcdef">>),
    t(first_empty, fun() -> binary:first(id(<<>>)) end),
    t(first_bits, fun() -> binary:first(id(<<1:7>>)) end),
    t(first_bits_ok, fun() -> binary:first(id(<<1, 1:1>>)) end),
    t(last_empty, fun() -> binary:last(id(<<>>)) end),
    t(last_bad, fun() -> binary:last(id("ab")) end),
    t(at_range, fun() -> [r(fun() -> binary:at(B, N) end) || N <- id([0, 5, 6, -1, a])] end),
    t(part_forms, fun() -> {binary:part(B, {6, -6}), binary:part(B, 3, 0), binary:part(B, {0, 6})} end),
    t(part_bad, fun() -> [r(fun() -> binary:part(B, P, L) end) || {P, L} <- id([{-1, 1}, {0, 7}, {7, -1}, {1, a}])] end),
    t(part_bits, fun() -> binary:part(id(<<1, 2, 3:3>>), 0, 2) end),
    t(copy_zero, fun() -> binary:copy(B, 0) end),
    t(copy_neg, fun() -> binary:copy(B, -1) end),
    t(copy_bits, fun() -> binary:copy(id(<<1:1>>), 2) end),
    t(copy_bad, fun() -> binary:copy(id(abc)) end),
    t(copy_big, fun() -> byte_size(binary:copy(B, 1000)) end),
    t(referenced_bad, fun() -> binary:referenced_byte_size(id(abc)) end),
    t(referenced_bits, fun() -> binary:referenced_byte_size(id(<<1:3>>)) end).

conversions() ->
    B = id(<<"abcdef">>),
    t(btl_forms, fun() -> {binary:bin_to_list(B, {6, -3}), binary:bin_to_list(B, 2, 0), binary:bin_to_list(B)} end),
    t(btl_bad, fun() -> [r(fun() -> binary:bin_to_list(B, P, L) end) || {P, L} <- id([{0, 7}, {-1, 1}, {a, 1}])] end),
    t(btl_bits, fun() -> binary:bin_to_list(id(<<1:1>>)) end),
    t(list_to_bin, fun() -> binary:list_to_bin(id([1, [<<2>>], "c"])) end),
    t(list_to_bin_bad, fun() -> binary:list_to_bin(id(<<1>>)) end),
    t(decode_forms, fun() -> {binary:decode_unsigned(id(<<>>)), binary:decode_unsigned(id(<<1, 2, 3>>), little),
                              binary:decode_unsigned(id(<<0, 0, 1>>), big),
                              binary:decode_unsigned(id(binary:copy(<<255>>, 20)))} end),
    t(decode_bad, fun() -> [r(fun() -> binary:decode_unsigned(X, E) end) || {X, E} <- id([{<<1>>, middle}, {<<1:1>>, big}, {a, big}])] end),
    t(encode_forms, fun() -> {binary:encode_unsigned(0), binary:encode_unsigned(256, little),
                              binary:encode_unsigned(1 bsl 80), binary:encode_unsigned(16#10000, little)} end),
    t(encode_bad, fun() -> [r(fun() -> binary:encode_unsigned(X, E) end) || {X, E} <- id([{-1, big}, {1.0, big}, {1, middle}])] end).

search() ->
    S = id(<<"abracadabra">>),
    t(match_first, fun() -> binary:match(S, [<<"bra">>, <<"cad">>]) end),
    t(match_longest_same_start, fun() -> binary:match(S, [<<"a">>, <<"abra">>, <<"ab">>]) end),
    t(match_scope_end, fun() -> binary:match(S, <<"abra">>, [{scope, {11, -4}}]) end),
    t(match_scope_oob, fun() -> binary:match(S, <<"a">>, [{scope, {0, 12}}]) end),
    t(match_scope_bad, fun() -> binary:match(S, <<"a">>, [{scope, {a, 1}}]) end),
    t(match_bad_opt, fun() -> binary:match(S, <<"a">>, [global]) end),
    t(match_empty_pat, fun() -> binary:match(S, <<>>) end),
    t(match_empty_list, fun() -> binary:match(S, []) end),
    t(match_pat_in_list_empty, fun() -> binary:match(S, [<<"a">>, <<>>]) end),
    t(match_bad_subject, fun() -> binary:match(id("abc"), <<"a">>) end),
    t(match_bits_subject, fun() -> binary:match(id(<<1:9>>), <<1>>) end),
    t(match_bits_pattern, fun() -> binary:match(S, id(<<1:9>>)) end),
    t(matches_all, fun() -> binary:matches(S, [<<"a">>, <<"abra">>]) end),
    t(matches_scope, fun() -> binary:matches(S, <<"a">>, [{scope, {3, 5}}]) end),
    t(matches_none, fun() -> binary:matches(S, <<"z">>) end),
    t(matches_bad, fun() -> binary:matches(S, <<>>) end),
    P = binary:compile_pattern(id([<<"ab">>, <<"ra">>])),
    t(cp_is_tuple, fun() -> element(1, P) end),
    t(cp_match, fun() -> {binary:match(S, P), binary:matches(S, P), binary:split(S, P, [global])} end),
    t(cp_single, fun() -> binary:matches(S, binary:compile_pattern(<<"a">>)) end),
    t(cp_bad, fun() -> [r(fun() -> binary:compile_pattern(X) end) || X <- id([<<>>, [], [<<"a">>, <<>>], abc, [a]])] end),
    t(cp_duplicates, fun() -> binary:matches(S, binary:compile_pattern([<<"a">>, <<"a">>])) end),
    t(replace_fun, fun() -> binary:replace(S, <<"a">>, <<"*">>, [global, {scope, {1, 9}}]) end),
    t(replace_insert, fun() -> binary:replace(S, <<"bra">>, <<"<>">>, [{insert_replaced, [0, 2]}]) end),
    t(replace_bad, fun() -> binary:replace(S, <<>>, <<"x">>) end),
    t(replace_bad_repl, fun() -> binary:replace(S, <<"a">>, x) end).

splitting() ->
    S = id(<<",a,,b,">>),
    t(split_lead, fun() -> binary:split(S, <<",">>) end),
    t(split_global, fun() -> binary:split(S, <<",">>, [global]) end),
    t(split_trim, fun() -> binary:split(S, <<",">>, [trim]) end),
    t(split_trim_all_one, fun() -> binary:split(S, <<",">>, [trim_all]) end),
    t(split_global_trim_all, fun() -> binary:split(S, <<",">>, [global, trim_all]) end),
    t(split_none, fun() -> binary:split(S, <<";">>, [global, trim_all]) end),
    t(split_empty_subject, fun() -> {binary:split(id(<<>>), <<",">>), binary:split(id(<<>>), <<",">>, [trim_all])} end),
    t(split_all_sep, fun() -> binary:split(id(<<",,,">>), <<",">>, [global, trim]) end),
    t(split_bad_opt, fun() -> binary:split(S, <<",">>, [bogus]) end),
    t(split_bad_opts_list, fun() -> binary:split(S, <<",">>, bogus) end),
    t(split_bad_pat, fun() -> binary:split(S, []) end),
    t(split_scope, fun() -> binary:split(S, <<",">>, [global, {scope, {1, 4}}]) end),
    t(split_multi_overlap, fun() -> binary:split(id(<<"xabcx">>), [<<"bc">>, <<"abc">>], [global]) end).

affixes() ->
    t(lcp_cases, fun() -> [binary:longest_common_prefix(id(L)) || L <- [[<<"abc">>], [<<"abc">>, <<>>], [<<"x">>, <<"y">>],
                                                                          [<<"abc">>, <<"abc">>, <<"abd">>]]] end),
    t(lcs_cases, fun() -> [binary:longest_common_suffix(id(L)) || L <- [[<<"abc">>], [<<"abc">>, <<>>], [<<"xbc">>, <<"ybc">>]]] end),
    t(lcp_bad, fun() -> [r(fun() -> binary:longest_common_prefix(id(X)) end) || X <- [[], <<"a">>, [<<"a">>, a], [<<"a">> | <<"b">>], [<<1:1>>]]] end),
    t(lcs_bad, fun() -> [r(fun() -> binary:longest_common_suffix(id(X)) end) || X <- [[], [<<"a">>, 1]]] end).

%% Atoms with characters beyond Latin-1, the 255-character limit, atom <-> binary/list
%% conversions in each encoding, how display and term_to_binary show unicode atoms, and the
%% native parts of unicode:characters_to_list/binary.
-module(atoms_unicode).
-export([main/0]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, r(F)}).

r(F) -> try F() catch C:R -> {C, R} end.

main() ->
    limits(),
    conversions(),
    display_and_order(),
    external(),
    characters(),
    ok.

limits() ->
    A255 = lists:duplicate(255, $a),
    U255 = lists:duplicate(255, 16#1F600),
    t(lta_255, fun() -> length(atom_to_list(list_to_atom(id(A255)))) end),
    t(lta_256, fun() -> list_to_atom(id([$b | A255])) end),
    t(lta_unicode_255, fun() -> A = list_to_atom(id(U255)), {length(atom_to_list(A)), byte_size(atom_to_binary(A))} end),
    t(lta_unicode_256, fun() -> list_to_atom(id([16#1F600 | U255])) end),
    t(bta_utf8_255_chars, fun() -> A = binary_to_atom(id(unicode:characters_to_binary(U255)), utf8), length(atom_to_list(A)) end),
    t(bta_utf8_256_chars, fun() -> binary_to_atom(id(unicode:characters_to_binary([$x | U255])), utf8) end),
    t(bta_latin1_256, fun() -> binary_to_atom(id(list_to_binary([$c | A255])), latin1) end),
    t(bta_latin1_255_high, fun() -> A = binary_to_atom(id(binary:copy(<<233>>, 255)), latin1), length(atom_to_list(A)) end),
    t(ltea_256, fun() -> list_to_existing_atom(id([$b | A255])) end),
    t(btea_256, fun() -> binary_to_existing_atom(id(list_to_binary([$b | A255])), utf8) end),
    t(lta_bad_char, fun() -> [r(fun() -> list_to_atom(id(L)) end) || L <- [[-1], [16#110000], [16#D800], [1.0], [$a | b]]] end),
    t(lta_max_char, fun() -> atom_to_list(list_to_atom(id([16#10FFFF]))) end).

conversions() ->
    U = id('ключ'),
    t(atb_utf8, fun() -> atom_to_binary(U, utf8) end),
    t(atb_unicode, fun() -> atom_to_binary(U, unicode) end),
    t(atb_latin1_bad, fun() -> atom_to_binary(U, latin1) end),
    t(atb_latin1_ok, fun() -> atom_to_binary(id('ÿé'), latin1) end),
    t(atb_bad_enc, fun() -> atom_to_binary(U, utf16) end),
    t(atb_not_atom, fun() -> atom_to_binary(id("x"), utf8) end),
    t(bta_utf8, fun() -> binary_to_atom(id(<<208, 186, 208, 187>>), utf8) end),
    t(bta_utf8_invalid, fun() -> binary_to_atom(id(<<255, 254>>), utf8) end),
    t(bta_utf8_overlong, fun() -> binary_to_atom(id(<<192, 128>>), utf8) end),
    t(bta_utf8_surrogate, fun() -> binary_to_atom(id(<<237, 160, 128>>), utf8) end),
    t(bta_utf8_truncated, fun() -> binary_to_atom(id(<<208>>), utf8) end),
    t(bta_latin1_high, fun() -> binary_to_atom(id(<<255, 233>>), latin1) end),
    t(bta_same_atom, fun() -> binary_to_atom(id(<<195, 169>>), utf8) =:= binary_to_atom(id(<<233>>), latin1) end),
    t(bta_bits, fun() -> binary_to_atom(id(<<97, 1:1>>), utf8) end),
    t(bta_bad_enc, fun() -> binary_to_atom(id(<<"a">>), utf32) end),
    t(bta_1, fun() -> binary_to_atom(id(<<"x", 226, 130, 172>>)) end),
    t(btea_unicode, fun() -> binary_to_existing_atom(id(<<208, 186, 208, 187, 209, 142, 209, 135>>), utf8) end),
    t(btea_missing, fun() -> binary_to_existing_atom(id(<<"no_such_atom_", 226, 130, 172, "_zz">>), utf8) end),
    t(btea_latin1, fun() -> binary_to_existing_atom(id(<<255, 233>>), latin1) end),
    t(ltea_unicode, fun() -> list_to_existing_atom(id([1082, 1083, 1102, 1095])) end),
    t(ltea_bad, fun() -> list_to_existing_atom(id([a])) end),
    t(ltea_not_list, fun() -> list_to_existing_atom(id(<<"ok">>)) end),
    t(atl_unicode, fun() -> atom_to_list(U) end),
    t(roundtrip_chars, fun() -> L = [16#41, 16#E9, 16#3B1, 16#4E2D, 16#1F600],
                               A = list_to_atom(id(L)),
                               {atom_to_list(A) =:= L, binary_to_atom(atom_to_binary(A)) =:= A} end).

display_and_order() ->
    t(disp_cyrillic, fun() -> id('ключ') end),
    t(disp_mixed, fun() -> id(['日本', 'a€', 'Ärger', 'ärger', 'é', 'ok_ß', '😀']) end),
    t(disp_list_to_atom, fun() -> [list_to_atom(id(L)) || L <- [[16#3B1], [$a, 16#3B1], [$A, 16#3B1], "a b", [255]]] end),
    t(disp_in_term, fun() -> {id('ключ'), [id('π')], #{id('π') => 1}} end),
    t(order, fun() -> lists:sort(id(['😀', 'é', 'z', 'ключ', 'aé', 'ÿ', 'Ā'])) end),
    t(compare, fun() -> {id('ÿ') < id('Ā'), id('é') > id(z), id('ключ') > id('ÿ')} end).

external() ->
    t(ttb_ascii, fun() -> term_to_binary(id(abc)) end),
    t(ttb_latin1, fun() -> term_to_binary(id('é')) end),
    t(ttb_unicode, fun() -> term_to_binary(id('ключ')) end),
    t(ttb_long_unicode, fun() -> byte_size(term_to_binary(list_to_atom(id(lists:duplicate(200, 16#3B1))))) end),
    t(ttb_long_head, fun() -> binary:part(term_to_binary(list_to_atom(id(lists:duplicate(200, 16#3B1)))), 0, 4) end),
    t(ttb_minor0, fun() -> term_to_binary(id('é'), [{minor_version, 0}]) end),
    t(ttb_minor0_unicode, fun() -> term_to_binary(id('ключ'), [{minor_version, 0}]) end),
    t(btt_atom_ext_latin1, fun() -> binary_to_term(id(<<131, 100, 0, 2, 255, 233>>)) end),
    t(btt_small_atom_ext, fun() -> binary_to_term(id(<<131, 115, 1, 233>>)) end),
    t(btt_utf8_ext, fun() -> binary_to_term(id(<<131, 118, 0, 2, 207, 128>>)) end),
    t(btt_small_utf8_ext, fun() -> binary_to_term(id(<<131, 119, 2, 207, 128>>)) end),
    t(btt_utf8_bad, fun() -> binary_to_term(id(<<131, 119, 2, 255, 128>>)) end),
    t(btt_utf8_too_long, fun() -> binary_to_term(id(<<131, 118, 1, 0, (binary:copy(<<"a">>, 256))/binary>>)) end),
    t(roundtrip, fun() -> A = list_to_atom(id([16#1F600, $x])), binary_to_term(term_to_binary({A, [A]})) =:= {A, [A]} end).

characters() ->
    t(c2l_deep, fun() -> unicode:characters_to_list(id([[<<"a">>, [98]], <<"é"/utf8>>, [[[16#1F600]]]])) end),
    t(c2l_utf16_in, fun() -> unicode:characters_to_list(id(<<216, 61, 222, 0, 0, 97>>), utf16) end),
    t(c2l_utf16_little_in, fun() -> unicode:characters_to_list(id(<<61, 216, 0, 222>>), {utf16, little}) end),
    t(c2l_utf16_lone, fun() -> unicode:characters_to_list(id(<<220, 0, 0, 97>>), utf16) end),
    t(c2l_utf16_incomplete, fun() -> unicode:characters_to_list(id(<<0, 97, 216, 61>>), utf16) end),
    t(c2l_utf32_bad, fun() -> unicode:characters_to_list(id(<<0, 17, 0, 0>>), utf32) end),
    t(c2l_utf32_incomplete, fun() -> unicode:characters_to_list(id(<<0, 0, 0, 97, 0, 0>>), utf32) end),
    t(c2l_latin1_list, fun() -> unicode:characters_to_list(id([<<255>>, 233, [<<"x">>]]), latin1) end),
    t(c2l_int_too_big, fun() -> unicode:characters_to_list(id([97, 16#110000])) end),
    t(c2l_bad_enc, fun() -> unicode:characters_to_list(id("a"), utf7) end),
    t(c2l_not_chardata, fun() -> unicode:characters_to_list(id({a})) end),
    t(c2l_bits, fun() -> unicode:characters_to_list(id(<<97, 1:1>>)) end),
    t(c2b_to_utf32_little, fun() -> unicode:characters_to_binary(id("a€"), unicode, {utf32, little}) end),
    t(c2b_to_utf16_little, fun() -> unicode:characters_to_binary(id([16#1F600]), unicode, {utf16, little}) end),
    t(c2b_latin1_to_utf8, fun() -> unicode:characters_to_binary(id(<<233, 255>>), latin1, utf8) end),
    t(c2b_latin1_out_error, fun() -> unicode:characters_to_binary(id([$a, 300, $b]), unicode, latin1) end),
    t(c2b_empty, fun() -> {unicode:characters_to_binary(id([])), unicode:characters_to_binary(id([[], <<>>]))} end),
    t(c2b_big, fun() -> byte_size(unicode:characters_to_binary(id(lists:duplicate(1000, 16#20AC)))) end),
    t(c2b_error_rest, fun() -> unicode:characters_to_binary(id([<<"ab">>, 16#D800, <<"cd">>, [16#E9]])) end),
    t(c2b_incomplete_end, fun() -> unicode:characters_to_binary(id([<<"ab">>, <<240, 159>>])) end),
    t(c2b_incomplete_mid, fun() -> unicode:characters_to_binary(id([<<"ab", 240, 159>>, $x])) end).

%% binary_to_atom/2 at the atom length limit (255 characters): text longer than 4 bytes per
%% character is system_limit before it is decoded, and so is text that runs past 255 valid
%% characters before it goes wrong; bad UTF-8 within the limit is badarg; looking up an
%% existing atom is only ever badarg.
-module(atoms_limits).
-export([main/0]).

id(X) -> X.
t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    Cases = [{zeros_512_then_bad, <<0:512/unit:8, 255>>}, {zeros_512_then_bad_0, <<0:512/unit:8, 255, 0>>},
             {zeros_255_then_bad, <<0:255/unit:8, 255>>}, {zeros_254_then_bad, <<0:254/unit:8, 255>>},
             {zeros_256, <<0:256/unit:8>>}, {zeros_255, <<0:255/unit:8>>}, {zeros_1020, <<0:1020/unit:8>>},
             {zeros_1021, <<0:1021/unit:8>>}, {e_acute_255, << <<"é"/utf8>> || _ <- lists:seq(1, 255)>>},
             {e_acute_256, << <<"é"/utf8>> || _ <- lists:seq(1, 256)>>},
             {e_acute_300_then_bad, <<(<< <<"é"/utf8>> || _ <- lists:seq(1, 300)>>)/binary, 255>>},
             {bad_first, <<255, 0:600/unit:8>>}, {truncated, <<194>>}, {overlong_zero, <<16#C0, 16#80>>}],
    [begin
         t({utf8, L}, fun() -> atom_length(binary_to_atom(id(B), utf8)) end),
         t({default, L}, fun() -> atom_length(binary_to_atom(id(B))) end),
         t({latin1, L}, fun() -> atom_length(binary_to_atom(id(B), latin1)) end),
         t({existing, L}, fun() -> atom_length(binary_to_existing_atom(id(B), utf8)) end)
     end || {L, B} <- Cases],
    ok.

atom_length(A) -> length(atom_to_list(A)).

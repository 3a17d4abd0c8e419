%% Modules assembled with beam_asm, bypassing the compiler's checks, as OTP's
%% code_SUITE:bad_beam_file builds them: an illegal move destination, and a module with no
%% functions whose Attr or CInf chunk is not an external term. A module with no functions
%% has int_code_end as its only instruction, one without operands, which beamvm's first
%% operand allocation once crashed on. Only files erl refuses are loaded here: erl 25.2.3
%% itself crashes when a module with no functions (or no module_info) loads.
-module(code_load_asm_modules).
-export([main/0]).

-define(MOD, code_load_asm_mod).

t(Label, F) ->
    R = try F() catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Label, R]).

asm(Exp, Fs, Labels) ->
    {ok, Beam} = beam_asm:module({?MOD, Exp, [], Fs, Labels}, [], [], []),
    Beam.

%% An empty module's chunks with chunk Id replaced by Bytes.
with_chunk(Id, Bytes) ->
    {ok, ?MOD, Chunks} = beam_lib:all_chunks(asm([], [], 1)),
    {ok, Beam} = beam_lib:build_module([{Id, Bytes} | lists:keydelete(Id, 1, Chunks)]),
    Beam.

load(Label, Beam) ->
    t(Label ++ " load_binary", fun() -> code:load_binary(?MOD, atom_to_list(?MOD), Beam) end),
    t(Label ++ " loaded", fun() -> code:is_loaded(?MOD) end),
    t(Label ++ " prepare_loading", fun() -> erlang:prepare_loading(?MOD, Beam) end).

main() ->
    %% erl's loader logs every refused file; the answers are what is compared.
    logger:set_primary_config(level, none),
    BadMove = [{function, term, 0, 3,
                [{label, 1}, {line, []}, {func_info, {atom, ?MOD}, {atom, term}, 0},
                 {label, 2}, {move, nil, nil}, return]}],
    load("illegal move destination", asm([{term, 0}], BadMove, 3)),
    load("Attr not a term", with_chunk("Attr", <<"bad_attribute_chunk">>)),
    load("Attr truncated term", with_chunk("Attr", <<131, 108, 0, 0, 0, 9>>)),
    load("CInf not a term", with_chunk("CInf", <<131, 255>>)),
    ok.

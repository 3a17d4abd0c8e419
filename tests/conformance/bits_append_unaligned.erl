%% Appending to a bitstring that does not end on a byte boundary, past the heap-binary
%% limit, where beamvm extends the accumulator in place (vm/interp_bits.cpp,
%% append_to_writable): loops of appends of various widths, an old accumulator still used
%% after others appended to it (two appends from the same one must not share bits), its
%% comparison, hashes and external format, and a module whose constant is such a bitstring
%% (compile:forms evaluates it with eval_bits: OTP's code_SUITE:constant_refc_binaries
%% compiles one, which took 90 s and gigabytes while each append copied).
-module(bits_append_unaligned).
-export([main/0]).

loop(0, _W, Acc) -> Acc;
loop(N, W, Acc) -> loop(N - 1, W, <<Acc/bitstring, N:W>>).

%% The same with the appended value built by a call in between, as eval_bits does.
loop_fun([], Acc) -> Acc;
loop_fun([F | Fs], Acc) -> B = F(), loop_fun(Fs, <<Acc/binary-unit:1, B/binary-unit:1>>).

show(Label, B) ->
    io:format("~s: ~w bits md5 ~w phash2 ~w t2b ~w~n",
              [Label, bit_size(B), erlang:md5(<<B/bitstring, 0:(8 - bit_size(B) rem 8)>>),
               erlang:phash2(B), erlang:md5(term_to_binary(B))]).

main() ->
    [show(io_lib:format("start ~p width ~p", [S, W]), loop(N, W, <<5:S>>))
     || {S, W, N} <- [{13, 256, 2000}, {3, 7, 20000}, {1, 1, 70000}, {7, 9, 9000}, {0, 12, 8000}]],
    Fs = [fun() -> <<I:256>> end || I <- lists:seq(1, 3000)],
    show("eval_bits-like loop", loop_fun(Fs, <<42:13>>)),

    %% An accumulator past the limit, then several appends to it.
    A = loop(600, 16, <<1:5>>),
    ABefore = term_to_binary(A),
    B1 = <<A/bitstring, 16#FFFF:16>>,
    B2 = <<A/bitstring, 0:16>>,
    B3 = <<A/bitstring, 1:1>>,
    B4 = <<B1/bitstring, 3:2>>,
    B5 = <<A/bitstring, 16#ABCDEF:24>>,
    [show(L, X) || {L, X} <- [{"A", A}, {"A/FFFF", B1}, {"A/0000", B2}, {"A/1", B3},
                              {"A/FFFF/11", B4}, {"A/ABCDEF", B5}]],
    io:format("A unchanged: ~p~n", [term_to_binary(A) =:= ABefore]),
    io:format("prefixes: ~p~n", [[binary_part_bits(X, bit_size(A)) =:= A || X <- [B1, B2, B3, B4, B5]]]),
    io:format("order: ~p~n", [lists:sort([B5, B4, B3, B2, B1, A]) =:= lists:sort([A, B1, B2, B3, B4, B5])]),
    io:format("compare: ~p~n", [[A < X || X <- [B1, B2, B3]] ++ [B2 < B1, B1 < B4, B2 == B2]]),
    <<_:(bit_size(A))/bitstring, T1:16>> = B1,
    <<_:(bit_size(A))/bitstring, T2:16>> = B2,
    io:format("tails: ~p ~p~n", [T1, T2]),

    %% A module with such a constant, compiled on the VM under test.
    Forms = [{attribute, 1, module, bits_append_unaligned_lit},
             {attribute, 2, export, [{bits, 0}]},
             {function, 3, bits, 0,
              [{clause, 3, [], [],
                [{bin, 3, [{bin_element, 3, {integer, 3, 42}, {integer, 3, 13}, default}
                           | [{bin_element, 3, {integer, 3, I}, {integer, 3, 256}, default}
                              || I <- lists:seq(1, 4096)]]}]}]}],
    {ok, Mod, Beam} = compile:forms(Forms, []),
    {module, Mod} = code:load_binary(Mod, "bits_append_unaligned_lit.erl", Beam),
    show("compiled constant", Mod:bits()),
    ok.

binary_part_bits(X, N) -> <<P:N/bitstring, _/bitstring>> = X, P.

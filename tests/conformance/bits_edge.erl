%% Bit syntax corners the other binary modules leave out: signed/little/odd-sized integers,
%% bignums, 16/32-bit floats, units, utf16/32 little endian, bitstring tails, positions, the
%% error reasons and error_info causes of construction, and guards that build binaries.
-module(bits_edge).
-export([main/0]).

show(Label, Value) -> erlang:display({Label, Value}).

id(X) -> X.

%% The reason and the error_info cause of a failed construction (the trace's first frame).
err(F) ->
    try F() of
        V -> {ok, V}
    catch
        error:R:S ->
            [{_, _, _, Loc} | _] = S,
            case lists:keyfind(error_info, 1, Loc) of
                {error_info, #{cause := C}} -> {R, C};
                false -> {R, no_info}
            end
    end.

main() ->
    integers(),
    bignums(),
    floats(),
    units_and_tails(),
    utf(),
    positions(),
    errors(),
    guards(),
    ok.

integers() ->
    N = id(-2),
    show(signed_little_12, <<N:12/little-signed>>),
    show(little_12, <<(id(16#123)):12/little>>),
    show(big_12, <<(id(16#123)):12>>),
    show(odd_sizes, <<(id(5)):3, (id(-1)):5, (id(1)):1, (id(300)):9/little>>),
    <<A:3, B:5/signed, C:1, D:9/little>> = <<(id(5)):3, (id(-1)):5, (id(1)):1, (id(300)):9/little>>,
    show(odd_sizes_back, {A, B, C, D}),
    <<E:12/little-signed, F:4>> = <<254, 255>>,
    show(signed_little_back, {E, F}),
    show(native_16, <<(id(258)):16/native>>),
    <<G:16/native-signed>> = <<254, 255>>,
    show(native_back, G),
    show(size_zero, <<(id(7)):0, (id(1)):1>>),
    <<H:0, I/bits>> = <<1:1>>,
    show(size_zero_back, {H, I}),
    show(truncated, <<(id(16#1FF)):8, (id(-129)):8/signed>>),
    <<J:64/signed, K:64>> = <<-1:64, -1:64>>,
    show(sixty_four, {J, K}),
    <<L:60/signed, M:60>> = <<-1:60, -1:60>>,
    show(sixty, {L, M}).

bignums() ->
    Big = id(16#123456789abcdef0123456789),
    show(big_77, <<Big:77>>),
    show(big_77_little, <<Big:77/little>>),
    show(neg_big_100, <<(-Big):100/signed>>),
    <<P:100/signed>> = <<(-Big):100/signed>>,
    show(neg_big_back, P =:= -Big),
    <<Q:77/little>> = <<Big:77/little>>,
    show(big_little_back, Q =:= Big band (1 bsl 77 - 1)),
    <<R:128/little-signed>> = <<(id(-1)):128>>,
    show(minus_one_128, R),
    <<S:65>> = <<(id(1 bsl 64)):65>>,
    show(two_pow_64, S).

floats() ->
    show(f16, <<(id(1.5)):16/float, (id(-2.0)):16/float-little>>),
    show(f16_round, <<(id(0.1)):16/float, (id(65504.0)):16/float>>),
    show(f16_overflow, <<(id(1.0e10)):16/float>>),
    show(f32, <<(id(0.1)):32/float, (id(3)):32/float-little>>),
    show(f32_overflow, <<(id(1.0e300)):32/float>>),
    show(f64_int, <<(id(1 bsl 70)):64/float>>),
    show(unit_float, <<(id(2.5)):4/float-unit:8>>),
    <<A:16/float, B:16/float-little, C:32/float, D:64/float-little>> =
        <<1.5:16/float, -2.0:16/float-little, 0.25:32/float, 1.0e100:64/float-little>>,
    show(floats_back, {A, B, C, D}),
    show(f16_inf_nomatch, case id(<<16#7C00:16>>) of <<X:16/float>> -> X; _ -> nomatch end),
    show(f32_nan_nomatch, case id(<<16#7FC00000:32>>) of <<Y:32/float>> -> Y; _ -> nomatch end),
    show(f16_subnormal, case id(<<1:16>>) of <<Z:16/float>> -> Z end),
    Sz = id(24),
    show(float_odd_size, case id(<<0:24>>) of <<W:Sz/float>> -> W; _ -> nomatch end).

units_and_tails() ->
    Bin = id(<<1, 2, 3, 4, 5, 6, 7>>),
    <<A:2/binary-unit:16, Rest/bits>> = Bin,
    show(unit_16, {A, Rest}),
    show(unit_bits, case Bin of <<X:3/binary-unit:3, Y/bits>> -> {X, Y} end),
    show(unit_all_fail, case Bin of <<_/binary-unit:16>> -> yes; _ -> no end),
    show(unit_all_ok, case id(<<1:6>>) of <<Z/binary-unit:3>> -> Z; _ -> no end),
    Tail = id(<<1:1, 2:7, 3:5>>),
    show(bit_tail, Tail),
    show(bit_size, {bit_size(Tail), byte_size(Tail)}),
    <<B:1, C:7, D/bitstring>> = Tail,
    show(bit_tail_back, {B, C, D}),
    show(append_bits, <<Tail/bitstring, Tail/bitstring, 1:2>>),
    show(sub_of_sub, case id(<<0:5, 255, 7:3>>) of <<_:5, S:8/bits, T/bits>> -> {S, T} end),
    Acc = lists:foldl(fun(I, Ac) -> <<Ac/bitstring, I:3>> end, <<>>, lists:seq(0, 9)),
    show(bit_append_loop, Acc),
    show(bits_comprehension, << <<(V + 1):3>> || <<V:2>> <= <<16#1B, 1:2>> >>),
    show(binary_all_explicit, <<(id(<<1, 2, 3>>)):2/binary>>),
    show(test_unit, [U || <<U:4>> <= <<16#ABC:12>>]),
    show(string_bits, case id(<<"abc", 1:1>>) of <<"ab", R2/bits>> -> R2 end),
    Big = binary:copy(<<"0123456789">>, 20),
    <<_:100/binary, Mid:10/binary, _/binary>> = Big,
    show(refc_slice, Mid),
    show(refc_build, byte_size(<<Big/binary, Big/binary, 1:1>>)),
    %% Appending twice to one accumulator: the second append must not see the first's bytes.
    Acc0 = append(append(Big, 0), 0),
    B1 = append(Acc0, 1),
    B2 = append(Acc0, 2),
    B3 = append(B1, 3),
    show(append_shared, {byte_size(Acc0), binary:last(Acc0), binary:last(B1), binary:last(B2),
                         binary:part(B3, byte_size(B3) - 3, 3), B1 =:= binary:part(B3, 0, byte_size(B1))}),
    Grown = lists:foldl(fun(I, A) -> <<A/binary, I:16>> end, <<>>, lists:seq(1, 3000)),
    show(append_grow, {byte_size(Grown), binary:part(Grown, 5990, 10), lists:sum(binary_to_list(Grown))}).

utf() ->
    Cps = [$a, 16#E9, 16#20AC, 16#1F600],
    show(utf16_little, << <<C/utf16-little>> || C <- Cps >>),
    show(utf32_little, << <<C/utf32-little>> || C <- Cps >>),
    Le = << <<C/utf16-little>> || C <- Cps >>,
    show(utf16_little_back, [C || <<C/utf16-little>> <= Le]),
    L32 = << <<C/utf32-little>> || C <- Cps >>,
    show(utf32_little_back, [C || <<C/utf32-little>> <= L32]),
    show(utf8_unaligned, <<1:1, (id(16#20AC))/utf8, 0:7>>),
    <<_:1, U/utf8, _:7>> = <<1:1, (id(16#20AC))/utf8, 0:7>>,
    show(utf8_unaligned_back, U),
    Bad = [<<16#C0, 16#80>>, <<16#ED, 16#A0, 16#80>>, <<16#F4, 16#90, 16#80, 16#80>>, <<16#E2, 16#82>>, <<16#80>>],
    show(utf8_invalid, [case B of <<X/utf8, _/binary>> -> X; _ -> nomatch end || B <- Bad]),
    show(utf16_lone, [case B of <<X/utf16>> -> X; _ -> nomatch end || B <- [<<16#DC00:16>>, <<16#D800:16>>, <<16#D800:16, 16#41:16>>]]),
    show(utf32_invalid, [case B of <<X/utf32>> -> X; _ -> nomatch end || B <- [<<16#110000:32>>, <<16#D800:32>>, <<16#10FFFF:32>>]]),
    show(utf_skip, case id(<<"é€x">>) of <<_/utf8, _/utf8, Z>> -> Z; _ -> nomatch end).

positions() ->
    %% Several clauses share one match context: each restarts where the last one began.
    F = fun(<<1, X:8>>) -> {one, X};
           (<<2, X:16/little>>) -> {two, X};
           (<<_, Rest/binary>>) -> {other, Rest};
           (<<>>) -> empty
        end,
    show(clauses, [F(id(B)) || B <- [<<1, 9>>, <<2, 1, 2>>, <<3, 4, 5>>, <<>>]]),
    show(nested_fun_ctx, count_ones(id(<<16#F0F0:16, 1:3>>), 0)).

count_ones(<<1:1, R/bits>>, N) -> count_ones(R, N + 1);
count_ones(<<0:1, R/bits>>, N) -> count_ones(R, N);
count_ones(<<>>, N) -> N.

errors() ->
    A = id(a),
    show(e_int_type, err(fun() -> <<A:8>> end)),
    show(e_size_neg, err(fun() -> <<1:(id(-1))>> end)),
    show(e_size_atom, err(fun() -> <<1:A>> end)),
    show(e_size_first, err(fun() -> <<A:8, 1:(id(-1))>> end)),
    show(e_float_invalid, err(fun() -> <<(id(1.0)):(id(24))/float>> end)),
    show(e_float_invalid_vs_type, err(fun() -> <<A:8, (id(1.0)):(id(24))/float>> end)),
    show(e_float_type, err(fun() -> <<A/float>> end)),
    show(e_float_invalid_first, err(fun() -> <<A:(id(24))/float>> end)),
    show(e_float_limit, err(fun() -> <<A:(id(1 bsl 62))/float>> end)),
    show(e_no_float, err(fun() -> <<(id(1 bsl 1100)):64/float>> end)),
    show(e_binary_type, err(fun() -> <<A/binary>> end)),
    show(e_binary_unit, err(fun() -> <<(id(<<1:3>>))/binary>> end)),
    show(e_binary_short, err(fun() -> <<(id(<<1, 2>>)):3/binary>> end)),
    show(e_utf8_range, err(fun() -> <<(id(16#110000))/utf8>> end)),
    show(e_utf16_surrogate, err(fun() -> <<(id(16#D800))/utf16>> end)),
    show(e_utf32_type, err(fun() -> <<(id(1.0))/utf32>> end)),
    show(e_system_limit, err(fun() -> <<1:(id(1 bsl 62))>> end)),
    show(e_append_type, err(fun() -> append(A, 1) end)),
    show(e_append_unit, err(fun() -> append(<<1:1>>, 1) end)),
    show(e_second_seg, err(fun() -> <<1, 2, A:16>> end)),
    show(e_catch, catch <<A:8>>),
    show(e_match_size, catch (fun() -> S = id(-8), <<_:S>> = <<1>> end)()).

append(Acc, X) -> <<Acc/binary, X>>.

guards() ->
    G = fun(X) when <<X:8>> =:= <<1>> -> one;
           (X) when is_integer(X), byte_size(<<X:16>>) =:= 2 -> two_bytes;
           (_) -> other
        end,
    show(guard_build, [G(id(V)) || V <- [1, 2, a, 1.0]]).

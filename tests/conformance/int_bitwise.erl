%% Bitwise operators and shifts on small integers and bignums, including negative operands
%% (two's complement semantics on arbitrary precision).
-module(int_bitwise).
-export([main/0, id/1]).

id(X) -> X.

t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

main() ->
    A = id(2#1100), B = id(2#1010), N = id(-6), Big = id(1 bsl 80 + 5),
    t('band', fun() -> A band B end),
    t('bor', fun() -> A bor B end),
    t('bxor', fun() -> A bxor B end),
    t('bnot', fun() -> bnot A end),
    t(bnot_neg, fun() -> bnot N end),
    t(band_neg, fun() -> N band 255 end),
    t(bor_neg, fun() -> N bor 1 end),
    t(bxor_neg, fun() -> N bxor -1 end),
    t(bsl_small, fun() -> A bsl 3 end),
    t(bsr_small, fun() -> A bsr 2 end),
    t(bsr_neg, fun() -> N bsr 1 end),
    t(bsr_neg_far, fun() -> N bsr 100 end),
    t(bsl_negative_count, fun() -> A bsl -2 end),
    t(bsr_negative_count, fun() -> A bsr -2 end),
    t(bsl_to_big, fun() -> 1 bsl 64 end),
    t(bsl_59, fun() -> 1 bsl 59 end),
    t(bsl_neg_to_big, fun() -> -1 bsl 100 end),
    t(big_bsr, fun() -> Big bsr 78 end),
    t(big_bsr_all, fun() -> Big bsr 200 end),
    t(big_neg_bsr, fun() -> (-Big) bsr 70 end),
    t(big_band, fun() -> Big band 16#FF end),
    t(big_band_big, fun() -> Big band (1 bsl 80 + 1 bsl 79 + 4) end),
    t(big_bor, fun() -> Big bor 2 end),
    t(big_bxor_self, fun() -> Big bxor Big end),
    t(big_bnot, fun() -> bnot Big end),
    t(big_neg_band, fun() -> (-Big) band 16#FFFF end),
    t(big_neg_bor, fun() -> (-Big) bor 1 bsl 90 end),
    t(big_neg_bxor_neg, fun() -> (-Big) bxor (-(1 bsl 75)) end),
    t(mask_64, fun() -> (1 bsl 64 - 1) band -1 end),
    t(band_atom, fun() -> A band id(x) end),
    t(bsl_float, fun() -> A bsl id(1.0) end),
    t(bnot_float, fun() -> bnot id(1.5) end),
    t(shift_roundtrip, fun() -> ((Big bsl 33) bsr 33) =:= Big end),
    masks(),
    wide(),
    t(lcg, fun() -> lcg(id(1), 1000) end),
    ok.

%% Bignums masked by smalls, either operand first: a non-negative small takes the bignum's low
%% bits (its two's complement form for a negative one), a negative small the general path.
masks() ->
    Bigs = [1 bsl 59, 1 bsl 64, 1 bsl 64 - 1, 1 bsl 64 + 1, 1 bsl 127 + 16#ABCDEF, 1 bsl 600 + 12345],
    Masks = [0, 1, 255, 16#7fffffff, 1 bsl 59 - 1, -1, -256, -(1 bsl 59)],
    Rows = [{B, M, id(S * B) band id(M), id(M) band id(S * B), id(S * B) bor id(M), id(S * B) bxor id(M)}
            || B <- Bigs, S <- [1, -1], M <- Masks],
    erlang:display({masks, length(Rows), erlang:phash2(Rows)}),
    [erlang:display(R) || R <- lists:sublist(Rows, 1, 24)].

%% Operands wider than 512 bits (scratch limbs on the heap) in sums, products and bitwise ops.
wide() ->
    X = id(1 bsl 700 + 1 bsl 333 + 7), Y = id(-(1 bsl 650) - 99),
    erlang:display({wide, X + Y, X - Y, X * Y, X band Y, X bor Y, X bxor Y, bnot Y, X div (Y bsr 300)}).

lcg(X, 0) -> X;
lcg(X, N) -> lcg((X * 1103515245 + 12345) band 16#7fffffff, N - 1).


%% Integer segments of constant size, the case beamvm matches inline: aligned and unaligned
%% positions, sizes from 1 to 59 bits and just past, short binaries, refc and sub-binaries.
-module(bits_int_segments).
-export([main/0]).

id(X) -> X.
t(Label, F) -> erlang:display({Label, try F() catch C:R -> {C, R} end}).

f(<<A:3, B:5, C:13, D:59, E:8, Rest/bitstring>>) -> {A, B, C, D, E, Rest};
f(<<A:8, _/binary>>) -> {short, A};
f(_) -> nomatch.

g(<<X:16, Y:24, Z:32, W:56>>) -> [X, Y, Z, W];
g(_) -> no.

h(<<X:60, _/bitstring>>) -> X;
h(_) -> no.

bits(<<>>) -> [];
bits(<<B:1, Rest/bitstring>>) -> [B | bits(Rest)].

main() ->
    B = id(list_to_binary(lists:seq(1, 40))),
    Big = binary:copy(B, 10),
    t(unaligned_mix, fun() -> f(B) end),
    t(too_short, fun() -> f(id(<<1, 2, 3>>)) end),
    t(empty, fun() -> f(id(<<>>)) end),
    t(aligned_sizes, fun() -> g(id(<<255, 254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, 243, 242, 241>>)) end),
    t(aligned_short, fun() -> g(id(<<1, 2, 3>>)) end),
    t(sub_binary_of_refc, fun() -> f(binary_part(Big, 3, 100)) end),
    t(sixty_bits, fun() -> h(id(<<255, 255, 255, 255, 255, 255, 255, 255>>)) end),
    t(fifty_nine_all_ones, fun() -> <<X:59, _:5>> = id(<<255, 255, 255, 255, 255, 255, 255, 255>>), X end),
    t(bit_by_bit, fun() -> bits(id(<<2#10110011, 2#1:1>>)) end),
    t(every_size, fun() -> [begin <<V:N, _/bitstring>> = id(<<16#DEADBEEFCAFEBABE:64>>), V end || N <- lists:seq(1, 59)] end),
    t(every_offset, fun() -> [begin <<_:O, V:13, _/bitstring>> = id(<<16#0123456789ABCDEF:64>>), V end || O <- lists:seq(0, 51)] end),
    ok.

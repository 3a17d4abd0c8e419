%% Bit-syntax parsing of a binary protocol (issue 11): a long binary of length-prefixed
%% records, decoded the way protocol decoders are written: a function clause head matches the
%% record header and takes the body as a sub-binary, then per-type decoders read fixed-size
%% integers (8/16/32/64 bits, big and little endian, signed and unsigned, at byte-aligned and
%% unaligned positions), binary fields, skips, and loops of the form <<_:N/binary, Rest/binary>>.
%% The input is built once per round (construction of integers and binary appends); parsing
%% dominates. Prints one deterministic checksum.
-module(bitparse).
-export([main/0, quick/0]).

-define(MOD, 1000000007).

%% ---------------------------------------------------------------- input
%% Record: <<Type:8, Len:16, Body:Len/binary>>
record(1, S) ->  % fixed integers, aligned
    body(1, <<(S band 255):8, (S band 16#ffff):16/little, S:32, (S - 16#7fffffff):32/little-signed,
              (S * 7919):64, (S band 16#ffffff):24/little>>);
record(2, S) ->  % unaligned header, a named binary, a skipped field, a tail
    NameLen = S rem 13,
    Name = binary:part(<<"the-quick-brown-fox-jumps">>, S rem 7, NameLen),
    body(2, <<(S band 7):3, (S band 31):5, (S band 16#ffffff):24, NameLen:8, Name/binary,
              16#beef:16, (S band 16#ffff):16/signed>>);
record(3, S) ->  % a vector of signed 16-bit values
    N = 4 + S rem 9,
    body(3, << <<((S * I) band 16#ffff):16>> || I <- lists:seq(1, N) >>);
record(4, S) ->  % chunks of a counted size, skipped
    N = 1 + S rem 5,
    body(4, << <<3:8, (S + I):16, ((S * I) band 255):8>> || I <- lists:seq(1, N) >>);
record(5, S) ->  % bit fields at every alignment
    body(5, <<(S band 1):1, (S band 127):7, (S band 4095):12, (S band 15):4,
              (S * 31):40/little, (S band 8191):13/signed, (S band 7):3>>).

body(Type, Body) -> <<Type:8, (byte_size(Body)):16, Body/binary>>.

build(0, _Seed, Acc) -> Acc;
build(N, Seed, Acc) ->
    Seed1 = (Seed * 1103515245 + 12345) band 16#7fffffff,
    build(N - 1, Seed1, <<Acc/binary, (record(1 + Seed1 rem 5, Seed1 bsr 4))/binary>>).

%% ---------------------------------------------------------------- decoder
decode(<<Type:8, Len:16, Body:Len/binary, Rest/binary>>, Sum) ->
    decode(Rest, (Sum + Len + rec(Type, Body)) rem ?MOD);
decode(<<>>, Sum) -> Sum.

rec(1, <<A:8, B:16/little, C:32, D:32/little-signed, E:64, F:24/little>>) ->
    A + B + C + D + (E band 16#ffffffff) + F;
rec(2, <<Flags:3, Prio:5, Id:24, NameLen:8, Name:NameLen/binary, _:16, V:16/signed>>) ->
    Flags * 3 + Prio + Id + byte_size(Name) + V + name_sum(Name, 0);
rec(3, Vec) -> vec(Vec, 0);
rec(4, Chunks) -> chunks(Chunks, 0);
rec(5, <<A:1, B:7, C:12, D:4, E:40/little, F:13/signed, G:3>>) ->
    A + B + C + D + (E rem 65536) + F + G.

name_sum(<<C:8, Rest/binary>>, Acc) -> name_sum(Rest, Acc + C);
name_sum(<<>>, Acc) -> Acc.

vec(<<V:16/signed, Rest/binary>>, Acc) -> vec(Rest, Acc + V);
vec(<<>>, Acc) -> Acc.

chunks(<<N:8, Rest0/binary>>, Acc) ->
    <<First:8, _/binary>> = Rest0,
    <<_:N/binary, Rest/binary>> = Rest0,
    chunks(Rest, Acc + N + First);
chunks(<<>>, Acc) -> Acc.

%% ---------------------------------------------------------------- driver
run(Rounds, Records, Passes) ->
    Sum = lists:foldl(
            fun(R, Acc) ->
                    Bin = build(Records, R, <<>>),
                    passes(Passes, Bin, (Acc + byte_size(Bin)) rem ?MOD)
            end, 0, lists:seq(1, Rounds)),
    erlang:display({bitparse, Rounds, Records, Passes, Sum}).

passes(0, _Bin, Acc) -> Acc;
passes(N, Bin, Acc) -> passes(N - 1, Bin, (Acc + decode(Bin, N)) rem ?MOD).

main() -> run(4, 100000, 30).
quick() -> run(1, 30000, 5).

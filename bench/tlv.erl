%% Bit-syntax decoding of a binary protocol: a stream of type-length-value records
%% <<Type:8, Length:16, Value:Length/binary>> whose values are, by type,
%%   1  a header   <<Version:8, Flags:8, Port:16, Address:32>>
%%   2  a counter list <<Count:16, Counter:32 ...>>
%%   3  a text     (bytes)
%%   4  a nested stream of records (container)
%%   5  a signed reading <<Sensor:8, Value:32/signed-little, Scale:8/signed>>
%% The stream is built once; each round decodes it into terms and folds a checksum over them.
-module(tlv).
-export([main/0, quick/0]).

record(Type, Value) -> [Type, <<(iolist_size(Value)):16>>, Value].

%% Record I of the stream (the mix of types depends on I).
make(I) ->
    case I rem 5 of
        0 -> record(1, <<(I rem 4):8, (I band 16#F0):8, (I rem 65536):16, (I * 2654435761 band 16#FFFFFFFF):32>>);
        1 -> record(2, [<<(I rem 9):16>> | [<<(I * K):32>> || K <- lists:seq(1, I rem 9)]]);
        2 -> record(3, binary:part(<<"the quick brown fox jumps over the lazy dog">>, 0, I rem 40));
        3 -> record(4, [make(I + 1), make(I + 2), make(I + 4)]);
        4 -> record(5, <<(I rem 200):8, (I * 37 - 500000):32/signed-little, (I rem 7 - 3):8/signed>>)
    end.

decode(<<Type:8, Len:16, Value:Len/binary, Rest/binary>>) -> [field(Type, Value) | decode(Rest)];
decode(<<>>) -> [].

field(1, <<Version:8, Flags:8, Port:16, Address:32>>) -> {header, Version, Flags, Port, Address};
field(2, <<Count:16, Counters:Count/binary-unit:32>>) -> {counters, [C || <<C:32>> <= Counters]};
field(3, Text) -> {text, byte_size(Text)};
field(4, Nested) -> {container, decode(Nested)};
field(5, <<Sensor:8, Value:32/signed-little, Scale:8/signed>>) -> {reading, Sensor, Value, Scale}.

sum([], Acc) -> Acc;
sum([F | Fs], Acc) -> sum(Fs, (value(F) + Acc) rem 1000000007).

value({header, V, F, P, A}) -> V + F + P + A;
value({counters, Cs}) -> lists:foldl(fun(C, A) -> A + C end, 0, Cs);
value({text, N}) -> N;
value({container, Fs}) -> sum(Fs, 1);
value({reading, S, V, Scale}) -> S + V * Scale.

run(Rounds, Records) ->
    Stream = iolist_to_binary([make(I) || I <- lists:seq(1, Records)]),
    Sum = lists:foldl(fun(_, Acc) -> (Acc + sum(decode(Stream), 0)) rem 1000000007 end, 0,
                      lists:seq(1, Rounds)),
    erlang:display({tlv, Rounds, Records, byte_size(Stream), Sum}).

main() -> run(24, 100000).
quick() -> run(2, 10000).

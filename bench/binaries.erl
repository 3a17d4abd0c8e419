%% Binary throughput: build a record stream by appending to a binary in a loop (the writable-
%% binary path), then parse it back with bit-syntax matching (match contexts, sub-binaries,
%% integers of several sizes and endiannesses, utf8), and checksum what was read.
-module(binaries).
-export([main/0, quick/0]).

%% Record: <<Tag:8, Id:32/little, Len:16, Name:Len/binary, Flags:3, Score:13, Char/utf8>>
build(0, Acc) -> Acc;
build(N, Acc) ->
    Len = N rem 23,
    Name = binary:part(<<"abcdefghijklmnopqrstuvwxyz">>, 0, Len),
    Char = 16#30 + N rem 16#2000,
    build(N - 1, <<Acc/binary, (N band 255):8, N:32/little, Len:16, Name/binary,
                   (N band 7):3, (N rem 8192):13, Char/utf8>>).

parse(<<Tag:8, Id:32/little, Len:16, Name:Len/binary, Flags:3, Score:13, Char/utf8, Rest/binary>>, Sum) ->
    parse(Rest, (Sum + Tag + Id + byte_size(Name) * Flags + Score + Char) rem 1000000007);
parse(<<>>, Sum) -> Sum.

run(Rounds, N) ->
    Sum = lists:foldl(fun(R, Acc) ->
                              Bin = build(N + R, <<>>),
                              (Acc + parse(Bin, byte_size(Bin))) rem 1000000007
                      end, 0, lists:seq(1, Rounds)),
    erlang:display({binaries, Rounds, N, Sum}).

main() -> run(60, 200000).
quick() -> run(2, 20000).

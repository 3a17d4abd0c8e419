%% zlib's one-shot functions (compress/uncompress, zip/unzip, gzip/gunzip) and checksums:
%% exact compressed bytes (erl and beamvm use the same system zlib), round trips of empty,
%% small, iolist and multi-chunk inputs, concatenated gzip members, and the errors for
%% truncated, corrupt and non-iodata input.
-module(zlib_oneshot).
-export([main/0]).
-compile(nowarn_deprecated_function).

main() ->
    exact_bytes(),
    round_trips(),
    big_inputs(),
    bad_inputs(),
    checksums(),
    ok.

show(Label, F) ->
    R = try F() of V -> {ok, V} catch C:E -> {C, E} end,
    io:format("~s: ~w~n", [Label, R]).

text() -> <<"The quick brown fox jumps over the lazy dog. The quick brown fox.">>.

exact_bytes() ->
    [show(io_lib:format("~p(~w)", [F, D]), fun() -> zlib:F(D) end)
     || F <- [compress, zip, gzip], D <- [<<>>, <<"a">>, "hello", [<<"ab">>, "cd", [$e]], text()]],
    ok.

round_trips() ->
    Inputs = [<<>>, <<0>>, text(), [text(), [[<<"x">>], "yz"]], binary:copy(<<"abc">>, 1000)],
    [show(io_lib:format("~p/~p on ~p bytes", [C, U, iolist_size(D)]),
          fun() -> U(C(D)) =:= iolist_to_binary(D) end)
     || {C, U} <- [{fun zlib:compress/1, fun zlib:uncompress/1},
                   {fun zlib:zip/1, fun zlib:unzip/1},
                   {fun zlib:gzip/1, fun zlib:gunzip/1}],
        D <- Inputs],
    %% gunzip resets at the end of a member: concatenated members decompress to both.
    show("gunzip of two members", fun() -> zlib:gunzip([zlib:gzip("first "), zlib:gzip("second")]) end),
    %% a compressed input given as a deep iolist
    show("uncompress of iolist", fun() ->
        <<A:3/binary, B/binary>> = zlib:compress(text()),
        zlib:uncompress([[A], B])
    end),
    ok.

%% Several chunks in and out (zlib.erl loops over 8 KB input and 8/16 KB output chunks).
big_inputs() ->
    Pseudo = << <<((I * 7919) rem 251)>> || I <- lists:seq(1, 300000) >>,
    Zeros = binary:copy(<<0>>, 1000000),
    [begin
         C = zlib:compress(D),
         show(io_lib:format("compress ~p bytes", [byte_size(D)]),
              fun() -> {byte_size(C), erlang:crc32(C), zlib:uncompress(C) =:= D} end),
         G = zlib:gzip(D),
         show(io_lib:format("gzip ~p bytes", [byte_size(D)]),
              fun() -> {byte_size(G), erlang:crc32(G), zlib:gunzip(G) =:= D} end),
         Z = zlib:zip(D),
         show(io_lib:format("zip ~p bytes", [byte_size(D)]),
              fun() -> {byte_size(Z), erlang:crc32(Z), zlib:unzip(Z) =:= D} end)
     end || D <- [Pseudo, Zeros]],
    %% many small pieces: enqueue takes 256 iovec elements per call
    Pieces = [<<I:16>> || I <- lists:seq(1, 2000)],
    show("compress of 2000 pieces", fun() ->
        C = zlib:compress(Pieces),
        {byte_size(C), zlib:uncompress(C) =:= iolist_to_binary(Pieces)}
    end),
    ok.

bad_inputs() ->
    C = zlib:compress(text()),
    G = zlib:gzip(text()),
    Z = zlib:zip(text()),
    show("uncompress truncated", fun() -> zlib:uncompress(binary:part(C, 0, byte_size(C) - 5)) end),
    show("uncompress short", fun() -> zlib:uncompress(<<1, 2, 3>>) end),
    show("uncompress garbage", fun() -> zlib:uncompress(<<"this is not zlib data at all">>) end),
    show("uncompress trailing", fun() -> zlib:uncompress(<<C/binary, "junk">>) end),
    show("uncompress bad checksum", fun() ->
        Size = byte_size(C) - 1,
        <<Head:Size/binary, Last>> = C,
        zlib:uncompress(<<Head/binary, (Last bxor 1)>>)
    end),
    show("uncompress atom", fun() -> zlib:uncompress(foo) end),
    show("gunzip truncated", fun() -> zlib:gunzip(binary:part(G, 0, byte_size(G) - 3)) end),
    show("gunzip of zlib data", fun() -> zlib:gunzip(C) end),
    show("gunzip bad crc", fun() ->
        Size = byte_size(G) - 8,
        <<Head:Size/binary, _:32, Len:32>> = G,
        zlib:gunzip(<<Head/binary, 0:32, Len:32>>)
    end),
    show("unzip truncated", fun() -> zlib:unzip(binary:part(Z, 0, byte_size(Z) - 3)) end),
    show("unzip garbage", fun() -> zlib:unzip(<<255, 255, 255, 255>>) end),
    show("compress atom", fun() -> zlib:compress(foo) end),
    show("compress improper", fun() -> zlib:compress([<<"a">> | b]) end),
    show("gzip bad byte", fun() -> zlib:gzip([256]) end),
    show("zip tuple", fun() -> zlib:zip({a}) end),
    ok.

checksums() ->
    Z = zlib:open(),
    show("crc32/2", fun() -> zlib:crc32(Z, text()) end),
    show("crc32/3", fun() -> zlib:crc32(Z, zlib:crc32(Z, "abc"), "def") end),
    show("crc32_combine", fun() ->
        zlib:crc32_combine(Z, zlib:crc32(Z, "abc"), zlib:crc32(Z, "def"), 3) =:= zlib:crc32(Z, "abcdef")
    end),
    show("adler32/2", fun() -> zlib:adler32(Z, text()) end),
    show("adler32/3", fun() -> zlib:adler32(Z, zlib:adler32(Z, "abc"), "def") end),
    show("adler32_combine", fun() ->
        zlib:adler32_combine(Z, zlib:adler32(Z, "abc"), zlib:adler32(Z, "def"), 3)
    end),
    show("crc32 not a stream", fun() -> zlib:crc32(foo, "abc") end),
    show("adler32 bad data", fun() -> zlib:adler32(Z, foo) end),
    show("crc32/1 before init", fun() -> zlib:crc32(Z) end),
    zlib:close(Z),
    ok.

%% A file of a few MB written in chunks and read back in chunks (streamed, never whole):
%% raw with and without read_ahead, through the I/O server, by pread, and whole with
%% read_file; checksums compared.
-module(file_large).
-export([main/0]).

-define(CHUNK, 65536).
-define(CHUNKS, 64).  % 4 MB

show(Label, Value) -> io:format("~s: ~p~n", [Label, Value]).

main() ->
    F = "/tmp/beamvm_file_large_" ++ os:getpid(),
    try
        Expected = write(F),
        show("size", filelib:file_size(F)),
        show("raw stream", stream(F, [raw, read, binary], 100000) =:= Expected),
        show("raw read_ahead", stream(F, [raw, read, binary, {read_ahead, 200000}], 4096) =:= Expected),
        show("io server stream", stream(F, [read, binary], ?CHUNK) =:= Expected),
        show("pread", pread_all(F) =:= Expected),
        {ok, Whole} = file:read_file(F),
        show("read_file", {byte_size(Whole), erlang:crc32(Whole) =:= Expected}),
        show("lines", count_lines(F)),
        show("copy", file:copy(F, F ++ ".copy")),
        show("copy same", erlang:crc32(element(2, file:read_file(F ++ ".copy"))) =:= Expected)
    after
        file:delete(F),
        file:delete(F ++ ".copy")
    end.

chunk(I) -> binary:copy(<<I:8, "123456789abcde\n">>, ?CHUNK div 16).

write(F) ->
    {ok, W} = file:open(F, [raw, write, binary, {delayed_write, 1 bsl 20, 1000}]),
    Crc = lists:foldl(fun(I, Acc) ->
                              C = chunk(I),
                              ok = file:write(W, C),
                              erlang:crc32(Acc, C)
                      end, erlang:crc32(<<>>), lists:seq(1, ?CHUNKS)),
    ok = file:close(W),
    Crc.

stream(F, Modes, Size) ->
    {ok, R} = file:open(F, Modes),
    Crc = stream_loop(R, Size, erlang:crc32(<<>>)),
    ok = file:close(R),
    Crc.

stream_loop(R, Size, Acc) ->
    case file:read(R, Size) of
        {ok, Data} -> stream_loop(R, Size, erlang:crc32(Acc, Data));
        eof -> Acc
    end.

pread_all(F) ->
    {ok, R} = file:open(F, [raw, read, binary]),
    Crc = lists:foldl(fun(I, Acc) ->
                              {ok, D} = file:pread(R, (?CHUNKS - I) * ?CHUNK, ?CHUNK),
                              [D | Acc]
                      end, [], lists:seq(1, ?CHUNKS)),
    ok = file:close(R),
    erlang:crc32(Crc).

count_lines(F) ->
    {ok, R} = file:open(F, [raw, read, binary, read_ahead]),
    N = count(R, 0),
    ok = file:close(R),
    N.

count(R, N) ->
    case file:read_line(R) of
        {ok, _} -> count(R, N + 1);
        eof -> N
    end.

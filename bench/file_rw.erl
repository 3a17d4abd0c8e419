%% File throughput: write a 200 MB file in 1 MB chunks (raw), read it back streamed in 64 KB
%% chunks (raw, then through an I/O server), then whole with file:read_file/1; checksums of
%% what was read. The file lives under /tmp and is deleted at the end.
-module(file_rw).
-export([main/0, quick/0]).

-define(MB, 1048576).

run(MBs) ->
    F = "/tmp/beamvm_bench_file_rw_" ++ os:getpid(),
    try
        Chunk = << <<(I band 255)>> || I <- lists:seq(1, ?MB) >>,
        {ok, W} = file:open(F, [raw, write, binary]),
        [ok = file:write(W, Chunk) || _ <- lists:seq(1, MBs)],
        ok = file:close(W),
        Raw = stream(F, [raw, read, binary]),
        Io = stream(F, [read, binary]),
        {ok, Whole} = file:read_file(F),
        erlang:display({file_rw, MBs, Raw, Io, byte_size(Whole), erlang:crc32(Whole)})
    after
        file:delete(F)
    end.

stream(F, Modes) ->
    {ok, R} = file:open(F, Modes),
    Crc = loop(R, erlang:crc32(<<>>)),
    ok = file:close(R),
    Crc.

loop(R, Acc) ->
    case file:read(R, 65536) of
        {ok, Data} -> loop(R, erlang:crc32(Acc, Data));
        eof -> Acc
    end.

main() -> run(200).
quick() -> run(4).

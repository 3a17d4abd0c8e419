%% Raw files ([raw]): prim_file's natives straight from the calling process. Open modes,
%% read/write, pread/pwrite, position modes, truncate, sync, read_ahead and read_line,
%% the owner check, and the errors (POSIX atoms) of each, in a fresh directory under /tmp.
-module(file_raw).
-export([main/0]).

-include_lib("kernel/include/file.hrl").

show(Label, Value) -> io:format("~s: ~p~n", [Label, Value]).

main() ->
    Dir = "/tmp/beamvm_file_raw_" ++ os:getpid(),
    os_rmrf(Dir),
    ok = file:make_dir(Dir),
    F = filename:join(Dir, "a.bin"),
    try
        modes(F),
        reads(F),
        positions(F),
        positional(F),
        lines(Dir),
        errors(Dir, F),
        owner(F)
    after
        os_rmrf(Dir)
    end.

modes(F) ->
    {ok, W} = file:open(F, [raw, write, binary]),
    show("write", file:write(W, [<<"hello ">>, "world", [$!, <<"\n">>]])),
    show("read on write-only", file:read(W, 3)),
    show("close", file:close(W)),
    show("close again", file:close(W)),
    show("write after close", file:write(W, <<"x">>)),
    show("contents", file:read_file(F)),
    {ok, A} = file:open(F, [raw, append]),
    show("append", file:write(A, <<"more\n">>)),
    ok = file:close(A),
    show("after append", file:read_file(F)),
    {ok, RW} = file:open(F, [raw, read, write, binary]),
    show("rw read", file:read(RW, 5)),
    show("rw write", file:write(RW, <<"_">>)),
    ok = file:close(RW),
    show("after rw", file:read_file(F)),
    show("exclusive existing", file:open(F, [raw, exclusive])),
    F2 = F ++ ".x",
    {ok, X} = file:open(F2, [raw, exclusive, binary]),
    ok = file:write(X, <<"x">>),
    ok = file:close(X),
    show("exclusive new", file:read_file(F2)),
    {ok, T} = file:open(F2, [raw, write]),
    ok = file:close(T),
    show("write truncates", file:read_file(F2)),
    ok = file:delete(F2),
    {ok, L} = file:open(F, [raw, read]),
    show("list mode read", file:read(L, 5)),
    ok = file:close(L),
    {ok, S} = file:open(F, [raw, read, binary, sync]),
    show("sync", file:sync(S)),
    show("datasync", file:datasync(S)),
    ok = file:close(S).

reads(F) ->
    ok = file:write_file(F, <<"0123456789abcdef">>),
    {ok, R} = file:open(F, [raw, read, binary]),
    show("read 4", file:read(R, 4)),
    show("read 0", file:read(R, 0)),
    show("read 100", file:read(R, 100)),
    show("read at eof", file:read(R, 1)),
    ok = file:close(R),
    {ok, RA} = file:open(F, [raw, read, binary, {read_ahead, 4}]),
    show("ahead 3", file:read(RA, 3)),
    show("ahead 3 more", file:read(RA, 3)),
    show("ahead position", file:position(RA, cur)),
    show("ahead 20", file:read(RA, 20)),
    show("ahead eof", file:read(RA, 20)),
    ok = file:close(RA),
    {ok, RA2} = file:open(F, [raw, read, binary, read_ahead]),
    show("read_ahead default", file:read(RA2, 2)),
    show("pos after ahead", file:position(RA2, {cur, 0})),
    ok = file:close(RA2).

positions(F) ->
    ok = file:write_file(F, <<"0123456789">>),
    {ok, P} = file:open(F, [raw, read, write, binary]),
    show("pos bof", file:position(P, bof)),
    show("pos 3", file:position(P, 3)),
    show("read at 3", file:read(P, 2)),
    show("pos cur+2", file:position(P, {cur, 2})),
    show("pos cur-1", file:position(P, {cur, -1})),
    show("pos eof", file:position(P, eof)),
    show("pos eof-4", file:position(P, {eof, -4})),
    show("pos bof 2", file:position(P, {bof, 2})),
    show("pos negative", file:position(P, {bof, -1})),
    show("pos bad", file:position(P, {middle, 1})),
    show("pos after error", file:position(P, cur)),
    {ok, 5} = file:position(P, 5),
    show("truncate", file:truncate(P)),
    show("after truncate", file:read_file(F)),
    {ok, 8} = file:position(P, 8),
    ok = file:write(P, <<"Z">>),
    show("hole", file:read_file(F)),
    ok = file:close(P).

positional(F) ->
    ok = file:write_file(F, <<"abcdefghij">>),
    {ok, P} = file:open(F, [raw, read, write, binary]),
    show("pread", file:pread(P, 2, 3)),
    show("pread past eof", file:pread(P, 20, 3)),
    show("pread short", file:pread(P, 8, 10)),
    show("pread list", file:pread(P, [{0, 2}, {100, 1}, {5, 1}])),
    show("pread negative", file:pread(P, -1, 2)),
    show("pwrite", file:pwrite(P, 1, <<"XY">>)),
    show("pwrite list", file:pwrite(P, [{0, "#"}, {9, [<<"!">>]}])),
    show("pwrite negative", file:pwrite(P, -5, <<"x">>)),
    show("position unchanged", file:position(P, cur)),
    show("contents", file:read_file(F)),
    show("advise", file:advise(P, 0, 10, sequential)),
    show("advise bad", file:advise(P, 0, 10, sideways)),
    show("allocate", file:allocate(P, 0, 100)),
    {ok, Info} = file:read_file_info(F),
    show("size after allocate", Info#file_info.size),
    ok = file:close(P).

lines(Dir) ->
    F = filename:join(Dir, "lines.txt"),
    Long = lists:duplicate(700, $x),
    ok = file:write_file(F, ["one\n", "two\r\n", "\n", Long, "\n", "last"]),
    {ok, R} = file:open(F, [raw, read, binary]),
    show("lines", read_lines(R, [])),
    ok = file:close(R),
    {ok, R2} = file:open(F, [raw, read, binary, {read_ahead, 8}]),
    show("line with ahead", file:read_line(R2)),
    show("read after line", file:read(R2, 3)),
    ok = file:close(R2),
    {ok, R3} = file:open(F, [raw, read]),
    show("list line", file:read_line(R3)),
    ok = file:close(R3).

read_lines(R, Acc) ->
    case file:read_line(R) of
        {ok, L} when byte_size(L) > 100 -> read_lines(R, [{long, byte_size(L)} | Acc]);
        {ok, L} -> read_lines(R, [L | Acc]);
        Other -> lists:reverse([Other | Acc])
    end.

errors(Dir, F) ->
    show("open missing", file:open(filename:join(Dir, "nope"), [raw, read])),
    show("open in missing dir", file:open(filename:join([Dir, "no", "x"]), [raw, write])),
    show("open dir", file:open(Dir, [raw, read])),
    show("open dir write", file:open(Dir, [raw, write])),
    show("open through file", file:open(filename:join(F, "x"), [raw, read])),
    show("open bad name", file:open(<<"a", 0, "b">>, [raw, read])),
    show("open bad mode", tag(file:open(F, [raw, read, bogus]))),
    {ok, D} = file:open(Dir, [raw, read, directory]),
    show("read dir handle", file:read(D, 1)),
    ok = file:close(D),
    %% (root may write anyway: only the shape is compared)
    ok = file:write_file(F, <<"x">>),
    ok = file:change_mode(F, 8#444),
    show("open read-only for write", tag(file:open(F, [raw, read, write]))),
    ok = file:change_mode(F, 8#644).

tag({ok, _}) -> ok;
tag(Other) -> Other.

reason({'EXIT', {R, _Stack}}) -> R;
reason(Other) -> Other.

%% A raw file belongs to the process that opened it.
owner(F) ->
    {ok, R} = file:open(F, [raw, read, binary]),
    Self = self(),
    spawn(fun() -> Self ! {other, catch file:read(R, 1), catch file:close(R)} end),
    receive {other, Read, Close} -> show("other process", {reason(Read), reason(Close)}) end,
    show("owner still reads", file:read(R, 1)),
    show("owner reads on", file:read(R, 1)),
    ok = file:close(R),
    %% A file whose owner dies is closed with it; the name stays usable.
    Pid = spawn(fun() -> {ok, _} = file:open(F, [raw, read]), receive stop -> ok end end),
    Ref = monitor(process, Pid),
    Pid ! stop,
    receive {'DOWN', Ref, _, _, Why} -> show("owner exit", Why) end,
    show("reopen", element(1, file:open(F, [raw, read]))).

os_rmrf(Dir) ->
    case file:list_dir(Dir) of
        {ok, Names} ->
            [begin
                 P = filename:join(Dir, N),
                 case file:read_link_info(P) of
                     {ok, #file_info{type = directory}} -> os_rmrf(P);
                     _ -> file:delete(P)
                 end
             end || N <- Names],
            file:del_dir(Dir);
        _ ->
            ok
    end.

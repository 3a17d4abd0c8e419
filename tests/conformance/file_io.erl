%% Ordinary (non-raw) files: one file_io_server process per open file, spoken to through
%% the I/O protocol. read/write in binary and list mode, read_line, io:format/io:get_line/
%% io:read on a file, pread/pwrite and position through the server, encodings, the server's
%% life with its owner; file:consult/script/eval, and filelib, in a fresh directory.
-module(file_io).
-export([main/0]).

-include_lib("kernel/include/file.hrl").

show(Label, Value) -> io:format("~s: ~p~n", [Label, Value]).

main() ->
    Dir = "/tmp/beamvm_file_io_" ++ os:getpid(),
    rmrf(Dir),
    ok = file:make_dir(Dir),
    try
        server(Dir),
        io_module(Dir),
        encodings(Dir),
        terms(Dir),
        filelib(Dir)
    after
        rmrf(Dir)
    end.

server(Dir) ->
    F = filename:join(Dir, "s.txt"),
    {ok, W} = file:open(F, [write]),
    show("is pid", is_pid(W)),
    show("write", file:write(W, ["line one\n", <<"line two\n">>])),
    show("read on write-only", file:read(W, 1)),
    show("close", file:close(W)),
    show("closed server", is_process_alive(W)),
    show("write after close", catch file:write(W, "x")),
    {ok, R} = file:open(F, [read]),
    show("read list", file:read(R, 4)),
    show("read_line", file:read_line(R)),
    show("read_line 2", file:read_line(R)),
    show("read_line eof", file:read_line(R)),
    show("read eof", file:read(R, 1)),
    show("position bof", file:position(R, bof)),
    show("read after seek", file:read(R, 4)),
    show("pread", file:pread(R, 5, 3)),
    show("pread list", file:pread(R, [{0, 4}, {100, 2}])),
    show("position cur", file:position(R, cur)),
    show("position bad", file:position(R, {bof, -3})),
    ok = file:close(R),
    {ok, B} = file:open(F, [read, write, binary]),
    show("binary read", file:read(B, 4)),
    show("pwrite", file:pwrite(B, 0, <<"LINE">>)),
    show("pwrite list", file:pwrite(B, [{5, <<"ONE">>}])),
    show("read_line binary", file:read_line(B)),
    {ok, _} = file:position(B, eof),
    show("append write", file:write(B, <<"three\n">>)),
    show("truncate", begin {ok, _} = file:position(B, 9), file:truncate(B) end),
    show("sync", file:sync(B)),
    ok = file:close(B),
    show("contents", file:read_file(F)),
    show("open missing", file:open(filename:join(Dir, "none"), [read])),
    show("open dir", file:open(Dir, [read])),
    show("open bad mode", case file:open(F, [read, nonsense]) of {ok, P0} -> file:close(P0); E0 -> E0 end),
    show("open bad name", file:open(<<"a", 0>>, [read])),
    %% The server dies with the process that opened the file.
    Self = self(),
    Opener = spawn(fun() -> {ok, Fd} = file:open(F, [read]), Self ! {fd, Fd}, receive stop -> ok end end),
    Fd = receive {fd, P} -> P end,
    show("other process reads", file:read(Fd, 4)),
    Ref = monitor(process, Fd),
    Opener ! stop,
    receive {'DOWN', Ref, process, Fd, Why} -> show("server ends with owner", Why) end,
    %% read_ahead and delayed_write through the server
    {ok, D} = file:open(F, [write, {delayed_write, 100, 1000}]),
    ok = file:write(D, "delayed\n"),
    ok = file:close(D),
    show("delayed_write", file:read_file(F)),
    {ok, RA} = file:open(F, [read, read_ahead, binary]),
    show("read_ahead", file:read(RA, 3)),
    show("read_ahead line", file:read_line(RA)),
    ok = file:close(RA).

io_module(Dir) ->
    F = filename:join(Dir, "io.txt"),
    {ok, W} = file:open(F, [write]),
    ok = io:format(W, "~p.~n~s~n", [{a, [1, 2], "str"}, "plain text"]),
    ok = io:put_chars(W, "more\n"),
    ok = io:write(W, {x, y}),
    ok = io:nl(W),
    ok = file:close(W),
    show("written", file:read_file(F)),
    {ok, R} = file:open(F, [read]),
    show("io:read", io:read(R, '')),
    show("io:get_line", io:get_line(R, '')),
    show("io:get_line 2", io:get_line(R, '')),
    show("io:get_chars", io:get_chars(R, '', 3)),
    show("io:get_line rest", io:get_line(R, '')),
    show("io:get_line eof", io:get_line(R, '')),
    ok = file:close(R),
    {ok, R2} = file:open(F, [read]),
    show("io:fread", io:fread(R2, '', "~s")),
    ok = file:close(R2).

encodings(Dir) ->
    F = filename:join(Dir, "utf8.txt"),
    {ok, W} = file:open(F, [write, {encoding, utf8}]),
    ok = io:put_chars(W, [16#e4, 16#263a, $\n]),
    ok = io:format(W, "~ts~n", [[16#3b1, 16#3b2]]),
    ok = file:close(W),
    show("utf8 bytes", file:read_file(F)),
    {ok, R} = file:open(F, [read, {encoding, utf8}]),
    show("utf8 line", io:get_line(R, '')),
    show("utf8 chars", io:get_chars(R, '', 2)),
    ok = file:close(R),
    {ok, L} = file:open(F, [read, binary]),
    show("latin1 view", file:read_line(L)),
    ok = file:close(L),
    {ok, W2} = file:open(F, [write]),
    show("latin1 write of wide char", case catch io:put_chars(W2, [16#263a]) of
                                          {'EXIT', {Why, _}} -> Why;
                                          Other -> Other
                                      end),
    ok = file:close(W2).

terms(Dir) ->
    C = filename:join(Dir, "terms.config"),
    ok = file:write_file(C, "{a, 1}.\n%% comment\n[x, \"y\"].\n#{k => v}.\n"),
    show("consult", file:consult(C)),
    Bad = filename:join(Dir, "bad.config"),
    ok = file:write_file(Bad, "{a, 1}.\n{b,\n"),
    show("consult bad", file:consult(Bad)),
    show("consult missing", file:consult(filename:join(Dir, "none"))),
    S = filename:join(Dir, "s.script"),
    ok = file:write_file(S, "X = 6, Y = 7,\nX * Y.\n"),
    show("script", file:script(S)),
    show("script bindings", file:script(S, [{'Z', 1}])),
    show("eval", file:eval(S)),
    E = filename:join(Dir, "err.script"),
    ok = file:write_file(E, "1 = 2.\n"),
    show("script error", case file:script(E) of
                             {error, {Line, file, {error, Why, _Stack}}} -> {Line, Why};
                             Other -> Other
                         end),
    show("path_consult", element(1, file:path_consult([Dir], "terms.config"))),
    show("path_consult missing", file:path_consult([Dir], "none.config")),
    T = filename:join(Dir, "t.bin"),
    ok = file:write_file(T, term_to_binary({hello, [world]})),
    {ok, Bin} = file:read_file(T),
    show("term roundtrip", binary_to_term(Bin)).

filelib(Dir) ->
    Deep = filename:join([Dir, "a", "b", "c", "file.txt"]),
    show("ensure_dir", filelib:ensure_dir(Deep)),
    show("ensure_dir again", filelib:ensure_dir(Deep)),
    show("ensure_path", filelib:ensure_path(filename:join([Dir, "p", "q"]))),
    ok = file:write_file(Deep, <<"deep">>),
    ok = file:write_file(filename:join([Dir, "a", "x.erl"]), <<>>),
    ok = file:write_file(filename:join([Dir, "a", "y.erl"]), <<>>),
    ok = file:write_file(filename:join([Dir, "a", "b", "z.hrl"]), <<>>),
    Rel = fun(Ps) -> lists:sort([lists:nthtail(length(Dir) + 1, P) || P <- Ps]) end,
    show("wildcard", Rel(filelib:wildcard(filename:join([Dir, "a", "*.erl"])))),
    show("wildcard deep", Rel(filelib:wildcard(filename:join([Dir, "**", "*.{erl,hrl,txt}"])))),
    show("wildcard cwd", lists:sort(filelib:wildcard("*", filename:join(Dir, "a")))),
    show("wildcard none", filelib:wildcard(filename:join(Dir, "*.nothing"))),
    %% filelib:fold_files/5 compiles its pattern with re, which beamvm does not have yet.
    show("is_dir", {filelib:is_dir(Dir), filelib:is_dir(Deep)}),
    show("is_file", {filelib:is_file(Dir), filelib:is_file(Deep), filelib:is_file(Deep ++ "x")}),
    show("is_regular", {filelib:is_regular(Dir), filelib:is_regular(Deep)}),
    show("file_size", filelib:file_size(Deep)),
    show("last_modified", case filelib:last_modified(Deep) of {{_, _, _}, {_, _, _}} -> datetime; O -> O end),
    show("last_modified missing", filelib:last_modified(Deep ++ "x")),
    show("safe_relative_path", filelib:safe_relative_path("a/../b", Dir)).

rmrf(Dir) ->
    case file:list_dir_all(Dir) of
        {ok, Names} ->
            [begin
                 P = filename:join(Dir, N),
                 case file:read_link_info(P) of
                     {ok, #file_info{type = directory}} -> rmrf(P);
                     _ -> file:delete(P)
                 end
             end || N <- Names],
            file:del_dir(Dir);
        _ ->
            ok
    end.

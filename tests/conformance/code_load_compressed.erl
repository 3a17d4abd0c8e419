%% Gzip-compressed .beam files, as compile:file(F, [compressed]) writes them (Debian's
%% erlang-idna and erlang-uuid ship some): a module compiled that way, on the VM under test,
%% into a fresh directory under /tmp (removed at the end), is loaded by every route erl offers
%% (the code path on first call, code:load_file/1, code:load_binary/3, erlang:load_module/2,
%% prepare_loading/finish_loading) and read by beam_lib and code:get_object_code/1 as on erl.
%% Broken streams (truncated, corrupt, trailing bytes, a gzip bomb, gzip around garbage) and
%% 300 seeded mutations of the compressed file are answered as erl answers them.
-module(code_load_compressed).
-export([main/0]).

-define(MOD, gzmod).

source(Vsn) ->
    "-module(gzmod).\n-export([f/1, vsn/0]).\n"
    "vsn() -> " ++ integer_to_list(Vsn) ++ ".\n"
    "f(X) -> {X, lists:seq(1, 3), <<\"a literal binary\">>, #{key => [1.5, \"text\"]}}.\n".

t(Label, F) ->
    R = try F() catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Label, R]).

main() ->
    %% erl's loader logs each refused file with a time stamp; the answers are what we compare.
    %% (beamvm --no-boot has no logger to configure.)
    catch logger:set_primary_config(level, none),
    Dir = "/tmp/beamvm_code_load_compressed_" ++ os:getpid(),
    ok = file:make_dir(Dir),
    try run(Dir) after cleanup(Dir) end.

cleanup(Dir) ->
    code:purge(?MOD), code:delete(?MOD), code:purge(?MOD),
    code:del_path(Dir),
    [file:delete(filename:join(Dir, F)) || F <- element(2, file:list_dir(Dir))],
    file:del_dir(Dir).

compile(Dir, Vsn) ->
    Src = filename:join(Dir, "gzmod.erl"),
    ok = file:write_file(Src, source(Vsn)),
    %% deterministic: no source path in the module, so both VMs mutate the same bytes.
    R = compile:file(Src, [compressed, deterministic, report, {outdir, Dir}]),
    {ok, Bin} = file:read_file(filename:join(Dir, "gzmod.beam")),
    {R, Bin}.

run(Dir) ->
    File = filename:join(Dir, "gzmod.beam"),
    {Compiled, Bin} = compile(Dir, 1),
    t("compile:file with [compressed]", fun() -> Compiled end),
    t("the file starts with gzip's magic", fun() -> binary:part(Bin, 0, 2) end),
    true = code:add_patha(Dir),
    t("first call loads it from the code path", fun() -> {gzmod:vsn(), gzmod:f(x)} end),
    t("code:which", fun() -> code:which(?MOD) =:= File end),
    t("code:module_status", fun() -> code:module_status(?MOD) end),
    t("code:get_object_code gives the file's bytes",
      fun() -> {M, B, F} = code:get_object_code(?MOD), {M, B =:= Bin, F =:= File} end),
    t("beam_lib:chunks", fun() -> beam_lib:chunks(File, [exports, attributes]) end),
    t("beam_lib:md5 is module_info(md5)",
      fun() -> {ok, {?MOD, Md5}} = beam_lib:md5(File), Md5 =:= gzmod:module_info(md5) end),
    t("beam_lib:chunks on the binary", fun() -> beam_lib:chunks(Bin, [exports]) end),
    t("code:get_chunk", fun() -> code:get_chunk(Bin, "ExpT") =:= code:get_chunk(plain(File), "ExpT") end),
    {_, Bin2} = compile(Dir, 2),
    t("code:load_file of version 2", fun() -> {code:load_file(?MOD), gzmod:vsn()} end),
    t("code:load_binary of version 1", fun() -> {code:purge(?MOD), code:load_binary(?MOD, File, Bin), gzmod:vsn()} end),
    t("erlang:load_module of version 2", fun() -> {code:purge(?MOD), erlang:load_module(?MOD, Bin2), gzmod:vsn()} end),
    t("prepare_loading and finish_loading of version 1",
      fun() ->
          code:purge(?MOD),
          Ref = erlang:prepare_loading(?MOD, Bin),
          {erlang:finish_loading([Ref]), gzmod:vsn(), gzmod:f(y)}
      end),
    code:purge(?MOD),
    broken(Bin),
    mutations(Bin).

plain(File) -> {ok, B} = file:read_file(File), zlib:gunzip(B).

%% What prepare_loading answers, without the reference.
answer(Bin) ->
    case erlang:prepare_loading(?MOD, Bin) of
        {error, _} = E -> E;
        Ref when is_reference(Ref) -> prepared
    end.

broken(Bin) ->
    Plain = zlib:gunzip(Bin),
    Size = byte_size(Bin),
    <<Body:(Size - 8)/binary, Crc:32, ISize:32>> = Bin,
    Cases = [{"truncated to half", binary:part(Bin, 0, Size div 2)},
             {"last byte missing", binary:part(Bin, 0, Size - 1)},
             {"magic only", <<31, 139>>},
             {"trailing garbage", <<Bin/binary, "garbage">>},
             {"trailing zeros", <<Bin/binary, 0, 0, 0, 0>>},
             {"two members", <<Bin/binary, Bin/binary>>},
             {"bad CRC", <<Body/binary, (Crc bxor 1):32, ISize:32>>},
             {"bad size", <<Body/binary, Crc:32, (ISize + 1):32>>},
             {"gzip around gzip", zlib:gzip(Bin)},
             {"gzip around garbage", zlib:gzip(<<"not a beam file">>)},
             {"gzip around nothing", zlib:gzip(<<>>)},
             {"gzip around a truncated module", zlib:gzip(binary:part(Plain, 0, byte_size(Plain) div 2))},
             {"gzip around the module and trailing bytes", zlib:gzip(<<Plain/binary, "xyz">>)},
             {"zlib, not gzip", zlib:compress(Plain)},
             {"magic before the plain module", <<31, 139, Plain/binary>>},
             {"a gzip bomb: 136 MiB of zeros", bomb(136)}],
    [io:format("~s: ~p~n", [Name, answer(B)]) || {Name, B} <- Cases],
    t("erlang:load_module of a truncated stream", fun() -> erlang:load_module(?MOD, binary:part(Bin, 0, Size - 3)) end).

%% MiB mebibytes of zeros, deflated in 1 MiB steps so neither VM holds them whole (0.6 MB
%% for 136 MiB). Past beamvm's inflate limit (128 MiB): erl inflates it all, beamvm stops at
%% the limit; both answer badfile.
bomb(MiB) ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z, best_speed, deflated, 16 + 15, 8, default),
    Zeros = <<0:(8 * 1048576)>>,
    Parts = [zlib:deflate(Z, Zeros) || _ <- lists:seq(1, MiB)],
    Last = zlib:deflate(Z, <<>>, finish),
    zlib:close(Z),
    iolist_to_binary([Parts, Last]).

%% Seeded mutations of the compressed file (truncations, flipped bytes, garbage runs), one
%% letter per file: p prepared, b badfile.
mutations(Bin) ->
    rand:seed(exsss, {28, 1, 2}),
    Letters = [letter(answer(mutate(I rem 3, Bin))) || I <- lists:seq(1, 300)],
    [io:format("mutations ~3b: ~s~n", [I, lists:sublist(Letters, I, 60)]) || I <- lists:seq(1, 300, 60)],
    io:format("prepared ~b, badfile ~b~n", [length([L || L <- Letters, L =:= $p]), length([L || L <- Letters, L =:= $b])]).

letter(prepared) -> $p;
letter({error, badfile}) -> $b;
letter(Other) -> Other.

mutate(0, Bin) -> binary:part(Bin, 0, rand:uniform(byte_size(Bin)) - 1);
mutate(1, Bin) -> lists:foldl(fun(_, B) -> flip(B) end, Bin, lists:seq(1, rand:uniform(3)));
mutate(2, Bin) ->
    At = rand:uniform(byte_size(Bin)) - 1,
    N = min(rand:uniform(16), byte_size(Bin) - At),
    <<Pre:At/binary, _:N/binary, Post/binary>> = Bin,
    <<Pre/binary, (rand:bytes(N))/binary, Post/binary>>.

flip(Bin) ->
    At = rand:uniform(byte_size(Bin)) - 1,
    <<Pre:At/binary, B, Post/binary>> = Bin,
    <<Pre/binary, (B bxor rand:uniform(255)), Post/binary>>.

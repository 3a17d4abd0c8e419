%% zlib streams (zlib:open/0 and the deflate/inflate natives behind them): every init variant
%% and its errors, flush modes, parameters changed mid-stream, dictionaries, resets, the three
%% end-of-stream behaviours, safeInflate and inflateChunk over many chunks, raw-stream crc32/1,
%% streams used after close or from another process, and streams in many processes at once.
-module(zlib_streams).
-export([main/0]).
-compile(nowarn_deprecated_function).

main() ->
    init_variants(),
    flushes(),
    params(),
    dictionaries(),
    resets_and_ends(),
    end_of_stream(),
    chunked(),
    raw_crc(),
    misuse(),
    ownership(),
    many_processes(),
    ok.

show(Label, F) ->
    R = try F() of V -> {ok, V} catch C:E -> {C, E} end,
    io:format("~s: ~w~n", [Label, R]).

text() -> <<"The quick brown fox jumps over the lazy dog. The quick brown fox.">>.

pseudo(N) -> << <<((I * 7919) rem 251)>> || I <- lists:seq(1, N) >>.

deflated(Args, Data) ->
    Z = zlib:open(),
    ok = apply(zlib, deflateInit, [Z | Args]),
    Out = iolist_to_binary(zlib:deflate(Z, Data, finish)),
    ok = zlib:deflateEnd(Z),
    zlib:close(Z),
    Out.

init_variants() ->
    [show(io_lib:format("deflateInit ~w", [Args]), fun() -> deflated(Args, text()) end)
     || Args <- [[], [none], [best_speed], [best_compression], [default], [0], [9], [3],
                 [default, deflated, 15, 8, default], [default, deflated, -15, 8, default],
                 [default, deflated, 31, 8, default], [default, deflated, 9, 1, default],
                 [default, deflated, 8, 8, default], [default, deflated, -9, 9, filtered],
                 [best_speed, deflated, 15, 8, huffman_only], [default, deflated, 15, 8, rle],
                 [default, deflated, 47, 8, default]]],
    [show(io_lib:format("deflateInit ~w", [Args]), fun() -> deflated(Args, text()) end)
     || Args <- [[10], [-1], [fast], [default, stored, 15, 8, default],
                 [default, deflated, 7, 8, default], [default, deflated, 48, 8, default],
                 [default, deflated, -16, 8, default], [default, deflated, 15, 0, default],
                 [default, deflated, 15, 10, default], [default, deflated, 15, 8, huffman]]],
    [show(io_lib:format("inflateInit ~w", [Args]), fun() ->
         Z = zlib:open(),
         R = apply(zlib, inflateInit, [Z | Args]),
         zlib:close(Z),
         R
     end) || Args <- [[], [15], [-15], [31], [47], [8], [7], [48], [-8], [-16], [15, cut],
                      [15, reset], [15, error], [15, other]]],
    show("deflateInit twice", fun() ->
        Z = zlib:open(), ok = zlib:deflateInit(Z), zlib:deflateInit(Z)
    end),
    show("inflateInit after deflateInit", fun() ->
        Z = zlib:open(), ok = zlib:deflateInit(Z), zlib:inflateInit(Z)
    end),
    show("deflateInit after deflateEnd", fun() ->
        Z = zlib:open(), ok = zlib:deflateInit(Z), ok = zlib:deflateEnd(Z), zlib:deflateInit(Z, 1)
    end),
    ok.

flushes() ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    show("deflate none", fun() -> zlib:deflate(Z, <<"aaaa">>) end),
    show("deflate sync", fun() -> zlib:deflate(Z, <<"bbbb">>, sync) end),
    show("deflate full", fun() -> zlib:deflate(Z, <<"cccc">>, full) end),
    show("deflate empty none", fun() -> zlib:deflate(Z, <<>>, none) end),
    show("deflate bad flush", fun() -> zlib:deflate(Z, <<"x">>, sometimes) end),
    show("deflate finish", fun() -> zlib:deflate(Z, [<<"dd">>, "dd"], finish) end),
    show("deflate after finish", fun() -> zlib:deflate(Z, <<"more">>, finish) end),
    show("deflate bad data", fun() -> zlib:deflate(Z, foo) end),
    show("deflateEnd", fun() -> zlib:deflateEnd(Z) end),
    zlib:close(Z),
    %% the sync-flushed prefix inflates on its own
    show("sync-flushed prefix", fun() ->
        D = zlib:open(), ok = zlib:deflateInit(D),
        P = iolist_to_binary(zlib:deflate(D, text(), sync)),
        I = zlib:open(), ok = zlib:inflateInit(I),
        iolist_to_binary(zlib:inflate(I, P))
    end),
    ok.

params() ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z, best_speed),
    A = zlib:deflate(Z, binary:copy(text(), 20)),
    show("deflateParams", fun() -> zlib:deflateParams(Z, best_compression, filtered) end),
    B = zlib:deflate(Z, binary:copy(text(), 20), finish),
    show("output across deflateParams", fun() -> iolist_to_binary([A, B]) end),
    show("round trip", fun() -> zlib:uncompress([A, B]) =:= binary:copy(text(), 40) end),
    show("deflateParams bad level", fun() -> zlib:deflateParams(Z, 11, default) end),
    show("deflateParams bad strategy", fun() -> zlib:deflateParams(Z, 1, other) end),
    ok = zlib:deflateEnd(Z),
    show("deflateParams not initialized", fun() -> zlib:deflateParams(Z, 1, default) end),
    zlib:close(Z),
    ok.

dictionaries() ->
    Dict = <<"quick brown fox lazy dog">>,
    D = zlib:open(),
    ok = zlib:deflateInit(D),
    show("deflateSetDictionary", fun() -> zlib:deflateSetDictionary(D, Dict) end),
    C = iolist_to_binary(zlib:deflate(D, text(), finish)),
    show("deflated with dictionary", fun() -> C end),
    I = zlib:open(),
    ok = zlib:inflateInit(I),
    show("inflate needs dictionary", fun() -> zlib:inflate(I, C) end),
    show("inflateSetDictionary", fun() -> zlib:inflateSetDictionary(I, Dict) end),
    show("inflate after dictionary", fun() -> iolist_to_binary(zlib:inflate(I, [])) end),
    show("inflateGetDictionary", fun() -> byte_size(zlib:inflateGetDictionary(I)) end),
    show("inflateEnd", fun() -> zlib:inflateEnd(I) end),
    I2 = zlib:open(),
    ok = zlib:inflateInit(I2),
    show("inflate no exception", fun() ->
        zlib:inflate(I2, C, [{exception_on_need_dict, false}])
    end),
    show("inflateSetDictionary wrong", fun() -> zlib:inflateSetDictionary(I2, <<"wrong">>) end),
    show("inflateSetDictionary bad arg", fun() -> zlib:inflateSetDictionary(I2, foo) end),
    R = zlib:open(),
    ok = zlib:deflateInit(R, default, deflated, -15, 8, default),
    show("raw deflateSetDictionary", fun() -> zlib:deflateSetDictionary(R, Dict) end),
    show("deflateSetDictionary not initialized", fun() ->
        Z = zlib:open(), zlib:deflateSetDictionary(Z, Dict)
    end),
    show("inflateGetDictionary not initialized", fun() ->
        Z = zlib:open(), zlib:inflateGetDictionary(Z)
    end),
    [zlib:close(X) || X <- [D, I, I2, R]],
    ok.

resets_and_ends() ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    _ = zlib:deflate(Z, <<"abandoned">>),
    show("deflateReset", fun() -> zlib:deflateReset(Z) end),
    show("after deflateReset", fun() -> iolist_to_binary(zlib:deflate(Z, text(), finish)) end),
    show("deflateEnd", fun() -> zlib:deflateEnd(Z) end),
    show("deflateEnd again", fun() -> zlib:deflateEnd(Z) end),
    show("deflateReset not initialized", fun() -> zlib:deflateReset(Z) end),
    C = zlib:compress(text()),
    ok = zlib:inflateInit(Z),
    _ = zlib:inflate(Z, binary:part(C, 0, 10)),
    show("inflateReset", fun() -> zlib:inflateReset(Z) end),
    show("after inflateReset", fun() -> iolist_to_binary(zlib:inflate(Z, C)) end),
    show("inflateEnd", fun() -> zlib:inflateEnd(Z) end),
    ok = zlib:inflateInit(Z),
    _ = zlib:inflate(Z, binary:part(C, 0, 10)),
    show("inflateEnd before the end", fun() -> zlib:inflateEnd(Z) end),
    show("inflateEnd not initialized", fun() -> zlib:inflateEnd(Z) end),
    show("inflate not initialized", fun() -> zlib:inflate(Z, C) end),
    show("inflateReset not initialized", fun() -> zlib:inflateReset(Z) end),
    zlib:close(Z),
    ok.

end_of_stream() ->
    C1 = zlib:compress(<<"one">>),
    C2 = zlib:compress(<<"two">>),
    [show(io_lib:format("two streams, eos ~w", [B]), fun() ->
         Z = zlib:open(),
         ok = zlib:inflateInit(Z, 15, B),
         R = iolist_to_binary(zlib:inflate(Z, [C1, C2])),
         {R, catch zlib:inflateEnd(Z)}
     end) || B <- [cut, reset, error]],
    [show(io_lib:format("later input, eos ~w", [B]), fun() ->
         Z = zlib:open(),
         ok = zlib:inflateInit(Z, 15, B),
         R1 = iolist_to_binary(zlib:inflate(Z, C1)),
         R2 = iolist_to_binary(zlib:inflate(Z, C2)),
         {R1, R2}
     end) || B <- [cut, reset, error]],
    ok.

chunked() ->
    Data = pseudo(100000),
    C = zlib:compress(Data),
    Z = zlib:open(),
    ok = zlib:inflateInit(Z),
    show("safeInflate steps", fun() -> safe_loop(Z, zlib:safeInflate(Z, C), []) end),
    ok = zlib:inflateEnd(Z),
    ok = zlib:inflateInit(Z),
    show("getBufSize", fun() -> zlib:getBufSize(Z) end),
    show("setBufSize", fun() -> zlib:setBufSize(Z, 10000) end),
    show("setBufSize bad", fun() -> zlib:setBufSize(Z, 16) end),
    show("getBufSize after", fun() -> zlib:getBufSize(Z) end),
    show("inflateChunk steps", fun() -> chunk_loop(Z, zlib:inflateChunk(Z, C), []) end),
    zlib:close(Z),
    %% deflate in many calls, each output collected
    D = zlib:open(),
    ok = zlib:deflateInit(D),
    Parts = [zlib:deflate(D, binary:part(Data, I * 10000, 10000)) || I <- lists:seq(0, 9)],
    Last = zlib:deflate(D, <<>>, finish),
    show("deflate in parts", fun() ->
        All = iolist_to_binary([Parts, Last]),
        {byte_size(All), All =:= C, zlib:uncompress(All) =:= Data}
    end),
    zlib:close(D),
    ok.

safe_loop(Z, {continue, Out}, Sizes) ->
    safe_loop(Z, zlib:safeInflate(Z, []), [iolist_size(Out) | Sizes]);
safe_loop(_Z, {finished, Out}, Sizes) ->
    lists:reverse([iolist_size(Out) | Sizes]).

chunk_loop(Z, {more, Out}, Sizes) ->
    chunk_loop(Z, zlib:inflateChunk(Z), [iolist_size(Out) | Sizes]);
chunk_loop(_Z, Out, Sizes) ->
    lists:reverse([iolist_size(Out) | Sizes]).

raw_crc() ->
    D = zlib:open(),
    ok = zlib:deflateInit(D, default, deflated, -15, 8, default),
    Raw = zlib:deflate(D, text(), finish),
    show("raw deflate crc32/1", fun() -> zlib:crc32(D) end),
    I = zlib:open(),
    ok = zlib:inflateInit(I, -15),
    _ = zlib:inflate(I, Raw),
    show("raw inflate crc32/1", fun() -> zlib:crc32(I) end),
    show("erlang:crc32", fun() -> erlang:crc32(text()) end),
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    _ = zlib:deflate(Z, text(), finish),
    show("zlib deflate crc32/1", fun() -> zlib:crc32(Z) end),
    [zlib:close(X) || X <- [D, I, Z]],
    ok.

misuse() ->
    Z = zlib:open(),
    show("close", fun() -> zlib:close(Z) end),
    show("close again", fun() -> zlib:close(Z) end),
    show("deflateInit after close", fun() -> zlib:deflateInit(Z) end),
    show("inflateInit after close", fun() -> zlib:inflateInit(Z) end),
    show("deflate after close", fun() -> zlib:deflate(Z, <<"x">>) end),
    show("inflate after close", fun() -> zlib:inflate(Z, <<"x">>) end),
    show("getBufSize after close", fun() -> zlib:getBufSize(Z) end),
    show("crc32/1 after close", fun() -> zlib:crc32(Z) end),
    show("close not a stream", fun() -> zlib:close(make_ref()) end),
    show("deflate not a stream", fun() -> zlib:deflate(foo, <<"x">>) end),
    show("deflateInit not a stream", fun() -> zlib:deflateInit(make_ref()) end),
    show("inflate not a stream", fun() -> zlib:inflate(self(), <<"x">>) end),
    show("set_controlling_process not a pid", fun() -> zlib:set_controlling_process(zlib:open(), foo) end),
    %% an unfinished stream that nobody closes is collected with its last reference
    [begin S = zlib:open(), ok = zlib:deflateInit(S), _ = zlib:deflate(S, pseudo(1000)) end
     || _ <- lists:seq(1, 200)],
    erlang:garbage_collect(),
    show("streams dropped", fun() -> ok end),
    ok.

ownership() ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    Self = self(),
    Other = fun(F) ->
        spawn(fun() -> Self ! {done, try F() of V -> {ok, V} catch C:E -> {C, E} end} end),
        receive {done, R} -> R end
    end,
    show("deflate from another process", fun() -> Other(fun() -> zlib:deflate(Z, <<"x">>) end) end),
    show("close from another process", fun() -> Other(fun() -> zlib:close(Z) end) end),
    show("set_controlling_process from another", fun() ->
        Other(fun() -> zlib:set_controlling_process(Z, self()) end)
    end),
    Pid = spawn(fun() ->
        receive {go, From} -> From ! {result, iolist_to_binary(zlib:deflate(Z, text(), finish))} end
    end),
    show("set_controlling_process", fun() -> zlib:set_controlling_process(Z, Pid) end),
    show("deflate after handing over", fun() -> zlib:deflate(Z, <<"x">>) end),
    Pid ! {go, self()},
    show("deflate in the new controller", fun() -> receive {result, B} -> B end end),
    ok.

%% Each process with its own streams; results gathered in spawn order.
many_processes() ->
    Self = self(),
    Pids = [spawn(fun() ->
                Data = binary:copy(<<N>>, 50000 + N),
                C = zlib:gzip(Data),
                Self ! {self(), {N, byte_size(C), zlib:gunzip(C) =:= Data}}
            end) || N <- lists:seq(1, 8)],
    show("parallel gzip", fun() -> [receive {P, R} -> R end || P <- Pids] end),
    ok.

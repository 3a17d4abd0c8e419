%% Debian's erlang-bitcask (Basho's key/value store; its NIF library bitcask.so keeps the key
%% directory, file locks and CRC work in C and calls erl_driver.h's erl_errno_id): a store
%% opened, written, read, deleted from, merged, closed and opened again. Prints one line and
%% nothing else where the package is not installed (tools/setup.sh installs it).
-module(nif_bitcask).
-export([main/0]).

main() ->
    case code:which(bitcask) of
        non_existing -> io:format("erlang-bitcask is not installed~n");
        _ -> run()
    end.

run() ->
    Dir = filename:join("/tmp", "nif_bitcask_" ++ os:getpid()),
    _ = file:del_dir_r(Dir),
    B = bitcask:open(Dir, [read_write, {max_file_size, 4096}]),
    show(is_reference, is_reference(B)),
    Keys = [<<"k", (integer_to_binary(I))/binary>> || I <- lists:seq(1, 200)],
    show(puts, lists:usort([bitcask:put(B, K, binary:copy(K, 8)) || K <- Keys])),
    show(get, bitcask:get(B, <<"k7">>)),
    show(missing, bitcask:get(B, <<"nope">>)),
    show(overwrite, {bitcask:put(B, <<"k7">>, <<"new">>), bitcask:get(B, <<"k7">>)}),
    show(deletes, lists:usort([bitcask:delete(B, K) || K <- lists:sublist(Keys, 100)])),
    show(count, length(bitcask:list_keys(B))),
    show(fold, bitcask:fold(B, fun(_K, V, Acc) -> Acc + byte_size(V) end, 0)),
    show(several_files, length(filelib:wildcard(filename:join(Dir, "*.bitcask.data"))) > 1),
    show(close, bitcask:close(B)),
    show(merge, bitcask:merge(Dir)),
    R = bitcask:open(Dir),
    show(reopened_count, length(bitcask:list_keys(R))),
    show(reopened_get, {bitcask:get(R, <<"k150">>), bitcask:get(R, <<"k50">>)}),
    show(read_only_put, catch bitcask:put(R, <<"x">>, <<"y">>)),
    bitcask:close(R),
    show(bad_dir, try bitcask:open("/proc/nif_bitcask_no_such_dir", [read_write])
                  catch error:{badmatch, E} -> {badmatch, E} end),
    _ = file:del_dir_r(Dir),
    ok.

show(What, Value) -> io:format("~p: ~p~n", [What, Value]).
